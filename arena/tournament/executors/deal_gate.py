"""No two matches on the same deals at once: what the executors hand out.

The seat orders of a duplicate table (and of a gauntlet set) share one deal
seed, and the same bots sit in each of them. Played at the same time, two
of them seat one bot twice on the same deals, in different seats: its two
instances hold different hands of the same deal, and any channel between
them tells each the other's hand. Such channels exist at every sandbox
level, since both instances share one kernel: a lock taken on a file of the
bot's own folder (mounted from the same folder in both sandboxes) is seen
by the other (docs/sandbox.md, "What each level stops"). So an executor
starts a match only when no match on its deal seed is in flight.

The gate keeps the order it is given and reads one match ahead at most: a
match it cannot start yet waits at the head (the caller's feed may decide
to stop at any match, as a gauntlet does once its test has decided, and a
match read is one the feed gave away). Callers order their matches with
`interleave` so that the next one is mostly on other deals and the workers
stay busy.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from arena.referee.spec import MatchSpec

T = TypeVar("T")


class DealGate:
    """Hands out the specs of `specs` in order, each only while no spec on
    its deal seed is in flight; `finished(spec)` frees its seed."""

    def __init__(self, specs: Iterable[MatchSpec]) -> None:
        self._source = iter(specs)
        self._next: MatchSpec | None = None
        self._busy: set[int] = set()
        self._exhausted = False

    @property
    def drained(self) -> bool:
        """Every spec has been handed out."""
        return self._exhausted and self._next is None

    def take(self) -> MatchSpec | None:
        """The next spec if it may start now; None if none is left or the
        next one waits for a match on its deals to finish."""
        if self._next is None and not self._exhausted:
            self._next = next(self._source, None)
            self._exhausted = self._next is None
        spec = self._next
        if spec is None or spec.seed in self._busy:
            return None
        self._next = None
        self._busy.add(spec.seed)
        return spec

    def finished(self, spec: MatchSpec) -> None:
        self._busy.discard(spec.seed)


def interleave(items: Sequence[T], key: Callable[[T], Hashable], width: int) -> list[T]:
    """`items` with the groups of equal `key` taken `width` at a time, in
    the order they first appear, and the items of each `width` groups in
    turn (the first of each, then the second, ...), each group's own order
    kept: consecutive items are on other deals wherever the groups allow it,
    and the groups (tables) still finish one batch after another, as in the
    order given."""
    groups: dict[Hashable, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    ordered = list(groups.values())
    out: list[T] = []
    step = max(1, width)
    for start in range(0, len(ordered), step):
        chunk = ordered[start:start + step]
        depth = max(len(g) for g in chunk)
        for i in range(depth):
            out.extend(g[i] for g in chunk if i < len(g))
    return out
