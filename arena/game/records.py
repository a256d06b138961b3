"""The record of one finished deal: the engine's, and the same value in a
match's result, its replay and a tournament's store (arena.referee.spec)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One finished deal. `declarer` is None when nobody played (a redeal
    penalty); `contract` equals `bid` when the declarer conceded before
    naming one. `changes` are what the totals moved by; `totals` are after."""

    deal_number: int
    dealer: int
    declarer: int | None
    bid: int
    contract: int
    made: bool
    deal_scores: tuple[int, ...]
    changes: tuple[int, ...]
    totals: tuple[int, ...]
    redeals: int = 0
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("deal_scores", "changes", "totals", "notes"):
            d[k] = list(d[k])
        return d
