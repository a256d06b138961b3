"""Other table sizes (docs/rules.md#table-sizes): 4 players (the dealer sits out; Finnish:
the sitting dealer gains the talon's card points; the lottery with three 9s
and its three outcomes) and both 2-player forms (stock with an alternating
maker; two banks)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game import new_game

from . import deals
from .helpers import obs, play, rules, texts
from .scoring_examples import TRICKS

HANDS, TALON = deals.EXAMPLE_001
NINES = ("AH TH KH QH AC TC JC", "9C 9D 9H AD TD KD JD", "AS TS KS QS QD JS QC")  # seat 1: three 9s
NINES_TALON = "KC JH 9S"


def four(preset: str, hands: tuple[str, str, str], talon: str, **options: object) -> Any:
    r = rules(preset, players=4, **options)
    return new_game(r, seed=1, dealer=3, hands=[h.split() for h in hands] + [[]], talon=talon.split())


@pytest.mark.parametrize("preset", ["finnish", "swedish"])
def test_four_players_the_dealer_sits_out(preset: str) -> None:
    g = four(preset, HANDS, TALON)
    o = obs(g, 3)
    assert o["active_seats"] == [0, 1, 2] and o["hand"] == [] and o["dealer"] == 3
    g = play(g, "1: bid 110", "2: pass", "0: bid 120", "1: pass", *deals.EXAMPLE_001_GIVES,
             "0: contract 120", *TRICKS)
    d = g.deals[0]
    assert list(d.changes[:3]) == ([120, 20, 20] if preset == "finnish" else [120, 25, 20])
    # Finnish: the sitting dealer gains the talon's card points (QS 9D TC = 13),
    # not rounded (rounding is for opponents' deal scores)
    assert d.deal_scores[3] == (13 if preset == "finnish" else 0)
    assert d.changes[3] == (13 if preset == "finnish" else 0)
    assert obs(g, 0)["dealer"] == 0 and obs(g, 0)["active_seats"] == [1, 2, 3]


@pytest.mark.parametrize("rounding", ["ten_half_down", "five_nearest"])
def test_sitting_dealer_talon_points_are_not_rounded(rounding: str) -> None:
    # docs/rules.md#table-sizes "gains the card points of the talon"; #options rounding applies to
    # opponents' deal scores only: 13 stays 13 (not 10, nor 15).
    g = four("finnish", HANDS, TALON, rounding=rounding)
    g = play(g, "1: bid 110", "2: pass", "0: bid 120", "1: pass", *deals.EXAMPLE_001_GIVES,
             "0: contract 120", *TRICKS)
    d = g.deals[0]
    assert d.deal_scores[3] == 13 and d.changes[3] == 13 and g.totals[3] == 13


def lottery(guesses: tuple[str, str], pick: str) -> Any:
    g = four("finnish", NINES, NINES_TALON)
    assert g.to_act == 1 and set(texts(g)) == {"lottery", "pass"}
    g = play(g, "1: lottery")
    g = play(g, f"2: guess {guesses[0]}", f"0: guess {guesses[1]}")
    assert sorted(t for t in texts(g)) == ["pick 9C", "pick 9D", "pick 9H"]
    g = play(g, f"1: pick {pick}")
    assert obs(g, 0)["lottery"]["picked"] == pick
    while not g.deals:
        g = g.apply(g.legal_actions()[0])
    return g.deals[0]


def no_lottery() -> Any:
    g = play(four("finnish", NINES, NINES_TALON), "1: pass")
    while not g.deals:
        g = g.apply(g.legal_actions()[0])
    return g.deals[0]


@pytest.mark.parametrize("guesses,pick,bonus", [
    (("red", "red"), "9C", [0, 100, 0, 0]),     # nobody guessed: the organiser +100
    (("red", "black"), "9D", [0, 0, 100, 0]),   # one guessed: that guesser +100
    (("red", "red"), "9H", [50, 0, 50, 0]),     # both guessed: +50 each
])
def test_finnish_lottery_outcomes(guesses: tuple[str, str], pick: str, bonus: list[int]) -> None:
    with_lottery = lottery(guesses, pick)
    without = no_lottery()
    assert [a - b for a, b in zip(with_lottery.changes, without.changes, strict=True)] == bonus


def test_no_lottery_with_three_players() -> None:
    hands, talon = NINES, NINES_TALON
    g = new_game(rules("finnish"), seed=1, dealer=2, hands=[h.split() for h in hands], talon=talon.split())
    assert "lottery" not in texts(g)


def test_two_player_stock_form_alternates_the_maker() -> None:
    g = new_game(rules("finnish", players=2), seed=1, dealer=0)
    o = obs(g, 0)
    assert len(o["hand"]) == 6 and o["stock_size"] == 12 and o["phase"] == "play"
    makers = []
    stock_seen = [o["stock_size"]]
    while len(g.deals) < 4:
        if len(makers) == len(g.deals):
            makers.append(obs(g, 0)["forced_seat"])
        g = g.apply(g.legal_actions()[0])
        if len(g.deals) == 0:
            stock_seen.append(obs(g, 0)["stock_size"])
    assert makers[:4] == [1, 0, 1, 0]
    assert [d.declarer for d in g.deals[:4]] == makers[:4]
    assert all(d.contract == 100 for d in g.deals[:4])
    assert sorted(set(stock_seen), reverse=True) == list(range(12, -1, -2))  # one card each per trick


def test_two_player_banks_form() -> None:
    g = new_game(rules("finnish", players=2, two_player_form="banks"), seed=1, dealer=1)
    o = obs(g, 0)
    assert len(o["hand"]) == 8 and o["bank_sizes"] == [4, 4] and o["phase"] == "bidding"
    g = play(g, "1: pass")  # seat 0 opened at 100 and wins the auction
    assert set(texts(g)) == {"take 0", "take 1"}
    g = play(g, "0: take 0")
    assert len(obs(g, 0)["hand"]) == 12 and obs(g, 0)["bank_sizes"] == [0, 4]
    gives = texts(g)
    assert gives and all(t.startswith("give ") and t.endswith(" 1") for t in gives)
    g = play(g, gives[0])
    g = play(g, texts(g)[0])
    assert [len(obs(g, s)["hand"]) for s in (0, 1)] == [10, 10]
    while not g.deals:
        g = g.apply(g.legal_actions()[0])
    assert len(obs(g, 0)["hand"]) == 8 or g.is_over
