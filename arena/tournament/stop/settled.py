"""stop = "settled": a tournament's adaptive stop (adaptive.py) as a rule of
the run loop, rounds per duplicate set; and what `tournament status` says
it will not play (not_needed).

Round r plays the tables adaptive.next_tables chooses from set r, chosen
from the finished results of the sets before it only: a resumed run, and
`tournament status`, choose the same as the run that was stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.referee.spec import MatchResult
from arena.tournament.plan import schedule
from arena.tournament.stop import adaptive
from arena.tournament.stop.rule import Stop
from arena.tournament.store import BotRow, MatchRow, Store

SETTLED = "settled"  # round_choice: the stop has settled, no further round


def _played(row: MatchRow, result: MatchResult) -> adaptive.Played:
    places = tuple(seat.place for seat in sorted(result.seats, key=lambda s: s.seat))
    # (set, seed): the duplicate set, the bootstrap unit (coordinator.unit).
    return adaptive.Played(row.match_id, (row.set_no, row.seed), row.bot_ids, places)


def by_set(plan: Sequence[schedule.PlannedMatch]) -> dict[int, list[schedule.PlannedMatch]]:
    sets: dict[int, list[schedule.PlannedMatch]] = {}
    for m in plan:
        sets.setdefault(m.set_no, []).append(m)
    return sets


def round_choice(bots: Sequence[BotRow], sets: dict[int, list[schedule.PlannedMatch]],
                 rows: dict[str, MatchRow], set_no: int) -> set[str] | str:
    """The adaptive stop's choice for set `set_no`: the match ids it plays,
    or SETTLED. Chosen from the finished results of the sets before it
    only, so a resumed run (and `tournament status`) choose the same.
    `bots` by schedule index."""
    def triple(m: schedule.PlannedMatch) -> tuple[int, ...]:
        return tuple(sorted(bots[i].id for i in m.bots))

    if set_no == 0:
        return {m.match_id for m in sets[0]}
    played = [_played(r, r.result) for r in rows.values()
              if r.status == "finished" and r.result is not None and r.set_no < set_no]
    open_pairs = [p for p in adaptive.pairs(played, [b.id for b in bots]) if p.decision is None]
    if not open_pairs:
        return SETTLED
    if set_no not in sets:  # after the last set: only whether it settled
        return set()
    chosen = set(adaptive.next_tables(sorted({triple(m) for m in sets[set_no]}), open_pairs,
                                      set_no))
    return {m.match_id for m in sets[set_no] if triple(m) in chosen}


def not_needed(bots: Sequence[BotRow], plan: Sequence[schedule.PlannedMatch],
               rows: dict[str, MatchRow]) -> set[str]:
    """The planned matches the adaptive stop has decided not to play: a
    round's tables it did not choose, and every set once it settled. A
    round is decided only once every match chosen before it is finished
    (until then the matches after it are still planned)."""
    sets = by_set(plan)
    out: set[str] = set()
    for set_no in sorted(sets):
        choice = round_choice(bots, sets, rows, set_no)
        ids = {m.match_id for m in sets[set_no]}
        if choice == SETTLED:
            return out | {m.match_id for s in sets if s >= set_no for m in sets[s]
                          if m.match_id not in rows or rows[m.match_id].status != "finished"}
        out |= {i for i in ids - set(choice)
                if i not in rows or rows[i].status != "finished"}
        if any(i not in rows or rows[i].status != "finished" for i in choice):
            return out
    return out


class Settled:
    """Round by round what round_choice chooses, each played out (the next
    is chosen from its results); after a round with a failed match, no
    further round (the next run plays it first)."""

    played_out = True

    def __init__(self, bots: Sequence[BotRow], plan: Sequence[schedule.PlannedMatch],
                 store: Store, duplicate_sets: int) -> None:
        self._bots = bots
        self._sets = by_set(plan)
        self._order = sorted(self._sets)
        self._wanted = {m.match_id for m in plan}
        self._store = store
        self._duplicate_sets = duplicate_sets
        self._at = 0
        self._failed = False

    def _settled(self, sets: int) -> Stop:
        return Stop(f"settled after {sets} of {self._duplicate_sets} sets: every pair of "
                    "neighbours separated")

    def next_round(self, workers: Callable[[], int]) -> Sequence[MatchRow] | Stop:
        if self._failed:
            return Stop("stopped: some matches could not be played (the next run plays them first)")
        rows = {r.match_id: r for r in self._store.matches(self._wanted)}
        if self._at == len(self._order):
            if round_choice(self._bots, self._sets, rows, len(self._sets)) == SETTLED:
                return self._settled(len(self._sets))
            return Stop(f"not settled within duplicate_sets = {self._duplicate_sets} (its maximum)")
        set_no = self._order[self._at]
        self._at += 1
        choice = round_choice(self._bots, self._sets, rows, set_no)
        if choice == SETTLED:
            return self._settled(set_no)
        return [rows[m.match_id] for m in self._sets[set_no]
                if rows[m.match_id].status != "finished" and m.match_id in choice]

    def decided(self) -> bool:
        return False  # only between rounds: a round's tables are chosen together

    def told(self, item: MatchRow, result: MatchResult | None) -> None:
        if result is None:
            self._failed = True
