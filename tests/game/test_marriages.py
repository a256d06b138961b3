"""Marriages (docs/rules.md#core Marriages; #options auto_declare, ace_marriage): declared
when leading K or Q of a held marriage from the second trick on, sets trump
until the next declaration; ace marriage (Czech, 200) sets no trump."""

from __future__ import annotations

import pytest

from . import deals
from .helpers import deal, obs, play, texts

PRESETS = ["standard", "lithuanian", "czech", "finnish", "swedish"]


def marriages_deal(preset: str, **options: object):  # type: ignore[no-untyped-def]
    hands, talon = deals.MARRIAGES
    g = deal(preset, hands, talon, dealer=2, **options)
    return play(g, "1: pass", "2: pass", *deals.MARRIAGES_GIVES, "0: contract 100")


@pytest.mark.parametrize("preset", PRESETS)
def test_no_marriage_on_the_first_trick(preset: str) -> None:
    g = marriages_deal(preset)
    assert not [t for t in texts(g) if t.endswith(" marriage")]
    g = play(g, "0: play KH")
    o = obs(g, 1)
    assert o["marriages"] == [] and o["trump"] == ""


@pytest.mark.parametrize("preset", PRESETS)
def test_second_marriage_changes_trump(preset: str) -> None:
    g = play(marriages_deal(preset), "0: play AS", "1: play 9S", "2: play QS")
    assert obs(g, 1)["trump"] == ""
    g = play(g, "0: M KH")
    o = obs(g, 2)
    assert o["trump"] == "H"
    assert o["marriages"] == [{"seat": 0, "suit": "H", "value": 100}]
    g = play(g, "1: play JH", "2: play 9H", "0: M KC")
    o = obs(g, 1)
    assert o["trump"] == "C"
    assert o["marriages"] == [{"seat": 0, "suit": "H", "value": 100}, {"seat": 0, "suit": "C", "value": 60}]
    g = play(g, "1: play JC", "2: play TC")
    assert obs(g, 0)["tricks"][-1]["winner"] == 2
    # QH alone is no marriage any more; hearts are no longer trump
    assert g.to_act == 2


@pytest.mark.parametrize("preset,auto", [("standard", True), ("lithuanian", False), ("czech", False),
                                         ("finnish", False), ("swedish", False)])
def test_declaring_is_a_choice_unless_auto_declare(preset: str, auto: bool) -> None:
    g = play(marriages_deal(preset), "0: play AS", "1: play 9S", "2: play QS")
    kh = [t for t in texts(g) if t.startswith("play KH")]
    if auto:
        assert len(kh) == 1
        g = play(g, kh[0])
        assert obs(g, 1)["trump"] == "H"
    else:
        assert kh == ["play KH", "play KH marriage"]
        g = play(g, "0: play KH")
        assert obs(g, 1)["marriages"] == [] and obs(g, 1)["trump"] == ""


def test_the_marriage_card_led_later_alone_declares_nothing() -> None:
    g = play(marriages_deal("lithuanian"), "0: play AS", "1: play 9S", "2: play QS", "0: M KH",
             "1: play JH", "2: play 9H")
    assert "play QH marriage" not in texts(g) and "play QH" in texts(g)


def aces_deal(preset: str, **options: object):  # type: ignore[no-untyped-def]
    hands, talon = deals.ACES
    g = deal(preset, hands, talon, dealer=2, **options)
    return play(g, "1: pass", "2: pass", *deals.ACES_GIVES, "0: contract 100")


def test_ace_marriage_from_the_second_trick_sets_no_trump() -> None:
    g = aces_deal("czech")
    assert not [t for t in texts(g) if t.endswith(" aces")]  # not on the first trick
    g = play(g, "0: play TC", "1: play 9C", "2: play 9S")
    assert g.to_act == 0
    assert sorted(t for t in texts(g) if t.endswith(" aces")) == [
        "play AC aces", "play AD aces", "play AH aces", "play AS aces"]
    g = play(g, "0: play AS aces")
    o = obs(g, 1)
    assert o["marriages"] == [{"seat": 0, "suit": "A", "value": 200}]
    assert o["trump"] == ""


@pytest.mark.parametrize("preset,options", [("lithuanian", {}), ("czech", {"ace_marriage": 0})])
def test_no_ace_marriage_where_it_is_off(preset: str, options: dict[str, object]) -> None:
    g = play(aces_deal(preset, **options), "0: play TC", "1: play 9C", "2: play 9S")
    assert not [t for t in texts(g) if t.endswith(" aces")]


def test_ace_marriage_counts_200_in_the_deal_score() -> None:
    g = play(aces_deal("czech"), "0: play TC", "1: play 9C", "2: play 9S", "0: play AS aces")
    while not g.deals:
        g = g.apply(g.legal_actions()[0])
    assert g.deals[0].deal_scores[0] >= 200
    assert g.deals[0].made
