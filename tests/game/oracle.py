"""Independent re-statements of docs/rules.md formulas, used to check the engine
from the outside (never imported by the engine)."""

from __future__ import annotations

from arena.game.actions import (
    Bid,
    Blind,
    Concede,
    Contract,
    Discard,
    Give,
    Guess,
    Lottery,
    Pass,
    Pick,
    Play,
    Redeal,
    Take,
)
from arena.game.cards import DECK, Card

POINTS = {c: c.points for c in DECK}


def round_ten_half_down(x: int) -> int:
    """docs/rules.md#options rounding ten_half_down: last digit 0-5 down, 6-9 up."""
    sign = -1 if x < 0 else 1
    a = abs(x)
    base, digit = divmod(a, 10)
    return sign * (base + (1 if digit >= 6 else 0)) * 10


def round_five_nearest(x: int) -> int:
    """docs/rules.md#options rounding five_nearest: nearest multiple of 5 (52 -> 50, 53 -> 55)."""
    sign = -1 if x < 0 else 1
    a = abs(x)
    base, rest = divmod(a, 5)
    return sign * (base + (1 if rest >= 3 else 0)) * 5


def rounded(rounding: str, x: int) -> int:
    return round_ten_half_down(x) if rounding == "ten_half_down" else round_five_nearest(x)


def trick_winner(cards: list[tuple[int, Card]], trump: str) -> int:
    """docs/rules.md#core: highest trump, else highest card of the led suit."""
    led = cards[0][1].suit.value
    def key(item: tuple[int, Card]) -> tuple[int, int]:
        c = item[1]
        if trump and c.suit.value == trump:
            return (2, c.strength)
        if c.suit.value == led:
            return (1, c.strength)
        return (0, c.strength)
    return max(cards, key=key)[0]


def candidate_actions(seats: int = 4) -> list[object]:
    """A broad set of well-formed actions of every kind, legal or not."""
    out: list[object] = [Pass(), Redeal(), Blind(), Blind(120), Concede(), Lottery(),
                         Guess("red"), Guess("black"), Take(0), Take(1)]
    out += [Bid(a) for a in range(60, 420, 5)]
    out += [Contract(a) for a in range(60, 420, 5)]
    for c in DECK:
        out += [Play(c), Play(c, "marriage"), Play(c, "aces"), Pick(c)]
        out += [Give(c, s) for s in range(seats)]
    out += [Discard((DECK[i], DECK[(i + 5) % 24], DECK[(i + 11) % 24])) for i in range(24)]
    return out
