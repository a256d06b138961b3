"""What one seat may know (docs/rules.md#hidden-information), built only from that knowledge;
and what anyone watching the table may know (`observe(c, None)`: the public view).

`Observation.to_dict()` has exactly the fields of the protobuf message
`arena.v1.Observation` (protocol/arena/v1/arena.proto), cards as text and
None for unset optional fields.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from arena.game.core import Core
from arena.game.flow import without_offers

Dict = dict[str, Any]


class Observation:
    """A read-only view for one seat; `to_dict()` is its JSON-able form."""

    __slots__ = ("_d",)

    def __init__(self, data: Dict) -> None:
        self._d = data

    def to_dict(self) -> Dict:
        """A fresh deep copy the caller owns (marshal: a C-speed copy of plain data)."""
        out: Dict = marshal.loads(marshal.dumps(self._d))
        return out

    def as_mapping(self) -> Mapping[str, Any]:
        """The same fields as `to_dict()` without copying: a read-only view of
        the observation's own data (top level read-only; nested lists and
        dicts are shared, so callers must not modify them either). For hot
        paths that only read, e.g. the referee encoding a DecisionRequest."""
        return MappingProxyType(self._d)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(name) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and other._d == self._d

    def __hash__(self) -> int:
        return hash(repr(sorted(self._d.items(), key=lambda kv: kv[0])))

    def __repr__(self) -> str:
        return f"Observation(seat={self._d['seat']}, phase={self._d['phase']!r})"


def observe(c: Core, seat: int | None) -> Observation:
    """What `seat` may know; with `seat=None`, what anyone watching the table
    may know (a spectator: docs/people.md#watching-a-game). The public view is a
    seat's view with nothing of any seat's own: no hand, no discard, no
    pending private offer (every one as if declined), the talon only once
    the rules turn it face up, a given card only when the exchange is face
    up, the lottery's guesses only after the pick; `seat` is None in it."""
    n = c.n
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"observation: seat {seat} is not a seat of this {n}-player game")
    # Other seats' pending private offers are invisible to this seat (docs/rules.md#hidden-information);
    # to a watcher, every seat's is.
    c = without_offers(c, seat)
    looked = seat is not None and (c.looked[seat] or c.peeked[seat])
    hand = [str(x) for x in c.hands[seat]] if seat is not None and looked else []
    if c.talon_public or (seat is not None and c.talon_seen[seat]):
        talon = [str(x) for x in c.dealt_talon] if c.declarer is not None and not c.talon else []
    else:
        talon = []
    given = []
    for frm, to, card in c.given:
        visible = c.given_public or seat in (frm, to)
        given.append({"from_seat": frm, "to_seat": to, "card": str(card) if visible else ""})
    discarded = [str(x) for x in c.discarded] if seat is not None and seat == c.declarer else []
    lottery = None
    if c.lot_organiser is not None:
        picked = c.lot_picked
        guesses = [
            {"seat": s, "color": col}
            for s, col in c.lot_guesses
            # Guesses are laid face down until the organiser picks (docs/rules.md#table-sizes).
            if picked is not None or s == seat
        ]
        lottery = {
            "organiser": c.lot_organiser,
            "guesses": guesses,
            "picked": str(picked) if picked is not None else "",
        }
    seat_states = _seat_states(c)
    d: Dict = {
        "seat": seat,
        "players": n,
        "phase": c.phase,
        "to_act": c.to_act,
        "deal_number": c.deal_number,
        "dealer": c.dealer,
        "active_seats": list(c.active),
        "hand": hand,
        "hand_sizes": [len(h) for h in c.hands],
        "totals": list(c.totals),
        "auction": _auction(c.auction),
        "bid": c.bid,
        "bidder": c.bidder,
        "declarer": c.declarer,
        "contract": c.contract,
        "talon": talon,
        "talon_size": len(c.talon),
        "given": given,
        "discarded": discarded,
        "trump": c.trump.value if c.trump is not None else "",
        "marriages": [{"seat": s, "suit": suit, "value": v} for s, suit, v in c.marriages],
        "trick": [{"seat": s, "card": str(x)} for s, x in c.trick],
        "leader": c.leader,
        "tricks": _tricks(c.tricks),
        "tricks_won": list(c.tricks_won),
        "points_won": list(c.points_won),
        "seat_states": seat_states,
        "lottery": lottery,
        "stock_size": len(c.stock),
        "bank_sizes": [len(b) for b in c.banks],
        "forced_seat": c.forced_seat,
    }
    return Observation(d)


# Views of public parts, shared between observations. Every seat sees the
# same completed tricks, auction and seat states, and successive states
# share the Core's immutable tuples until an action changes them (Core.clone
# copies references), so each view is built once per tuple rather than once
# per seat and state: one remembered entry per part is enough, since the
# tuples change at most once per action. The views are shared, read-only
# data: `as_mapping()` hands them out as they are, `to_dict()` copies them.
_last_tricks: tuple[tuple[tuple[int, Any, int], ...], list[Dict]] = ((), [])
_last_auction: tuple[tuple[tuple[int, str], ...], list[Dict]] = ((), [])
_last_states: tuple[object, list[Dict]] = ((), [])


def _tricks(tricks: tuple[tuple[int, Any, int], ...]) -> list[Dict]:
    global _last_tricks
    src, view = _last_tricks
    if src is not tricks:
        # A completed trick adds one to the tuple: keep the views of the
        # others (the same objects, which also makes comparing them cheap).
        done = len(src) if len(tricks) == len(src) + 1 and tricks[:-1] == src else 0
        view = view[:done] + [
            {"leader": lead, "cards": [{"seat": s, "card": str(x)} for s, x in cards], "winner": w}
            for lead, cards, w in tricks[done:]
        ]
        _last_tricks = (tricks, view)
    return view


def _auction(auction: tuple[tuple[int, str], ...]) -> list[Dict]:
    global _last_auction
    src, view = _last_auction
    if src is not auction:
        view = [{"seat": s, "action": a} for s, a in auction]
        _last_auction = (auction, view)
    return view


def _seat_states(c: Core) -> list[Dict]:
    global _last_states
    # Compared by value: a small tuple of the fields the states are made of.
    key = (c.n, c.bolts, c.bombs_used, c.barrel_seat, c.barrel_deals, c.blind_seat, c.looked)
    src, view = _last_states
    if src != key:
        view = [
            {
                "seat": s,
                "bolts": c.bolts[s],
                "bombs_used": c.bombs_used[s],
                "on_barrel": c.barrel_seat == s,
                "barrel_deals": c.barrel_deals if c.barrel_seat == s else 0,
                "blind": c.blind_seat == s,
                "looked": c.looked[s],
            }
            for s in range(c.n)
        ]
        _last_states = (key, view)
    return view
