"""Barrels (docs/rules.md#option-details): `lock` (Estonian 800 / 400 in the 500 game, cap
990; Finnish 800) and `sud` (Czech 880: sitting, three attempts, bumping,
two reaching together)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game import new_game

from .helpers import deal_done, obs, play, play_first_legal, rules
from .scoring_examples import example_001

# example_001: declarer 0 makes 120; opponents' deal scores 24 and 18.


@pytest.mark.parametrize("preset", ["standard", "estonian", "finnish"])
def test_lock_opponent_at_the_barrel_gains_nothing(preset: str) -> None:
    d = example_001(preset, totals=[0, 800, 790]).deals[0]
    assert list(d.changes) == [120, 0, 20]


def test_lock_declarer_at_the_barrel_gains_its_contract() -> None:
    assert example_001("standard", totals=[800, 0, 0]).deals[0].changes[0] == 120


def test_lock_threshold_is_400_in_the_500_game() -> None:
    d = example_001("estonian", totals=[0, 400, 390], target=500).deals[0]
    assert list(d.changes) == [120, 0, 20]


def test_no_lock_in_lithuanian() -> None:
    d = example_001("lithuanian", totals=[0, 800, 0]).deals[0]
    assert list(d.changes) == [120, 20, 20]


# 4 players, dealer 3: seat 0 (the opener) holds three 9s and a weak hand.
LOTTERY_HANDS = ("9C 9D 9H AS TS KS QS", "AH TH KH QH KC QC JS", "AC TC JC AD TD KD QD", "")
LOTTERY_TALON = "9S JH JD"


@pytest.mark.parametrize("total,change", [(850, -100), (700, 0)])
def test_lock_failed_declarer_keeps_no_lottery_win(total: int, change: int) -> None:
    # docs/rules.md#option-details lock: a locked seat gains only as a declarer that makes its
    # contract. Seat 0 wins its own lottery (+100, nobody guessed red), then
    # fails the opening 100: locked it just loses 100; unlocked the lottery
    # still counts (docs/rules.md#table-sizes: -100 + 100).
    r = rules("finnish", players=4, redeal="none")
    g = new_game(r, seed=1, dealer=3, totals=[total, 0, 0, 0],
                 hands=[h.split() for h in LOTTERY_HANDS], talon=LOTTERY_TALON.split())
    g = play(g, "0: lottery", "1: guess black", "2: guess black", "0: pick 9H", "1: pass", "2: pass")
    d = play_first_legal(g, deal_done(g)).deals[0]
    assert d.declarer == 0 and d.contract == 100 and not d.made
    assert "lottery" in d.notes and d.changes[0] == change


def test_estonian_opponent_never_passes_990() -> None:
    # with the barrel raised out of the way, the cap alone: 980 + 20 -> 990
    g = example_001("estonian", totals=[0, 980, 0], barrel_threshold=1000)
    assert list(g.deals[0].changes) == [120, 10, 20] and g.totals[1] == 990
    assert not g.is_over  # only a declarer can reach the target


def test_without_the_cap_an_opponent_can_finish() -> None:
    g = example_001("lithuanian", totals=[0, 980, 0])
    assert g.is_over and g.finish[0] == (1,)


def seat_state(g: Any, seat: int) -> dict[str, Any]:
    return next(s for s in obs(g, seat)["seat_states"] if s["seat"] == seat)


def test_sud_reaching_880_sits_at_exactly_880() -> None:
    g = example_001("czech", totals=[800, 0, 0])
    assert g.totals[0] == 880
    st = seat_state(g, 0)
    assert st["on_barrel"] and st["barrel_deals"] == 0


def test_sud_two_reaching_together_both_get_minus_120_and_nobody_sits() -> None:
    g = example_001("czech", totals=[800, 870, 0])  # 920 and 895
    assert list(g.totals[:2]) == [760, 760]
    assert not seat_state(g, 0)["on_barrel"] and not seat_state(g, 1)["on_barrel"]


def play_deals_with_declarer(g: Any, choose: Any, deals: int) -> Any:
    """Play `deals` more deals; in the auction only `choose(g)` bids (the
    minimum), everyone else passes; no concessions; first legal card."""
    target = len(g.deals) + deals
    while not g.is_over and len(g.deals) < target:
        legal = g.legal_actions()
        names = [type(a).__name__ for a in legal]
        seat = g.to_act
        if "Bid" in names or ("Pass" in names and obs(g, seat)["phase"] == "bidding"):
            want = choose(g)
            a = legal[names.index("Bid")] if seat == want and "Bid" in names and \
                obs(g, seat)["bidder"] != seat else legal[names.index("Pass")]
        elif "Pass" in names:
            a = legal[names.index("Pass")]  # decline offers (redeal, blind)
        else:
            a = next(x for x in legal if type(x).__name__ != "Concede")
        g = g.apply(a)
    return g


def test_sud_sitter_gains_nothing_as_opponent_and_falls_after_three_deals() -> None:
    g = example_001("czech", totals=[800, 0, 0])
    assert seat_state(g, 0)["on_barrel"]
    for k in (1, 2):
        g = play_deals_with_declarer(g, lambda s: 1, 1)
        assert g.deals[-1].declarer != 0 and g.deals[-1].changes[0] == 0
        assert g.totals[0] == 880 and seat_state(g, 0)["barrel_deals"] == k
    g = play_deals_with_declarer(g, lambda s: 1, 1)
    assert g.totals[0] == 760  # three deals without a 120 contract: -120
    assert not seat_state(g, 0)["on_barrel"]


def test_sud_newcomer_bumps_the_sitter() -> None:
    g = example_001("czech", totals=[800, 850, 0])  # seat 0 sits at 880; seat 1 at 875
    assert list(g.totals[:2]) == [880, 875] and seat_state(g, 0)["on_barrel"]
    g = play_deals_with_declarer(g, lambda s: 2, 1)
    d = g.deals[-1]
    assert d.declarer == 2 and d.deal_scores[1] >= 5  # the seeded deal 2 lifts seat 1 over 880
    assert g.totals[1] == 880 and seat_state(g, 1)["on_barrel"]
    assert g.totals[0] == 760 and not seat_state(g, 0)["on_barrel"]  # bumped off: -120
