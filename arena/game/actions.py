"""Actions and their text notation (docs/rules.md#notation).

Every action is a small frozen value. `str(action)` is its one-line
notation and `parse_action(str(a)) == a` for every action. `to_fields()` /
`action_from_fields()` give a flat, language-neutral form used on the wire
(arena/wire maps it 1:1 onto the protobuf `Action` message), so adding an
action kind never needs a new protobuf field.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from arena.game.cards import Card

Declare = Literal["", "marriage", "aces"]
Color = Literal["red", "black"]


@dataclass(frozen=True, slots=True)
class Bid:
    """Raise the auction to `amount` (also the opener's compulsory 100)."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Leave the auction for this deal; in an offer phase (redeal, blind,
    lottery, bomb) it declines the offer."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Redeal:
    """Ask for a redeal (a hand condition of docs/rules.md#option-details holds), or abandon
    the deal where the rules allow (Swedish four 9s)."""

    def __str__(self) -> str:
        return "redeal"


@dataclass(frozen=True, slots=True)
class Blind:
    """Bid without looking at the cards (docs/rules.md#option-details blind). `amount` is
    None where the rules fix it (Czech: 120)."""

    amount: int | None = None

    def __str__(self) -> str:
        return "blind" if self.amount is None else f"blind {self.amount}"


@dataclass(frozen=True, slots=True)
class Give:
    """Declarer gives `card` to seat `to` during the exchange."""

    card: Card
    to: int

    def __str__(self) -> str:
        return f"give {self.card} {self.to}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Declarer lays three cards face down (exchange = discard)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        # The same three cards in any order are the same discard: keep them in
        # deck order, the order the engine lists them in (docs/rules.md#notation).
        cards = tuple(self.cards)
        if any(a.index > b.index for a, b in pairwise(cards)):
            cards = tuple(sorted(cards, key=lambda c: c.index))
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Contract:
    """Declarer names the contract: its bid, or a raise within the cap."""

    amount: int

    def __str__(self) -> str:
        return f"contract {self.amount}"


@dataclass(frozen=True, slots=True)
class Concede:
    """Declarer gives up the deal before the first lead (bomb / rozepsat)."""

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card; `declare` is "marriage" (lead K/Q of a held marriage) or
    "aces" (lead an ace holding all four, when ace_marriage is on)."""

    card: Card
    declare: Declare = ""

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {self.declare}" if self.declare else "")


@dataclass(frozen=True, slots=True)
class Lottery:
    """Run the Finnish lottery with three dealt nines (docs/rules.md#table-sizes)."""

    def __str__(self) -> str:
        return "lottery"


@dataclass(frozen=True, slots=True)
class Guess:
    """Guess the colour of the lottery nine."""

    color: Color

    def __str__(self) -> str:
        return f"guess {self.color}"


@dataclass(frozen=True, slots=True)
class Pick:
    """The lottery organiser picks one of its nines."""

    card: Card

    def __str__(self) -> str:
        return f"pick {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Two-player bank form: the auction winner takes bank 0 or 1."""

    bank: int

    def __str__(self) -> str:
        return f"take {self.bank}"


Action = (Bid | Pass | Redeal | Blind | Give | Discard | Contract | Concede | Play | Lottery | Guess
          | Pick | Take)

# Fixed order of kinds; legal actions are sorted by (kind, then arguments).
KINDS: tuple[str, ...] = (
    "lottery", "guess", "pick", "redeal", "blind", "bid", "pass", "take",
    "give", "discard", "contract", "concede", "play",
)
_KIND_OF: dict[type, str] = {
    Lottery: "lottery", Guess: "guess", Pick: "pick", Redeal: "redeal", Blind: "blind",
    Bid: "bid", Pass: "pass", Take: "take", Give: "give", Discard: "discard",
    Contract: "contract", Concede: "concede", Play: "play",
}
_KIND_RANK = {k: i for i, k in enumerate(KINDS)}
_DECLARE_RANK = {"": 0, "marriage": 1, "aces": 2}


def kind_of(action: Action) -> str:
    return _KIND_OF[type(action)]


def sort_key(action: Action) -> tuple[int, ...]:
    """Key of the fixed, sorted order of legal actions."""
    k = _KIND_RANK[_KIND_OF[type(action)]]
    if isinstance(action, (Bid, Contract)):
        return (k, action.amount)
    if isinstance(action, Blind):
        return (k, -1 if action.amount is None else action.amount)
    if isinstance(action, Give):
        return (k, action.card.index, action.to)
    if isinstance(action, Discard):
        return (k, *(c.index for c in action.cards))
    if isinstance(action, Play):
        return (k, action.card.index, _DECLARE_RANK[action.declare])
    if isinstance(action, Pick):
        return (k, action.card.index)
    if isinstance(action, Guess):
        return (k, 0 if action.color == "red" else 1)
    if isinstance(action, Take):
        return (k, action.bank)
    return (k,)


class ActionSyntaxError(ValueError):
    """Text that is not an action in docs/rules.md#notation notation."""


def _int(text: str, what: str, line: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ActionSyntaxError(f"{what} must be a whole number, got {text!r} in {line!r}") from None


def _card(text: str, line: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise ActionSyntaxError(f"{exc} in {line!r}") from None


def parse_action(text: str) -> Action:
    """Parse one action in docs/rules.md#notation notation, e.g. `bid 110`, `play KH marriage`."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is text, got {type(text).__name__}")
    words = text.strip().lower().split()
    line = text.strip()
    if not words:
        raise ActionSyntaxError("empty action")
    head, args = words[0], words[1:]

    def want(n: int) -> None:
        if len(args) != n:
            raise ActionSyntaxError(
                f"{head!r} takes {n} argument{'s' if n != 1 else ''}, got {len(args)} in {line!r}"
            )

    if head == "bid":
        want(1)
        return Bid(_int(args[0], "bid amount", line))
    if head == "pass":
        want(0)
        return Pass()
    if head == "redeal":
        want(0)
        return Redeal()
    if head == "blind":
        if len(args) > 1:
            raise ActionSyntaxError(f"'blind' takes 0 or 1 argument in {line!r}")
        return Blind(_int(args[0], "blind amount", line) if args else None)
    if head == "give":
        want(2)
        return Give(_card(args[0], line), _int(args[1], "seat", line))
    if head == "discard":
        if not args:
            raise ActionSyntaxError(f"'discard' needs cards in {line!r}")
        return Discard(tuple(_card(a, line) for a in args))
    if head == "contract":
        want(1)
        return Contract(_int(args[0], "contract", line))
    if head == "concede":
        want(0)
        return Concede()
    if head == "play":
        if len(args) not in (1, 2):
            raise ActionSyntaxError(f"'play' takes a card and optionally 'marriage' or 'aces' in {line!r}")
        declare = args[1] if len(args) == 2 else ""
        if declare not in ("", "marriage", "aces"):
            raise ActionSyntaxError(f"after 'play CARD' expected 'marriage' or 'aces', got {declare!r}")
        return Play(_card(args[0], line), declare)  # type: ignore[arg-type]
    if head == "lottery":
        want(0)
        return Lottery()
    if head == "guess":
        want(1)
        if args[0] not in ("red", "black"):
            raise ActionSyntaxError(f"guess must be 'red' or 'black', got {args[0]!r}")
        return Guess(args[0])  # type: ignore[arg-type]
    if head == "pick":
        want(1)
        return Pick(_card(args[0], line))
    if head == "take":
        want(1)
        return Take(_int(args[0], "bank", line))
    raise ActionSyntaxError(f"unknown action {head!r} in {line!r}; known: {', '.join(KINDS)}")


Fields = dict[str, object]


def to_fields(action: Action) -> Fields:
    """Flat form: `kind` plus only the arguments this kind has
    (`amount`, `card`, `cards`, `seat`, `declare`, `color`, `bank`)."""
    kind = _KIND_OF[type(action)]
    out: Fields = {"kind": kind}
    if (isinstance(action, (Bid, Contract))
            or (isinstance(action, Blind) and action.amount is not None)):
        out["amount"] = action.amount
    elif isinstance(action, Give):
        out["card"] = str(action.card)
        out["seat"] = action.to
    elif isinstance(action, Discard):
        out["cards"] = [str(c) for c in action.cards]
    elif isinstance(action, Play):
        out["card"] = str(action.card)
        if action.declare:
            out["declare"] = action.declare
    elif isinstance(action, Pick):
        out["card"] = str(action.card)
    elif isinstance(action, Guess):
        out["color"] = action.color
    elif isinstance(action, Take):
        out["bank"] = action.bank
    return out


def action_from_fields(fields: Fields) -> Action:
    """Inverse of `to_fields`; ActionSyntaxError names what is missing or wrong."""
    kind = fields.get("kind")
    parts: list[str] = [str(kind)]
    try:
        if (kind in ("bid", "contract")
                or (kind == "blind" and fields.get("amount") not in (None, 0))):
            parts.append(str(int(fields["amount"])))  # type: ignore[call-overload]
        elif kind == "give":
            parts += [str(fields["card"]), str(int(fields["seat"]))]  # type: ignore[call-overload]
        elif kind == "discard":
            parts += [str(c) for c in fields["cards"]]  # type: ignore[attr-defined]
        elif kind == "play":
            parts.append(str(fields["card"]))
            if fields.get("declare"):
                parts.append(str(fields["declare"]))
        elif kind == "pick":
            parts.append(str(fields["card"]))
        elif kind == "guess":
            parts.append(str(fields["color"]))
        elif kind == "take":
            parts.append(str(int(fields["bank"])))  # type: ignore[call-overload]
    except KeyError as exc:
        raise ActionSyntaxError(f"action {kind!r} is missing field {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise ActionSyntaxError(f"action {kind!r} has a bad field: {exc}") from None
    return parse_action(" ".join(parts))
