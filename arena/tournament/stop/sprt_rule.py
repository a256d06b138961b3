"""A gauntlet's stop (`--stop sprt|fixed`) as a rule of the run loop: set
after set until the test decides (gauntlet/sets.py judge, over sprt.py),
or max_sets are in.

A round is as many sets as the executor plays matches at once: the
matches of one set share its deal seed and the executors play no two on
one seed at once (deal_gate.py), so that many sets are played side by
side. Rounds are not played out: the next is fed while the last one's
matches play, since the next set is the next set whatever the results.
The test is read before every match: the results that came back meanwhile
may decide, and a match started after the decision is CPU spent on
nothing. Matches already in play then are finished and stored, but do not
count (sprt.state reads sets in order and stops at the first crossing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.referee.spec import MatchResult
from arena.tournament.gauntlet.sets import (
    PlannedMatch,
    Settings,
    Verdict,
    judge,
    plan_set,
    set_scores,
)
from arena.tournament.stop.rule import Stop
from arena.tournament.store import Store


class Sprt:
    """After a failed match no further match starts (the next run plays it first)."""

    played_out = False

    def __init__(self, settings: Settings, max_sets: int, bot_ids: Sequence[int], store: Store,
                 places: dict[str, tuple[int, ...]]) -> None:
        self._settings = settings
        self._max_sets = max_sets
        self._bot_ids = bot_ids
        self._store = store
        self._places = places  # match id -> places by seat, of the finished matches
        self._per_set = len(plan_set(settings, 0))
        self._first = 0          # the first set of the next round
        self._together = 0       # sets per round: the executor's width, read once
        self._failed = False
        self.verdict = self.judge()

    def judge(self) -> Verdict:
        scores = set_scores(self._settings, self._places, self._max_sets)
        return judge(self._settings, scores, self._max_sets, self._per_set)

    def next_round(self, workers: Callable[[], int]) -> Sequence[PlannedMatch] | Stop:
        if self.decided() or self._first >= self._max_sets:
            return Stop()
        if not self._together:
            self._together = max(1, workers())
        first, self._first = self._first, self._first + self._together
        todo = [m for set_no in range(first, min(first + self._together, self._max_sets))
                for m in plan_set(self._settings, set_no) if m.match_id not in self._places]
        self._store.plan((m.match_id, m.set_no, 0, m.order_no, m.seed,
                          [self._bot_ids[i] for i in m.bots]) for m in todo)
        return todo

    def decided(self) -> bool:
        return self._failed or self.verdict.finished

    def told(self, item: PlannedMatch, result: MatchResult | None) -> None:
        if result is None:
            self._failed = True
            return
        self._places[item.match_id] = tuple(
            s.place for s in sorted(result.seats, key=lambda s: s.seat))
        self.verdict = self.judge()
