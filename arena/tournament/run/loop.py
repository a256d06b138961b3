"""The one play loop of a tournament run (coordinator.py) and a gauntlet run
(gauntlet/run.py): rounds from a stop rule (arena/tournament/stop/rule.py),
matches fed to the executor lazily, each outcome recorded once.

    with Playing(executor_factory) as playing:
        ended = play(playing, rule, store, to_spec, on_result)

The rule says what to play between rounds and is asked before every match
whether it has decided; the loop knows no rule by name. A round is fed in
turn by deal seed (interleave: the executors play no two matches on one
seed at once, deal_gate.py, so the next match is mostly on other deals and
the workers stay busy), each match marked running as it is handed out,
not before: a match the feed never gave away stays planned. A rule whose
rounds are `played_out` has each round's results in before it chooses
the next; the others have their next round fed while the last one plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TypeVar

from arena.referee.spec import MatchResult, MatchSpec
from arena.tournament.executors.deal_gate import interleave
from arena.tournament.executors.worker import Outcome
from arena.tournament.run.playing import Playing
from arena.tournament.stop.rule import Planned, Stop, StopRule
from arena.tournament.store import Store

T = TypeVar("T", bound=Planned)


@dataclass
class Ended:
    """What a loop did: matches finished and stored now, the errors of
    those that could not be played (one line each), and why it stopped."""

    played: int = 0
    errors: list[str] = field(default_factory=list)
    stop: Stop = field(default_factory=Stop)


def record(store: Store, outcome: Outcome) -> MatchResult | str | None:
    """Store one outcome: its result (returned), or why it could not be
    played (returned as text; the match is planned again next run). None
    for a second result of a finished match (results are idempotent)."""
    if outcome.result is None:
        store.fail(outcome.match_id, outcome.error)
        return outcome.error
    if outcome.result.match_id != outcome.match_id:
        message = f"runner returned a result for {outcome.result.match_id!r}"
        store.fail(outcome.match_id, message)
        return message
    return outcome.result if store.finish(outcome.result) else None


def play(playing: Playing, rule: StopRule[T], store: Store, to_spec: Callable[[T], MatchSpec],
         on_result: Callable[[T, MatchResult | None], None] | None = None) -> Ended:
    """Play the rounds `rule` gives until it stops; `on_result` after each
    outcome is recorded (and told to the rule): its result, or None when it
    failed. A KeyboardInterrupt from the executor goes up through `playing`
    (which stops the matches in play and closes the executor)."""
    ended = Ended()
    stop: Stop | None = None
    given: dict[str, T] = {}  # handed out, not come back yet

    def workers() -> int:
        return max(1, playing.executor().workers)

    def feed(first: Sequence[T]) -> Iterator[MatchSpec]:
        nonlocal stop
        items = first
        while True:
            # Twice as many deals in turn as the executor plays at once: the
            # gate then mostly finds the next match on deals not in play.
            for item in interleave(items, attrgetter("seed"), 2 * workers()):
                if rule.decided():
                    return
                spec = to_spec(item)
                store.mark_running([item.match_id])
                given[item.match_id] = item
                yield spec
            if rule.played_out:
                return
            following = rule.next_round(workers)
            if isinstance(following, Stop):
                stop = following
                return
            items = following

    while stop is None:
        items = rule.next_round(workers)
        if isinstance(items, Stop):
            stop = items
            break
        if not items:
            continue  # nothing of this round left to play: no executor for it
        for outcome in playing.executor().play(feed(items)):
            item = given.pop(outcome.match_id)
            got = record(store, outcome)
            if got is None:
                continue  # a second result of a finished match: told once already
            if isinstance(got, str):
                ended.errors.append(f"{outcome.match_id}: {got}")
            result = got if isinstance(got, MatchResult) else None
            ended.played += result is not None
            rule.told(item, result)
            if on_result:
                on_result(item, result)
        if stop is None and rule.decided():  # cut short in its round: the rule says why
            following = rule.next_round(workers)
            stop = following if isinstance(following, Stop) else Stop()
    ended.stop = stop
    return ended
