"""The fixed deals the scenario tests rely on are whole decks: 24 distinct
cards, 7+7+7+3, 120 card points."""

from __future__ import annotations

import pytest

from arena.game.cards import DECK, Card

from . import deals, test_play, test_redeal

FIXED = dict(deals.ALL)
FIXED["TRUMP_LEAD"] = test_play.TRUMP_LEAD
FIXED.update({name: getattr(test_redeal, name) for name in (
    "FOUR_NINES", "NINE_POINTS", "TEN_POINTS", "FOUR_JACKS", "TALON_UNDER_6", "TALON_TWO_NINES",
    "TALON_THREE_JACKS", "SWEDISH_NINES")})


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_deals_are_whole_decks(name: str) -> None:
    hands, talon = FIXED[name]
    parts = [h.split() for h in hands] + [talon.split()]
    assert [len(p) for p in parts] == [7, 7, 7, 3]
    cards = [Card.parse(c) for p in parts for c in p]
    assert sorted(cards, key=lambda c: c.index) == list(DECK)
    assert sum(c.points for c in cards) == 120
