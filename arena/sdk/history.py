"""The public history of the current deal, read from one observation.

Both belief sampling (what the play implies about hidden hands) and the
re-play of a sampled deal through the engine walk the same history: the
auction, the gives, the contract and the tricks, with each lead that
declared a marriage found from the observation's list of declarations
(docs/rules.md#core: a declaration is made by leading the K or Q of a marriage
held whole, from the second trick on; the ace marriage by leading an ace).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.game.cards import Card, Rank, Suit


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One card played this deal, with what the table looked like then."""

    seat: int
    card: Card
    trick: int                  # 0-based trick number
    led: Suit                   # the suit led in that trick
    trump: Suit | None          # trump while that trick was played
    before: tuple[Card, ...]    # cards already in the trick
    declare: str                # "", "marriage" or "aces" (leads only)


def field(obs: Mapping[str, Any], name: str) -> Any:
    """An observation field by the engine's or the wire's name
    (`talon_size` in the engine is `talon_count` on the wire)."""
    if name in obs:
        return obs[name]
    other = {"talon_size": "talon_count", "talon_count": "talon_size"}.get(name)
    if other is not None and other in obs:
        return obs[other]
    raise KeyError(f"observation has no field {name!r}")


def plays(obs: Mapping[str, Any]) -> list[PlayRecord]:
    """Every card played this deal, in order, completed tricks then the current one."""
    tricks: list[list[tuple[int, Card]]] = [
        [(int(tc["seat"]), Card.parse(tc["card"])) for tc in t["cards"]] for t in obs["tricks"] or []
    ]
    current = [(int(tc["seat"]), Card.parse(tc["card"])) for tc in obs["trick"] or []]
    if current:
        tricks.append(current)
    marriages = [(int(m["seat"]), str(m["suit"])) for m in obs["marriages"] or []]
    j = 0
    trump: Suit | None = None
    out: list[PlayRecord] = []
    for k, cards in enumerate(tricks):
        lead_seat, lead = cards[0]
        declare = ""
        if k > 0 and j < len(marriages) and marriages[j][0] == lead_seat:
            kind = marriages[j][1]
            if kind == "A" and lead.rank is Rank.ACE:
                declare = "aces"
            elif kind == lead.suit.value and lead.rank in (Rank.KING, Rank.QUEEN):
                declare = "marriage"
                trump = lead.suit  # docs/rules.md#core: trump from this trick on
            if declare:
                j += 1
        before: list[Card] = []
        for i, (seat, card) in enumerate(cards):
            out.append(PlayRecord(seat, card, k, lead.suit, trump, tuple(before),
                                  declare if i == 0 else ""))
            before.append(card)
    return out
