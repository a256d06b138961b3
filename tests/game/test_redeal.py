"""Redeals (docs/rules.md#option-details Redeal conditions): Estonian (four 9s; under 10
points and no marriage), Finnish (four 9s compulsory; 17 or fewer may ask;
two in a row cost the dealer 100 and pass the deal), Czech (hand under 13,
four 9s, four jacks; talon under 6 points, two 9s, three jacks redeal by
themselves), Swedish (four 9s after the exchange), Lithuanian none."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game import Redeal

from .helpers import deal, obs, play, texts

FOUR_NINES = (("AH TH KH QH AC TC JD", "9C 9D 9H 9S AD TD KD", "AS TS KS QS QD JS QC"), "KC JH JC")
NINE_POINTS = (("AH TH KH QH AC TC KD", "9C 9D 9H JS JD JC QD", "AS TS KS QS AD TD 9S"), "KC QC JH")
TEN_POINTS = (("AH TH KH QH AC TC QD", "9C 9D 9H JS JD JC KD", "AS TS KS QS AD TD 9S"), "KC QC JH")
FOUR_JACKS = (("AH TH KH QH AC TC 9S", "JC JD JH JS AD TD KD", "AS TS KS QS QD 9D 9C"), "KC QC 9H")
TALON_UNDER_6 = (("AH TH KH QH AC TC 9S", "AD TD KD JD 9D JC 9H", "AS TS KS QS QD KC QC"), "JH 9C JS")
TALON_TWO_NINES = (("AH TH KH QH AC TC 9S", "AD TD KD JD 9D JC JH", "KC TS KS QS QD JS QC"), "9C 9H AS")
TALON_THREE_JACKS = (("AH TH KH QH AC TC 9S", "AD TD KD JD 9D 9C 9H", "AS TS KS QS QD KC QC"), "JC JH JS")
SWEDISH_NINES = (("AH TH KH QH AC TC JC", "9C 9D 9H AD TD KD JD", "AS TS KS QS QD JS QC"), "KC JH 9S")


def start(preset: str, fixed: tuple[tuple[str, str, str], str], **options: object) -> Any:
    hands, talon = fixed
    return deal(preset, hands, talon, dealer=2, **options)


def offered(g: Any) -> bool:
    return g.phase == "redeal" and "redeal" in texts(g)


@pytest.mark.parametrize("preset,fixed,want", [
    ("estonian", FOUR_NINES, True), ("estonian", NINE_POINTS, True), ("estonian", TEN_POINTS, False),
    ("czech", FOUR_NINES, True), ("czech", TEN_POINTS, True), ("czech", FOUR_JACKS, True),
    ("finnish", TEN_POINTS, True),
    ("lithuanian", FOUR_NINES, False), ("lithuanian", NINE_POINTS, False),
    ("swedish", FOUR_NINES, False), ("estonian", FOUR_JACKS, False),
])
def test_hand_conditions_let_the_holder_ask(preset: str, fixed: Any, want: bool) -> None:
    g = start(preset, fixed)
    assert offered(g) == want
    if want:
        assert g.to_act == 1 and set(texts(g)) == {"redeal", "pass"}


@pytest.mark.parametrize("preset,fixed", [("estonian", FOUR_NINES), ("czech", FOUR_JACKS)])
def test_asking_redeals_with_the_same_dealer(preset: str, fixed: Any) -> None:
    g = play(start(preset, fixed), "1: redeal")
    o = obs(g, 1)
    assert o["hand"] != sorted(fixed[0][1].split()) and o["dealer"] == 2 and o["deal_number"] == 1
    assert not g.deals and list(g.totals) == [0, 0, 0]


def test_declining_goes_on_to_the_auction() -> None:
    g = play(start("estonian", FOUR_NINES), "1: pass")
    assert obs(g, 1)["phase"] == "bidding" and g.to_act == 1
    assert obs(g, 1)["hand"] == sorted(FOUR_NINES[0][1].split(), key=lambda c: "CDHS".index(c[1]) * 6 + "ATKQJ9".index(c[0]))


@pytest.mark.parametrize("preset,fixed,auto", [
    ("finnish", FOUR_NINES, True),
    ("czech", TALON_UNDER_6, True), ("czech", TALON_TWO_NINES, True), ("czech", TALON_THREE_JACKS, True),
    ("estonian", TALON_UNDER_6, False), ("estonian", TALON_TWO_NINES, False),
    ("lithuanian", TALON_THREE_JACKS, False),
])
def test_compulsory_conditions_redeal_by_themselves(preset: str, fixed: Any, auto: bool) -> None:
    g = start(preset, fixed)
    dealt = sorted(fixed[0][0].split())
    assert (sorted(obs(g, 0)["hand"]) != dealt) == auto
    assert obs(g, 0)["dealer"] == 2 and not g.deals


def test_finnish_two_redeals_in_a_row_cost_the_dealer_100_and_pass_the_deal() -> None:
    for seed in range(200):
        g = play(start("finnish", TEN_POINTS, seed=seed, totals=[0, 0, 500]), "1: redeal")
        if g.deals:  # the new cards were redealt by themselves (four 9s)
            break
        if g.phase == "redeal":
            g = g.apply(Redeal())
            break
    else:
        pytest.fail("no seed gave a second redeal")
    d = g.deals[0]
    assert d.dealer == 2 and d.declarer is None
    assert list(d.changes) == [0, 0, -100]
    assert g.totals[2] == 400
    assert obs(g, 0)["dealer"] == 0  # the deal passes left


def test_swedish_four_nines_after_the_exchange_may_abandon() -> None:
    g = play(start("swedish", SWEDISH_NINES), "1: pass", "2: pass", "0: give 9S 1", "0: give JH 2")
    assert g.to_act == 1 and "redeal" in texts(g)
    g = play(g, "1: redeal")
    o = obs(g, 0)
    assert o["dealer"] == 2 and o["deal_number"] == 1 and list(g.totals) == [0, 0, 0]
    assert len(o["hand"]) == 7 and o["phase"] in ("bidding", "redeal")


def test_no_abandoning_outside_swedish() -> None:
    g = play(start("standard", SWEDISH_NINES), "1: pass", "2: pass", "0: give 9S 1", "0: give JH 2")
    assert g.to_act == 0 and "redeal" not in texts(g)


def test_swedish_declarer_with_four_nines_after_the_exchange_may_abandon() -> None:
    hands = ("9C 9D 9H AD TD KD JD", "AH TH KH QH AC TC JC", "AS TS KS QS QD JS QC")
    g = deal("swedish", hands, "KC JH 9S", dealer=2)
    g = play(g, "1: pass", "2: pass", "0: give KC 1", "0: give JH 2")
    assert g.to_act == 0 and set(texts(g)) == {"redeal", "pass"}
    g = play(g, "0: pass")
    assert obs(g, 0)["phase"] == "contract"
