"""Observation dicts of real games fit the protobuf Observation, both ways."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from arena.game import Rules, new_game
from arena.wire import codec
from arena.wire.codec import pb

VARIANTS = [(p, ()) for p in Rules.presets()] + [
    ("czech", (("blind", "czech"), ("golden_horse", True), ("samosval", True))),
    ("finnish", (("players", 4), ("lottery", True), ("dealer_talon_points", True))),
    ("finnish", (("players", 2),)),
    ("finnish", (("players", 2), ("two_player_form", "banks"))),
    ("finnish", (("blind", "finnish"), ("exchange", "discard"))),
]


def _variant_rules(preset: str, options: tuple[tuple[str, object], ...]) -> Rules | None:
    try:
        return Rules.preset(preset).replace(**dict(options))
    except ValueError:
        return None  # a combination this engine does not offer


def _wire_names(obs: dict) -> dict:
    """The engine's dict with the keys the proto's fields are named by."""
    return {codec.OBSERVATION_RENAMES.get(k, k): v for k, v in obs.items()}


@pytest.mark.parametrize(("preset", "options"), VARIANTS, ids=lambda v: str(v))
def test_observations_of_random_games_parse_exactly(preset: str, options: tuple) -> None:
    rules = _variant_rules(preset, options)
    if rules is None:
        pytest.skip(f"{preset} {options} not offered by the engine")
    rng = random.Random(7)
    for game_no in range(2):
        game = new_game(rules.replace(max_deals=6), seed=game_no)
        encoders = [codec.ObservationEncoder() for _ in range(rules.players)]
        steps = 0
        while not game.is_over and steps < 120:
            for seat in range(rules.players):
                obs = game.observation(seat).to_dict()
                fast = codec.observation_to_pb(obs)
                reference = json_format.ParseDict(_wire_names(obs), pb.Observation())
                assert fast == reference
                # Incremental encoding (every step for seat 0, every 3rd for the others).
                if seat == 0 or steps % 3 == 0:
                    assert encoders[seat].encode(obs) == reference
                back = codec.observation_from_pb(pb.Observation.FromString(fast.SerializeToString()))
                assert back == obs
                wire = codec.observation_from_pb(fast, wire_names=True)
                assert wire == _wire_names(obs) and "talon_count" in wire
            game = game.apply(rng.choice(game.legal_actions()))
            steps += 1
