"""Private offers (docs/rules.md#private-offers).

A redeal offer, the Finnish lottery offer and the Swedish four-9s
abandonment are made to a seat because of its hidden hand. For each case:
two fixed first deals that differ only in cards the viewer cannot see (a
swap between the offered seat X and a third seat W); in one X qualifies
and declines, in the other X does not qualify. The viewer's serialized
observation must be byte-identical at the pending state and at every later
state, until a swapped card becomes visible to the viewer (played, given
to it) — from then on the deals differ for real.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.game import new_game
from arena.game.core import PASS

from .helpers import play, rules

Hands = tuple[str, ...]

# (name, preset, options, dealer, hands, talon, X, script to the offer)
CASES: list[tuple[str, str, dict[str, object], int, Hands, str, int, tuple[str, ...]]] = [
    # Estonian four 9s, offered to seat 1 before the auction.
    ("estonian-four-nines", "estonian", {}, 2,
     ("AH TH KH QH AC TC KC", "9C 9D 9H 9S JH JD JC", "AD TD KD QD AS TS KS"), "QC JS QS", 1, ()),
    # The same with Finnish blind bidding: the offer must not make seat 1 "looked".
    ("estonian-four-nines-finnish-blind", "estonian", {"blind": "finnish"}, 2,
     ("AH TH KH QH AC TC KC", "9C 9D 9H 9S JH JD JC", "AD TD KD QD AS TS KS"), "QC JS QS", 1, ()),
    # Finnish lottery (4 players; the dealer, seat 3, sits out): seat 1 has three 9s.
    ("finnish-lottery", "finnish", {"players": 4}, 3,
     ("AC TC KC QC KH QH JH", "9C 9D 9H AH TH AS TS", "AD TD KD QD KS QS JS", ""), "9S JC JD", 1, ()),
    # Swedish: the declarer (seat 0) holds four 9s after taking the talon.
    ("swedish-after-exchange", "swedish", {}, 2,
     ("9C 9D 9H AH TH KH QH", "KC QC JC AD TD KD QD", "JD AS TS KS QS JS JH"), "9S AC TC", 0,
     ("1: pass", "2: pass", "0: give AC 1", "0: give TC 2")),
]

# For each (case, viewer): which card of X swaps with which card of W so that
# X no longer qualifies (X, W and the viewer are three different seats).
SWAPS: dict[tuple[str, int], tuple[int, str, str]] = {
    ("estonian-four-nines", 0): (2, "9S", "KS"),
    ("estonian-four-nines", 2): (0, "9S", "KC"),
    ("estonian-four-nines-finnish-blind", 0): (2, "9S", "KS"),
    ("estonian-four-nines-finnish-blind", 2): (0, "9S", "KC"),
    ("finnish-lottery", 0): (2, "9H", "JS"),
    ("finnish-lottery", 2): (0, "9H", "JH"),
    ("finnish-lottery", 3): (0, "9H", "JH"),
    ("swedish-after-exchange", 1): (2, "9H", "JH"),
    ("swedish-after-exchange", 2): (1, "9H", "QD"),
}


def swapped(hands: Hands, x: int, w: int, a: str, b: str) -> list[list[str]]:
    out = [h.split() for h in hands]
    out[x] = [b if c == a else c for c in out[x]]
    out[w] = [a if c == b else c for c in out[w]]
    return out


def dump(g: Any, seat: int) -> str:
    return json.dumps(g.observation(seat).to_dict(), sort_keys=True)


def private_offer_to(g: Any, seat: int) -> bool:
    return g.to_act == seat and (g.phase == "redeal" or (g.phase == "lottery"
                                 and "lottery" in [str(a) for a in g.legal_actions()]))


@pytest.mark.parametrize("case,viewer", sorted(SWAPS))
def test_a_declined_offer_is_invisible_to_the_other_seats(case: str, viewer: int) -> None:
    _, preset, options, dealer, hands, talon, x, script = next(c for c in CASES if c[0] == case)
    w, a, b = SWAPS[(case, viewer)]
    r = rules(preset, **options)
    g1 = new_game(r, seed=7, dealer=dealer, hands=[h.split() for h in hands], talon=talon.split())
    g2 = new_game(r, seed=7, dealer=dealer, hands=swapped(hands, x, w, a, b), talon=talon.split())
    g1, g2 = play(g1, *script), play(g2, *script)
    assert private_offer_to(g1, x), f"{case}: seat {x} should have an offer"
    assert not private_offer_to(g2, x), f"{case}: seat {x} should have no offer"
    compared, declined = 0, False
    while not g1.is_over and not g2.is_over:
        o1 = g1.observation(viewer).to_dict()
        if {a, b} & set(json.dumps([o1, g2.observation(viewer).to_dict()]).replace('"', " ").split()):
            break  # a swapped card is now visible to the viewer: the deals really differ
        assert dump(g1, viewer) == dump(g2, viewer), (
            f"{case}: seat {viewer} tells the deals apart after {compared} states"
            f"\nqualifying: {dump(g1, viewer)}\nnot:        {dump(g2, viewer)}")
        compared += 1
        if private_offer_to(g1, x) and not declined:
            g1, declined = g1.apply(PASS), True
            continue
        action = g1.legal_actions()[0]
        if g2.to_act != g1.to_act or action not in g2.legal_actions():
            break
        g1, g2 = g1.apply(action), g2.apply(action)
    assert declined and compared >= 8, f"{case}: only {compared} states compared"


def test_finnish_blind_seat_that_saw_its_cards_at_an_offer_may_only_look() -> None:
    _, preset, options, dealer, hands, talon, x, _ = CASES[1]
    g = new_game(rules(preset, **options), seed=7, dealer=dealer,
                 hands=[h.split() for h in hands], talon=talon.split())
    assert g.to_act == x and g.phase == "redeal"
    assert len(g.observation(x).to_dict()["hand"]) == 7  # it sees what it decides on
    g = g.apply(PASS)
    # Publicly it has not looked: it is asked blind-or-look like everyone else...
    assert g.to_act == x and g.phase == "blind"
    assert not g.observation(0).to_dict()["seat_states"][x]["looked"]
    # ...but having seen its cards it may not bid blind.
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    assert len(g.observation(x).to_dict()["hand"]) == 7


def test_other_seats_see_the_position_after_the_offer() -> None:
    _, preset, options, dealer, hands, talon, x, _ = CASES[0]
    g = new_game(rules(preset, **options), seed=7, dealer=dealer,
                 hands=[h.split() for h in hands], talon=talon.split())
    assert g.phase == "redeal" and g.to_act == x and g.private_offer
    assert not g.apply(PASS).private_offer
    for seat in (0, 2):
        o = g.observation(seat).to_dict()
        assert o["phase"] == "bidding" and o["to_act"] == x
    assert g.observation(x).to_dict()["phase"] == "redeal"
