"""Messages composed from cached parts equal the ones protobuf builds."""

from __future__ import annotations

import random

import pytest

from arena.game import Rules, new_game
from arena.wire import codec
from arena.wire.codec import pb


def _events(rng: random.Random, n: int) -> list[pb.Event]:
    out = []
    for i in range(n):
        ev = pb.Event(deal_number=rng.randrange(300), kind="action", text="seat 1: " + "x" * rng.randrange(200))
        if i % 2:
            ev.seat = rng.randrange(4)
            ev.action.kind = "play"
            ev.action.card = "AS"
        out.append(ev)
    return out


@pytest.mark.parametrize("preset", Rules.presets())
def test_decision_message_equals_the_protobuf_serialization(preset: str) -> None:
    rng = random.Random(11)
    game = new_game(Rules.preset(preset).replace(max_deals=4), seed=5)
    steps = 0
    while not game.is_over and steps < 400:
        legal = game.legal_actions()
        obs = codec.observation_to_pb(game.observation(game.to_act).to_dict())
        events = _events(rng, rng.randrange(4))
        seq = rng.choice([0, 1, 127, 128, 300, 2**40])
        limit, bank = rng.choice([(0.0, 0.0), (10.5, 0.5), (-0.0, 1e9), (3.25, 0.0)])
        reference = pb.RefereeMessage(decision=pb.DecisionRequest(
            seq=seq, observation=obs, legal_actions=[codec.action_to_pb(a) for a in legal],
            legal_texts=[str(a) for a in legal], time_limit_s=limit, bank_left_s=bank, events=events,
        )).SerializeToString()
        composed = codec.decision_message(seq, obs.SerializeToString(), legal, limit, bank,
                                          codec.event_field(events))
        assert composed == reference
        game = game.apply(rng.choice(legal))
        steps += 1


def test_an_empty_observation_is_still_present() -> None:
    data = codec.decision_message(1, b"", [], 0.0, 0.0, [])
    msg = pb.RefereeMessage.FromString(data)
    assert msg.decision.HasField("observation")
    assert data == pb.RefereeMessage(decision=pb.DecisionRequest(seq=1, observation=pb.Observation())).SerializeToString()


def test_action_bytes_are_the_action_message_serialized() -> None:
    game = new_game(Rules.preset("standard"), seed=2)
    for action in game.legal_actions():
        assert codec.action_bytes(action) == codec.action_to_pb(action).SerializeToString()
        assert codec.action_from_pb(pb.Action.FromString(codec.action_bytes(action))) == action


def test_events_come_back_from_their_field_form() -> None:
    events = _events(random.Random(3), 5)
    fields = codec.event_field(events)
    assert len(fields) == len(events)
    assert list(codec.events_of(fields)) == events
    assert list(codec.events_of([])) == []


def test_sent_action_is_the_inverse_of_action_bytes() -> None:
    game = new_game(Rules.preset("standard"), seed=2)
    for action in game.legal_actions():
        assert codec.sent_action(codec.action_bytes(action)) is action
    assert codec.sent_action(pb.Action(kind="play", card="XX").SerializeToString()) is None


@pytest.mark.parametrize("events", [0, 1, 3])
def test_turn_message_equals_the_protobuf_serialization(events: int) -> None:
    rng = random.Random(events)
    for seat, phase, deal, per_move in [(0, "", 0, 0.0), (2, "bidding", 1, 60.0), (3, "play", 300, 0.25)]:
        evs = _events(rng, events)
        game = new_game(Rules.preset("standard"), seed=seat)
        obs = codec.observation_to_pb(game.observation(seat % 3).to_dict()) if phase else pb.Observation()
        reference = pb.RefereeMessage(turn=pb.Turn(
            seat=seat, phase=phase, deal_number=deal, per_move_s=per_move, events=evs, observation=obs,
        )).SerializeToString()
        composed = codec.turn_message(seat, phase, deal, per_move, codec.event_field(evs),
                                      obs.SerializeToString())
        assert composed == reference
        assert pb.RefereeMessage.FromString(composed).turn.HasField("observation")
