"""No two matches on the same deals at once: what the executors hand out.

The seat orders of a duplicate table (and of a gauntlet set) share one deal
seed, and the same bots sit in each of them. Played at the same time, two
of them seat one bot twice on the same deals, in different seats: its two
instances hold different hands of the same deal, and any channel between
them tells each the other's hand. Such channels exist at every sandbox
level, since both instances share one kernel: a lock taken on a file of the
bot's own folder (mounted from the same folder in both sandboxes) is seen
by the other (docs/sandbox.md, "What each level stops"). So an executor
starts a match only when no match on its deal seed is in flight, and
matches on other seeds (other tables, other sets) fill the free workers
meanwhile; a match held back keeps its place in the order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from arena.referee.spec import MatchSpec

# How many matches the gate reads past one it must hold back, per worker
# slot: a table's six seat orders, so that the next table (or set) is in
# reach while one is being played.
READ_AHEAD_PER_SLOT = 6


class DealGate:
    """Hands out the specs of `specs` in order, skipping over (and keeping for
    later) each whose deal seed is in flight; `finished(spec)` frees its seed."""

    def __init__(self, specs: Iterable[MatchSpec], window: int) -> None:
        self._source = iter(specs)
        self._held: deque[MatchSpec] = deque()
        self._busy: set[int] = set()
        self._limit = max(1, window) * READ_AHEAD_PER_SLOT
        self._exhausted = False

    @property
    def drained(self) -> bool:
        """Every spec has been handed out."""
        return self._exhausted and not self._held

    def take(self) -> MatchSpec | None:
        """The next spec that may start now, or None: none is left, or every
        spec within reach waits for a match on its deals to finish."""
        for spec in self._held:
            if spec.seed not in self._busy:
                self._held.remove(spec)
                return self._start(spec)
        while not self._exhausted and len(self._held) < self._limit:
            new = next(self._source, None)
            if new is None:
                self._exhausted = True
                break
            if new.seed not in self._busy:
                return self._start(new)
            self._held.append(new)
        return None

    def finished(self, spec: MatchSpec) -> None:
        self._busy.discard(spec.seed)

    def _start(self, spec: MatchSpec) -> MatchSpec:
        self._busy.add(spec.seed)
        return spec
