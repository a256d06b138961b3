"""Talon and exchange (docs/rules.md#core; #options exchange, exchange_visible,
hidden_talon_on_100): the talon revealed to all, hidden on an unopposed 100
(Finnish), given cards shown (Czech) or known only to giver and receiver,
and the Finnish discard form (3 cards face down for the declarer, 7 tricks)."""

from __future__ import annotations

import pytest

from . import deals
from .helpers import deal, obs, play, texts

HANDS, TALON = deals.EXAMPLE_001
TALON_CARDS = sorted(TALON.split())


def auction_won_at(preset: str, over_100: bool, **options: object):  # type: ignore[no-untyped-def]
    g = deal(preset, HANDS, TALON, dealer=2, **options)
    if over_100:
        return play(g, "1: bid 110", "2: pass", "0: bid 120", "1: pass")
    return play(g, "1: pass", "2: pass")


@pytest.mark.parametrize("preset", ["standard", "lithuanian", "czech", "swedish", "finnish"])
def test_talon_is_revealed_to_everyone(preset: str) -> None:
    g = auction_won_at(preset, over_100=True)
    for s in range(3):
        assert sorted(obs(g, s)["talon"]) == TALON_CARDS


@pytest.mark.parametrize("preset,hidden", [("finnish", True), ("standard", False), ("czech", False)])
def test_hidden_talon_when_everyone_passed_over_100(preset: str, hidden: bool) -> None:
    g = auction_won_at(preset, over_100=False)
    assert sorted(obs(g, 0)["talon"]) == TALON_CARDS  # the declarer always sees it
    for s in (1, 2):
        assert (obs(g, s)["talon"] == []) == hidden


@pytest.mark.parametrize("preset,visible", [("czech", True), ("standard", False), ("lithuanian", False)])
def test_given_cards_shown_only_where_the_exchange_is_visible(preset: str, visible: bool) -> None:
    g = play(auction_won_at(preset, over_100=True), *deals.EXAMPLE_001_GIVES)
    def given(seat: int) -> dict[int, str]:
        return {e["to_seat"]: e["card"] for e in obs(g, seat)["given"]}
    assert given(0) == {1: "9D", 2: "9S"}          # the giver knows both
    assert given(1)[1] == "9D" and given(2)[2] == "9S"  # each receiver its own
    assert (given(1)[2] == "9S") == visible and (given(2)[1] == "9D") == visible
    if not visible:
        assert given(1)[2] == "" and given(2)[1] == ""


def test_discard_form_keeps_ten_and_plays_seven_tricks() -> None:
    g = auction_won_at("finnish", over_100=True, exchange="discard")
    assert all(t.startswith("discard ") for t in texts(g)) and len(texts(g)) == 120  # C(10, 3)
    g = play(g, "0: discard 9D QS 9S")
    assert obs(g, 0)["discarded"] == ["9D", "QS", "9S"] and obs(g, 1)["discarded"] == []
    assert [len(obs(g, s)["hand"]) for s in range(3)] == [7, 7, 7]
    g = play(g, "0: contract 120")
    tricks = 0
    while not g.deals:
        before = len(obs(g, 0)["tricks"])
        g = g.apply(g.legal_actions()[0])
        if not g.deals and len(obs(g, 0)["tricks"]) > before:
            tricks += 1
    assert tricks + 1 == 7
    d = g.deals[0]
    assert sum(d.deal_scores) == 120  # QS (3) counts for the declarer; no marriage declared


@pytest.mark.parametrize("order", ["9D QS 9S", "QS 9D 9S", "9S QS 9D", "9S 9D QS"])
def test_discard_accepts_the_same_cards_in_any_order(order: str) -> None:
    from arena.game.actions import Discard, action_from_fields, to_fields
    from arena.game.cards import Card

    g = auction_won_at("finnish", over_100=True, exchange="discard")
    action = Discard(tuple(Card.parse(x) for x in order.split()))
    assert action == Discard(tuple(Card.parse(x) for x in ("9D", "QS", "9S")))
    assert action in g.legal_actions() and str(action) == "discard 9D QS 9S"
    assert action_from_fields(to_fields(action)) == action
    g2 = play(g, f"0: discard {order}")
    assert obs(g2, 0)["discarded"] == ["9D", "QS", "9S"]
    assert "discard 9D QS 9S" in texts(g)  # legal actions keep listing the sorted form
