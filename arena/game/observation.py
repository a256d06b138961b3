"""What one seat may know (RULES.md §6), built only from that knowledge.

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


def observe(c: Core, seat: int) -> Observation:
    n = c.n
    if not 0 <= seat < n:
        raise ValueError(f"observation: seat {seat} is not a seat of this {n}-player game")
    # Other seats' pending private offers are invisible to this seat (RULES.md §6).
    c = without_offers(c, seat)
    looked = c.looked[seat] or c.peeked[seat]
    hand = [str(x) for x in c.hands[seat]] if looked else []
    if c.talon_public or c.talon_seen[seat]:
        talon = [str(x) for x in c.dealt_talon] if c.declarer is not None and not c.talon else []
    else:
        talon = []
    given = []
    for frm, to, card in c.given:
        visible = c.given_public or seat in (frm, to)
        given.append({"from_seat": frm, "to_seat": to, "card": str(card) if visible else ""})
    discarded = [str(x) for x in c.discarded] if seat == c.declarer else []
    lottery = None
    if c.lot_organiser is not None:
        picked = c.lot_picked
        guesses = [
            {"seat": s, "color": col}
            for s, col in c.lot_guesses
            # Guesses are laid face down until the organiser picks (RULES.md §4).
            if picked is not None or s == seat
        ]
        lottery = {
            "organiser": c.lot_organiser,
            "guesses": guesses,
            "picked": str(picked) if picked is not None else "",
        }
    seat_states = [
        {
            "seat": s,
            "bolts": c.bolts[s],
            "bombs_used": c.bombs_used[s],
            "on_barrel": c.barrel_seat == s,
            "barrel_deals": c.barrel_deals if c.barrel_seat == s else 0,
            "blind": c.blind_seat == s,
            "looked": c.looked[s],
        }
        for s in range(n)
    ]
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
        "auction": [{"seat": s, "action": a} for s, a in c.auction],
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
        "tricks": [
            {"leader": lead, "cards": [{"seat": s, "card": str(x)} for s, x in cards], "winner": w}
            for lead, cards, w in c.tricks
        ],
        "tricks_won": list(c.tricks_won),
        "points_won": list(c.points_won),
        "seat_states": seat_states,
        "lottery": lottery,
        "stock_size": len(c.stock),
        "bank_sizes": [len(b) for b in c.banks],
        "forced_seat": c.forced_seat,
    }
    return Observation(d)
