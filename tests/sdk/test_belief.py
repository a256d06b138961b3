"""Belief sampling (arena.sdk.belief): every sampled deal fits the
observation and re-plays through the engine to it; the samples are a
function of the observation alone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena.game import GameState, Rules, new_game
from arena.sdk.belief import BeliefError, Sampler
from arena.wire import codec

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}), ("czech", {}), ("finnish", {}), ("lithuanian", {}), ("swedish", {}),
    ("czech", {"blind": "czech"}), ("czech", {"golden_horse": True}),
    ("finnish", {"blind": "finnish"}), ("finnish", {"exchange": "discard"}),
    ("finnish", {"hidden_talon_on_100": True}), ("swedish", {"players": 4}),
    ("standard", {"auto_declare": False, "must_beat": "suit"}),
]


def points(rules: Rules, seed: int, every: float = 0.25) -> Iterator[tuple[GameState, int]]:
    """(state, seat) pairs along a random game: a random seat's view at about
    `every` of the decisions, every phase and later deals included."""
    g = new_game(rules, seed)
    rng = random.Random(seed)
    for _ in range(300):
        if g.is_over:
            return
        if rng.random() < every:
            yield g, rng.randrange(rules.players)
        legal = g.legal_actions()
        g = g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset,options", VARIANTS, ids=lambda v: str(v))
def test_every_sampled_deal_fits_the_observation_and_replays_to_it(
        preset: str, options: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**options)
    checked = 0
    for seed in (1, 2):
        for g, seat in points(rules, seed):
            obs = g.observation(seat).to_dict()
            sampler = Sampler(rules, obs)
            for deal in sampler.deals(3, random.Random(seed)):
                assert [len(h) for h in deal.hands] == obs["hand_sizes"]
                if obs["hand"]:
                    assert [str(c) for c in deal.hands[seat]] == obs["hand"]
                assert len(deal.talon) == obs["talon_size"]
                # Re-played through the engine with the whole public history
                # (every bid, give, contract and card: illegal ones are refused),
                # the deal reaches this very observation with these hands.
                state = sampler.state(deal)
                assert state.observation(seat).to_dict() == obs
                assert [state.hand(s) for s in range(rules.players)] == list(deal.hands)
                assert state.talon == deal.talon
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("preset", ["standard", "czech"])
def test_samples_depend_on_the_observation_alone(preset: str) -> None:
    """Two true states with the same observation give the same samples: the
    second state is built from a sampled deal, so its hidden cards differ."""
    rules = Rules.preset(preset)
    differed = 0
    for g, seat in points(rules, 7, every=0.4):
        obs = g.observation(seat).to_dict()
        sampler = Sampler(rules, obs)
        other = sampler.state(sampler.sample(random.Random(99)))
        assert other.observation(seat).to_dict() == obs
        hidden = [other.hand(s) for s in range(3) if s != seat] + [other.talon]
        truth = [g.hand(s) for s in range(3) if s != seat] + [g.talon]
        differed += hidden != truth
        again = Sampler(rules, other.observation(seat).to_dict())
        assert list(again.deals(4, random.Random(5))) == list(sampler.deals(4, random.Random(5)))
    assert differed > 20


def test_the_sdk_observation_with_wire_names_samples_the_same() -> None:
    rules = Rules.preset("czech")
    for g, seat in points(rules, 3, every=0.2):
        obs = g.observation(seat).to_dict()
        wire = codec.observation_from_pb(codec.observation_to_pb(obs), wire_names=True)
        assert "talon_count" in wire
        assert (list(Sampler(rules, wire).deals(2, random.Random(1)))
                == list(Sampler(rules, obs).deals(2, random.Random(1))))


def test_a_void_seat_never_gets_the_suit() -> None:
    """Seat 1 did not follow clubs: no sample gives it a club (docs/rules.md#core)."""
    rules = Rules.preset("lithuanian")  # no must_beat: only the void is implied
    hands = ["AC TC KC QC JC 9C AD", "AH TH KH QH JH 9H AS", "TD KD QD JD 9D TS KS"]
    g = new_game(rules, 1, dealer=2, hands=[h.split() for h in hands], talon=["QS", "JS", "9S"])
    for text in ["pass", "pass", "give QS 1", "give AD 2", "contract 100", "play AC", "play 9H"]:
        g = g.apply(next(a for a in g.legal_actions() if str(a) == text))
    obs = g.observation(2).to_dict()
    for deal in Sampler(rules, obs).deals(50, random.Random(4)):
        assert not any(c.suit.value == "C" for c in deal.hands[1])


def test_two_player_rules_are_refused_by_name() -> None:
    rules = Rules.preset("finnish").replace(players=2)
    obs = new_game(rules, 1).observation(0).to_dict()
    with pytest.raises(BeliefError, match="2-player forms are not supported"):
        Sampler(rules, obs)


def _lottery_game(guesses: tuple[str, str], pick: str) -> GameState:
    """Finnish, 4 players (seat 3 deals and sits out): seat 0 is dealt three
    9s and runs the lottery (docs/rules.md#table-sizes)."""
    rules = Rules.preset("finnish").replace(players=4)
    hands = ["9C 9D 9H AC TC KC QC", "AD TD KD QD JD JC AS", "AH TH KH QH JH TS KS", ""]
    g = new_game(rules, 1, dealer=3, hands=[h.split() for h in hands], talon=["QS", "JS", "9S"])
    for text in ["lottery", f"guess {guesses[0]}", f"guess {guesses[1]}", f"pick {pick}"]:
        g = g.apply(next(a for a in g.legal_actions() if str(a) == text))
    return g


def test_a_deal_after_the_lottery_is_sampled_and_replays() -> None:
    """The organiser was dealt three 9s and holds the nine it showed; every
    sample re-plays (the lottery too) to the observation, through the play."""
    rules = Rules.preset("finnish").replace(players=4)
    g = _lottery_game(("red", "black"), "9H")
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        if g.is_over or g.deal_number > 1:
            break
        for seat in (1, 2):
            obs = g.observation(seat).to_dict()
            assert obs["lottery"]["picked"] == "9H"
            sampler = Sampler(rules, obs)
            for deal in sampler.deals(4, rng):
                state = sampler.state(deal)
                assert state.observation(seat).to_dict() == obs
                # (the engine offered the re-played lottery to seat 0, so it was
                # dealt three 9s); the 9H it showed is its own until played.
                played = [p["card"] for t in obs["tricks"] for p in t["cards"]]
                played += [p["card"] for p in obs["trick"]]
                if "9H" not in played:
                    assert "9H" in [str(c) for c in deal.hands[0]]
                checked += 1
        legal = g.legal_actions()
        g = g.apply(legal[rng.randrange(len(legal))])
    assert checked > 40


def test_a_lottery_still_being_run_is_refused_by_name() -> None:
    rules = Rules.preset("finnish").replace(players=4)
    g = new_game(rules, 1, dealer=3, hands=[h.split() for h in [
        "9C 9D 9H AC TC KC QC", "AD TD KD QD JD JC AS", "AH TH KH QH JH TS KS", ""]],
        talon=["QS", "JS", "9S"])
    g = g.apply(next(a for a in g.legal_actions() if str(a) == "lottery"))
    with pytest.raises(BeliefError, match="lottery still being run"):
        Sampler(rules, g.observation(1).to_dict())
