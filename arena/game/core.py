"""The whole truth of a game, as one plain record, and shared helpers.

`Core` is mutable only while `apply` builds the next state: `GameState`
clones it (a cheap dict copy; every field is an immutable value such as a
tuple), changes the clone and wraps it. Nothing outside arena.game sees a
`Core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from arena.game.actions import (
    Action,
    Bid,
    Blind,
    Concede,
    Contract,
    Give,
    Guess,
    Lottery,
    Pass,
    Pick,
    Play,
    Redeal,
    Take,
)
from arena.game.cards import DECK, Card, Rank, Suit
from arena.game.rules import Rules

if TYPE_CHECKING:
    from arena.game.records import DealRecord

T = TypeVar("T")

# Phases (Observation.phase).
LOTTERY, REDEAL, BLIND, BIDDING, BANK = "lottery", "redeal", "blind", "bidding", "bank"
EXCHANGE, CONTRACT, PLAY, GAME_OVER = "exchange", "contract", "play", "game_over"

TrickCards = tuple[tuple[int, Card], ...]


class Core:
    """Every fact of a game. Per-seat values are tuples in seat order."""

    rules: Rules
    seed: int
    n: int
    # ---- whole game
    totals: tuple[int, ...]
    dealer: int
    deal_number: int
    redeals: int
    bolts: tuple[int, ...]
    bombs_used: tuple[int, ...]
    barrel_seat: int | None
    barrel_deals: int
    horse_left: int
    horse_made: bool
    deals: tuple[DealRecord, ...]
    over: bool
    finish: tuple[tuple[int, ...], ...]
    fixed: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None
    fixed_deal: int  # the deal number `fixed` is for (before any redeal of it)
    # ---- this deal
    phase: str
    to_act: int | None
    active: tuple[int, ...]
    nxt: tuple[int, ...]  # per seat: the next active seat clockwise (hot-path table)
    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]
    dealt_talon: tuple[Card, ...]
    talon_public: bool
    talon_seen: tuple[bool, ...]
    auction: tuple[tuple[int, str], ...]
    bid: int | None
    bidder: int | None
    in_auction: tuple[bool, ...]
    looked: tuple[bool, ...]
    # Seats that saw their hand only because of a private offer (a redeal or
    # lottery offer, docs/rules.md#hidden-information): they see it, but publicly they have not
    # looked (docs/rules.md#private-offers).
    peeked: tuple[bool, ...]
    blind_seat: int | None
    declarer: int | None
    contract: int | None
    given: tuple[tuple[int, int, Card], ...]
    given_public: bool
    discarded: tuple[Card, ...]
    trump: Suit | None
    marriages: tuple[tuple[int, str, int], ...]
    trick: TrickCards
    leader: int | None
    tricks: tuple[tuple[int, TrickCards, int], ...]
    tricks_won: tuple[int, ...]
    points_won: tuple[int, ...]
    bonus: tuple[int, ...]
    pending: tuple[int, ...]
    stage: str
    pre_changes: tuple[int, ...]
    notes: tuple[str, ...]
    lot_organiser: int | None
    lot_guesses: tuple[tuple[int, str], ...]
    lot_picked: Card | None
    forced_seat: int | None
    stock: tuple[Card, ...]
    banks: tuple[tuple[Card, ...], ...]
    # A deal was scored and the game goes on: the dispatcher (state.py)
    # starts the next one after the action that ended it (scoring.settle).
    next_deal: bool = False

    def clone(self) -> Core:
        new = Core.__new__(Core)
        new.__dict__.update(self.__dict__)
        return new


def put(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    """`t` with item `i` replaced by `v`."""
    return t[:i] + (v,) + t[i + 1:]


def next_active(c: Core, seat: int) -> int:
    return c.nxt[seat]


def next_table(n: int, active: tuple[int, ...]) -> tuple[int, ...]:
    """Per seat, the next active seat clockwise (an inactive seat maps to the one after it)."""
    out = []
    for s in range(n):
        t = (s + 1) % n
        while t not in active:
            t = (t + 1) % n
        out.append(t)
    return tuple(out)


def hand_marriage_value(hand: tuple[Card, ...]) -> int:
    """Sum of the marriages held whole (docs/rules.md#core bid cap)."""
    total = 0
    for card in hand:
        if card.rank is Rank.KING and PARTNER[card.index] in hand:
            total += card.suit.marriage_value
    return total


def sort_hand(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_INDEX))


def _index(card: Card) -> int:
    return card.index


_INDEX = _index

# ---------------------------------------------------------------- action tables
# Interned action values: the hot path never builds a dataclass.

PARTNER: dict[int, Card | None] = {}
for _c in DECK:
    if _c.rank is Rank.KING:
        PARTNER[_c.index] = Card(_c.suit, Rank.QUEEN)
    elif _c.rank is Rank.QUEEN:
        PARTNER[_c.index] = Card(_c.suit, Rank.KING)
    else:
        PARTNER[_c.index] = None

PLAYS: tuple[Play, ...] = tuple(Play(c) for c in DECK)
PLAY_MARRIAGE: tuple[Play, ...] = tuple(Play(c, "marriage") for c in DECK)
PLAY_ACES: tuple[Play, ...] = tuple(Play(c, "aces") for c in DECK)
PASS = Pass()
REDEAL_ACTION = Redeal()
CONCEDE = Concede()
LOTTERY_ACTION = Lottery()
GUESSES: tuple[Guess, Guess] = (Guess("red"), Guess("black"))
BLIND_FIXED = Blind()
_BIDS: dict[int, Bid] = {}
_CONTRACTS: dict[int, Contract] = {}
_BLINDS: dict[int, Blind] = {}
_GIVES: dict[tuple[int, int], Give] = {}


def bid_action(amount: int) -> Bid:
    a = _BIDS.get(amount)
    if a is None:
        a = _BIDS[amount] = Bid(amount)
    return a


def contract_action(amount: int) -> Contract:
    a = _CONTRACTS.get(amount)
    if a is None:
        a = _CONTRACTS[amount] = Contract(amount)
    return a


def blind_action(amount: int) -> Blind:
    a = _BLINDS.get(amount)
    if a is None:
        a = _BLINDS[amount] = Blind(amount)
    return a


def give_action(card: Card, to: int) -> Give:
    key = (card.index, to)
    a = _GIVES.get(key)
    if a is None:
        a = _GIVES[key] = Give(card, to)
    return a


def pick_action(card: Card) -> Pick:
    return Pick(card)


def take_action(bank: int) -> Take:
    return Take(bank)


__all__ = ["Action", "Core"]
