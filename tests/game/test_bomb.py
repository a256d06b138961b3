"""Bombs (docs/rules.md#option-details): Finnish "Pommi" (deal ends, declarer unchanged,
opponents +60; at most 3 per player; none at or above 800) and Czech
"rozepsat" (declarer loses the bid, opponents +half the bid, unlimited).
Conceding is offered as `concede` in the contract phase."""

from __future__ import annotations

import random
from typing import Any

import pytest

from . import deals
from .helpers import deal, obs, play, rules, texts

HANDS, TALON = deals.EXAMPLE_001


def to_contract(preset: str, totals: list[int] | None = None, **options: object) -> Any:
    g = deal(preset, HANDS, TALON, dealer=2, totals=totals, **options)
    return play(g, "1: bid 110", "2: pass", "0: bid 120", "1: pass", *deals.EXAMPLE_001_GIVES)


@pytest.mark.parametrize("preset", ["standard", "lithuanian", "swedish"])
def test_no_concede_without_bombs(preset: str) -> None:
    assert "concede" not in texts(to_contract(preset))


def test_finnish_bomb_opponents_gain_60_declarer_unchanged() -> None:
    g = to_contract("finnish", totals=[300, 100, 50])
    assert "concede" in texts(g)
    g = play(g, "0: concede")
    d = g.deals[0]
    assert list(d.changes) == [0, 60, 60]
    assert list(g.totals) == [300, 160, 110]
    assert "bomb" in d.notes
    st = next(s for s in obs(g, 0)["seat_states"] if s["seat"] == 0)
    assert st["bombs_used"] == 1


@pytest.mark.parametrize("total,offered", [(790, True), (800, False), (950, False)])
def test_finnish_no_bomb_at_or_above_800(total: int, offered: bool) -> None:
    assert ("concede" in texts(to_contract("finnish", totals=[total, 0, 0]))) == offered


@pytest.mark.parametrize("barrel", ["lock", "none", "sud"])
@pytest.mark.parametrize("target,total,offered", [
    (1000, 790, True), (1000, 800, False), (500, 390, True), (500, 400, False),
])
def test_finnish_bomb_ceiling_does_not_depend_on_the_barrel(
    barrel: str, target: int, total: int, offered: bool,
) -> None:
    # docs/rules.md#option-details Pommi: "none while at or above 800" is a bomb rule, not a lock
    # one; it scales with the target like the default barrel (400 in the 500 game).
    g = to_contract("finnish", totals=[total, 0, 0], barrel=barrel, target=target)
    assert ("concede" in texts(g)) == offered


def test_finnish_bomb_ceiling_ignores_a_moved_barrel_threshold() -> None:
    g = to_contract("finnish", totals=[850, 0, 0], barrel_threshold=900)
    assert "concede" not in texts(g)


def test_czech_concede_loses_the_bid_and_gives_half_to_each_opponent() -> None:
    g = play(to_contract("czech", totals=[300, 100, 50]), "0: concede")
    d = g.deals[0]
    assert list(d.changes) == [-120, 60, 60]
    assert "bomb" in d.notes


def conceding_game(preset: str, seed: int) -> Any:
    """Every declarer concedes whenever it may; otherwise random play."""
    rng = random.Random(seed)
    g = rules(preset, max_deals=40)
    from arena.game import new_game
    state = new_game(g, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        names = [type(a).__name__ for a in legal]
        if "Concede" in names:
            state = state.apply(legal[names.index("Concede")])
        elif "Pass" in names and len(legal) > 1 and rng.random() < 0.7:
            state = state.apply(legal[names.index("Pass")])
        else:
            state = state.apply(rng.choice(legal))
    return state


def test_finnish_at_most_three_bombs_per_player() -> None:
    g = conceding_game("finnish", 5)
    per_seat = [0, 0, 0]
    for d in g.deals:
        if "bomb" in d.notes:
            per_seat[d.declarer] += 1
    assert max(per_seat) == 3  # everyone conceding whenever possible hits the limit
    st = obs(g, 0)["seat_states"]
    assert [s["bombs_used"] for s in st] == per_seat


def test_czech_concessions_are_unlimited() -> None:
    g = conceding_game("czech", 5)
    bombs = [d.declarer for d in g.deals if "bomb" in d.notes]
    assert max(bombs.count(s) for s in range(3)) > 3
    for d in g.deals:
        if "bomb" in d.notes:
            assert d.changes[d.declarer] == -d.bid
