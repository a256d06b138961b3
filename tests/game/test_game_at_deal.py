"""`game_at_deal`: a game at the start of a later deal with given game facts
and this deal's cards fixed (the engine's constructor for simulating bots)."""

from __future__ import annotations

import pytest

from arena.game import Rules, SetupError, game_at_deal, new_game
from arena.game.cards import Card

HANDS = ("AH TH KH QH AC 9C 9S", "AD TD KD JD 9D JC 9H", "AS TS KS QS QD KC QC")


def test_the_deal_starts_with_the_given_cards_and_game_facts() -> None:
    r = Rules.preset("czech")
    g = game_at_deal(r, 5, deal_number=7, dealer=1, totals=[300, -40, 880],
                     hands=[h.split() for h in HANDS], talon=["JH", "JS", "TC"],
                     bolts=[2, 0, 1], bombs_used=[0, 1, 0], barrel_seat=2, barrel_deals=1)
    assert (g.deal_number, g.dealer, g.totals, g.phase) == (7, 1, (300, -40, 880), "bidding")
    assert [" ".join(map(str, g.hand(s))) for s in range(3)] == [
        "AC 9C AH TH KH QH 9S", "JC AD TD KD JD 9D 9H", "KC QC QD AS TS KS QS"]
    assert g.talon == tuple(Card.parse(x) for x in ["JH", "JS", "TC"])
    states = g.observation(0).seat_states
    assert [s["bolts"] for s in states] == [2, 0, 1]
    assert [s["bombs_used"] for s in states] == [0, 1, 0]
    assert [s["on_barrel"] for s in states] == [False, False, True]
    assert states[2]["barrel_deals"] == 1


def test_later_deals_come_from_the_seed_as_in_new_game() -> None:
    """After the fixed deal, the next deal is the seed's deal of that number."""
    r = Rules.preset("standard")
    a = game_at_deal(r, 11, deal_number=1, dealer=0, totals=[0, 0, 0],
                     hands=[h.split() for h in HANDS], talon=["JH", "JS", "TC"])
    b = new_game(r, 11, dealer=0, hands=[h.split() for h in HANDS], talon=["JH", "JS", "TC"])
    while a.deal_number == 1:
        a, b = a.apply(a.legal_actions()[0]), b.apply(b.legal_actions()[0])
    assert [a.hand(s) for s in range(3)] == [b.hand(s) for s in range(3)]


def test_cards_that_would_be_redealt_are_refused() -> None:
    r = Rules.preset("czech")  # docs/rules.md#option-details: a talon under 6 points redeals by itself
    with pytest.raises(SetupError, match="would be redealt"):
        game_at_deal(r, 1, deal_number=3, dealer=2, totals=[0, 0, 0],
                     hands=[["AH", "TH", "KH", "QH", "AC", "TC", "9S"], ["AD", "TD", "KD", "JD", "9D", "JC", "9H"],
                            ["AS", "TS", "KS", "QS", "QD", "KC", "QC"]], talon=["JH", "9C", "JS"])


@pytest.mark.parametrize("kwargs,message", [
    ({"deal_number": 0}, "deal_number must be a whole number >= 1"),
    ({"bolts": [0, 1]}, "bolts must be 3 whole numbers"),
    ({"barrel_seat": 3}, "barrel_seat must be a seat 0..2"),
    ({"barrel_deals": 3}, "barrel_deals must be 0, 1 or 2"),
    ({"horse_left": 2}, "horse_left must be 0..0"),
])
def test_bad_facts_are_named(kwargs: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"deal_number": 2, "dealer": 0, "totals": [0, 0, 0],
                               "hands": [h.split() for h in HANDS], "talon": ["JH", "JS", "TC"]}
    base.update(kwargs)
    with pytest.raises(SetupError, match=message):
        game_at_deal(Rules.preset("standard"), 1, **base)  # type: ignore[arg-type]
