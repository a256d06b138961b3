"""Cards of the 24-card 1000 deck (docs/rules.md#core).

Cards are interned flyweights: there are exactly 24 `Card` objects, so
equality is identity, hashing is cheap and a hand can be a tuple of cards.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar, final


class Suit(enum.Enum):
    """The four suits; `value` is the one-letter text form."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def marriage_value(self) -> int:
        """Value of this suit's K+Q marriage (docs/rules.md#core: H 100, D 80, C 60, S 40)."""
        return _MARRIAGE_VALUE[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"unknown suit {text!r}: expected one of C, D, H, S") from None


_MARRIAGE_VALUE = {Suit.HEARTS: 100, Suit.DIAMONDS: 80, Suit.CLUBS: 60, Suit.SPADES: 40}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.Enum):
    """Ranks in trick order, high to low; `value` is the one-letter text form."""

    ACE = "A"
    TEN = "T"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"

    @property
    def points(self) -> int:
        """Card points (docs/rules.md#core): A 11, T 10, K 4, Q 3, J 2, 9 0."""
        return _RANK_POINTS[self]

    @property
    def strength(self) -> int:
        """Trick-taking strength: higher beats lower within a suit (A=5 … 9=0)."""
        return _RANK_STRENGTH[self]

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Rank:
        t = text.strip().upper()
        if t == "10":
            t = "T"
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"unknown rank {text!r}: expected one of A, T (or 10), K, Q, J, 9") from None


_RANK_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}
_RANK_STRENGTH = {Rank.ACE: 5, Rank.TEN: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.NINE: 0}

SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
RANKS: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


@final  # interned by (suit, rank): a subclass would get these same 24 objects back
class Card:
    """One card. Construct with `Card(suit, rank)` or `Card.parse("QH")`.

    Sort order (`index`): by suit C, D, H, S, then by rank high to low; this
    is the fixed order used for hands and for legal actions.
    """

    __slots__ = ("_text", "index", "points", "rank", "strength", "suit")
    _interned: ClassVar[dict[tuple[Suit, Rank], Card]] = {}

    suit: Suit
    rank: Rank
    index: int
    points: int
    strength: int
    _text: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        try:
            return cls._interned[(suit, rank)]
        except KeyError:
            pass
        if not isinstance(suit, Suit) or not isinstance(rank, Rank):
            raise TypeError(f"Card(suit, rank) needs a Suit and a Rank, got {suit!r}, {rank!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", SUITS.index(suit) * 6 + RANKS.index(rank))
        object.__setattr__(card, "points", rank.points)
        object.__setattr__(card, "strength", rank.strength)
        object.__setattr__(card, "_text", rank.value + suit.value)
        cls._interned[(suit, rank)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Keep interning across pickling (Dask, process pools).
        return (Card.parse, (self._text,))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse `AS`, `TH`, `10H`, `9C` (case-insensitive); ValueError names the bad text."""
        t = text.strip()
        card = _BY_TEXT.get(t.upper())
        if card is not None:
            return card
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r} (expected rank then suit, e.g. 'QH', 'TS', '10H')")
        try:
            return cls(Suit.parse(t[-1]), Rank.parse(t[:-1]))
        except ValueError as exc:
            raise ValueError(f"not a card: {text!r}: {exc}") from None

    @property
    def display(self) -> str:
        """Display form with a suit symbol, e.g. 'Q♥'."""
        return self.rank.value + self.suit.symbol

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in SUITS for r in RANKS)
_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}
_BY_TEXT.update({"10" + c.suit.value: c for c in DECK if c.rank is Rank.TEN})


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """Parse several cards from an iterable of texts or one space-separated string."""
    items = texts.split() if isinstance(texts, str) else texts
    return tuple(Card.parse(t) for t in items)


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index
