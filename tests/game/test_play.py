"""Trick play (docs/rules.md#core Play; #options must_trump, must_beat): following suit,
must-beat vs none, must-trump vs not, over-trumping (suit_and_trump), the
trick winner, the declarer's first lead and the exchange order."""

from __future__ import annotations

import pytest

from . import deals
from .helpers import deal, obs, play, plays, texts

HANDS, TALON = deals.FOLLOWING
PRESETS = ["standard", "lithuanian", "czech", "finnish", "swedish"]


def to_first_lead(preset: str):  # type: ignore[no-untyped-def]
    g = deal(preset, HANDS, TALON, dealer=2)
    return play(g, "1: pass", "2: pass", *deals.FOLLOWING_GIVES, "0: contract 100")


@pytest.mark.parametrize("preset", PRESETS)
def test_declarer_leads_the_first_trick(preset: str) -> None:
    g = to_first_lead(preset)
    assert g.to_act == 0
    assert obs(g, 0)["phase"] == "play"
    assert plays(g) == sorted(["AC", "TC", "KC", "QC", "JC", "9C", "9D", "AH"])


@pytest.mark.parametrize("preset", PRESETS)
def test_must_follow_the_led_suit(preset: str) -> None:
    g = play(to_first_lead(preset), "0: play 9D")
    assert plays(g) == ["KD"]


@pytest.mark.parametrize("preset,allowed", [
    ("standard", ["AD", "TD"]),                 # must_beat: beat KD if you can
    ("lithuanian", ["AD", "JD", "QD", "TD"]),   # must_beat none: any diamond
    ("czech", ["AD", "JD", "QD", "TD"]),
    ("finnish", ["AD", "JD", "QD", "TD"]),
    ("swedish", ["AD", "JD", "QD", "TD"]),
])
def test_must_beat_the_highest_card_of_the_led_suit(preset: str, allowed: list[str]) -> None:
    g = play(to_first_lead(preset), "0: play 9D", "1: play KD")
    assert plays(g) == sorted(allowed)


@pytest.mark.parametrize("preset", PRESETS)
def test_highest_card_of_the_led_suit_wins_without_trump(preset: str) -> None:
    g = play(to_first_lead(preset), "0: play 9D", "1: play KD", "2: play AD")
    o = obs(g, 0)
    assert o["tricks"][-1]["winner"] == 2 and g.to_act == 2
    assert o["tricks_won"] == [0, 0, 1] and o["points_won"] == [0, 0, 15]


def after_marriage_trick(preset: str):  # type: ignore[no-untyped-def]
    g = play(to_first_lead(preset), "0: play 9D", "1: play KD", "2: play AD", "2: M KH")
    assert obs(g, 1)["trump"] == "H"
    assert plays(g) == ["AH"]  # 0 follows with its only heart
    g = play(g, "0: play AH")
    assert plays(g) == ["JH", "TH"]  # 1 cannot beat AH: any heart
    return play(g, "1: play TH", "0: play AC")


@pytest.mark.parametrize("preset,allowed", [
    ("standard", ["JH"]), ("lithuanian", ["JH"]), ("czech", ["JH"]), ("swedish", ["JH"]),
    ("finnish", sorted(["JH", "KS", "QS", "JS", "9S", "TS"])),  # must_trump no: any card
])
def test_void_in_the_led_suit_must_trump(preset: str, allowed: list[str]) -> None:
    g = after_marriage_trick(preset)
    assert g.to_act == 1
    assert plays(g) == allowed


@pytest.mark.parametrize("preset,allowed", [
    ("standard", ["QH"]),                                        # suit_and_trump: over-trump JH
    ("lithuanian", ["9H", "QH"]), ("czech", ["9H", "QH"]), ("swedish", ["9H", "QH"]),
    ("finnish", sorted(["TD", "QD", "JD", "QH", "9H", "AS"])),
])
def test_must_over_trump_only_with_suit_and_trump(preset: str, allowed: list[str]) -> None:
    g = play(after_marriage_trick(preset), "1: play JH")
    assert plays(g) == allowed


@pytest.mark.parametrize("preset", PRESETS)
def test_highest_trump_wins_the_trick(preset: str) -> None:
    g = play(after_marriage_trick(preset), "1: play JH", "2: play QH")
    o = obs(g, 0)
    assert [c["card"] for c in o["tricks"][-1]["cards"]] == ["AC", "JH", "QH"]
    assert o["tricks"][-1]["winner"] == 2 and g.to_act == 2


TRUMP_LEAD = (("AS KH QH AC TC KD QD", "AH JH 9S JS TD 9D JC", "TS KS QS TH QC 9C 9H"), "AD JD KC")


def trump_lead(preset: str, **options: object):  # type: ignore[no-untyped-def]
    hands, talon = TRUMP_LEAD
    g = deal(preset, hands, talon, dealer=2, **options)
    g = play(g, "1: pass", "2: pass", "0: give JD 1", "0: give KC 2", "0: contract 100")
    return play(g, "0: play AS", "1: play 9S", "2: play QS", "0: M QH")


@pytest.mark.parametrize("preset,options,allowed", [
    ("standard", {}, ["AH"]),
    ("standard", {"must_beat": "suit"}, ["AH"]),
    ("lithuanian", {}, ["AH", "JH"]),
])
def test_a_trump_lead_must_be_beaten_too(preset: str, options: dict[str, object],
                                         allowed: list[str]) -> None:
    g = trump_lead(preset, **options)
    assert obs(g, 1)["trump"] == "H"
    assert plays(g) == allowed


@pytest.mark.parametrize("preset,options", [("standard", {}), ("standard", {"must_beat": "suit"})])
def test_must_beat_is_waived_once_the_trick_is_trumped(preset: str, options: dict[str, object]) -> None:
    # docs/rules.md#options must_beat: "unless the trick has already been trumped"
    g = play(trump_lead(preset, **options), "1: play AH", "2: play 9H")
    assert g.to_act == 1
    g = play(g, "1: play TD")
    assert plays(g) == ["TH"]  # seat 2 is void in diamonds: must trump
    g = play(g, "2: play TH")
    assert plays(g) == ["AD", "KD", "QD"]  # seat 0 need not beat TD any more
    g = play(g, "0: play QD")
    assert obs(g, 0)["tricks"][-1]["winner"] == 2


def test_must_beat_suit_does_not_force_an_over_trump() -> None:
    g = play(after_marriage_trick_with("standard", must_beat="suit"), "1: play JH")
    assert plays(g) == ["9H", "QH"]


def after_marriage_trick_with(preset: str, **options: object):  # type: ignore[no-untyped-def]
    g = deal(preset, HANDS, TALON, dealer=2, **options)
    g = play(g, "1: pass", "2: pass", *deals.FOLLOWING_GIVES, "0: contract 100")
    return play(g, "0: play 9D", "1: play KD", "2: play AD", "2: M KH", "0: play AH",
                "1: play TH", "0: play AC")


@pytest.mark.parametrize("preset", PRESETS)
def test_exchange_gives_left_then_right(preset: str) -> None:
    g = play(deal(preset, HANDS, TALON, dealer=2), "1: pass", "2: pass")
    first = texts(g)
    assert first and all(t.startswith("give ") and t.endswith(" 1") for t in first)
    assert len(first) == 10
    g = play(g, "0: give TS 1")
    second = texts(g)
    assert all(t.startswith("give ") and t.endswith(" 2") for t in second) and len(second) == 9
    g = play(g, "0: give AS 2")
    assert [len(h) for h in (obs(g, s)["hand"] for s in range(3))] == [8, 8, 8]
    assert "TS" in obs(g, 1)["hand"] and "AS" in obs(g, 2)["hand"]
