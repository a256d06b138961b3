"""Cards and action notation: the contracts everything else builds on."""

import pickle

import pytest

from arena.game.actions import (
    ActionSyntaxError,
    action_from_fields,
    parse_action,
    sort_key,
    to_fields,
)
from arena.game.cards import DECK, Card, parse_cards

NOTATION = [
    "bid 110", "pass", "redeal", "blind", "blind 120", "give QH 2", "discard 9C 9D JS",
    "contract 120", "concede", "play KH", "play KH marriage", "play AS aces", "lottery",
    "guess red", "guess black", "pick 9H", "take 1",
]


def test_deck_has_24_cards_and_120_points() -> None:
    assert len(DECK) == 24 and len(set(DECK)) == 24
    assert sum(c.points for c in DECK) == 120


@pytest.mark.parametrize("card", DECK, ids=str)
def test_card_round_trips_text_repr_and_pickle(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert eval(repr(card)) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_ten_accepts_10_on_input() -> None:
    assert Card.parse("10H") is Card.parse("TH")
    assert parse_cards("10h 9c") == (Card.parse("TH"), Card.parse("9C"))


@pytest.mark.parametrize("text", ["", "X", "ZZ", "1H", "AX"])
def test_bad_card_is_a_clear_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="card"):
        Card.parse(text)


@pytest.mark.parametrize("text", NOTATION)
def test_action_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action
    assert action_from_fields(to_fields(action)) == action


@pytest.mark.parametrize("text", ["", "fly", "bid", "bid ten", "play", "play ZZ", "give QH", "guess green", "play KH wedding"])
def test_bad_action_text_names_the_problem(text: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_actions_sort_in_a_fixed_order() -> None:
    actions = [parse_action(t) for t in NOTATION]
    ordered = sorted(actions, key=sort_key)
    assert [str(a) for a in ordered][:3] == ["lottery", "guess red", "guess black"]
    backwards = ordered[::-1]  # the key alone fixes the order, whatever the input order
    assert sorted(backwards, key=sort_key) == ordered
