"""What the run loop (arena/tournament/run/loop.py) asks of a stop rule,
and the plainest rule, `Fixed` (play everything planned).

A rule answers two questions: between rounds, what to play next (or why
the run stops: `Stop`), and before every match, whether it has decided
already (a match started after the decision is CPU spent on nothing). It
is told each outcome as it comes back, a failed match as `None`: what a
run does after an error is the rule's choice too (a tournament plays its
round out, a gauntlet starts no further match), so the loop holds no
policy of its own. The other rules: `settled.Settled` (a tournament's
adaptive stop) and `sprt_rule.Sprt` (a gauntlet's test). A new rule is one
class with these three methods; the loop knows none by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from arena.referee.spec import MatchResult


class Planned(Protocol):
    """A match a rule hands the loop: a store row, a gauntlet's planned match."""

    @property
    def match_id(self) -> str: ...

    @property
    def seed(self) -> int: ...  # the deal seed: the loop interleaves by it


@dataclass(frozen=True)
class Stop:
    """Why a run stopped, in the rule's words ("" when there is nothing to say)."""

    why: str = ""


T = TypeVar("T", bound=Planned)


class StopRule(Protocol[T]):
    @property
    def played_out(self) -> bool:
        """Each round is played to its end before the next is asked for
        (the next is chosen from its results). False: the next round is
        fed while the last one's matches are still in play."""
        ...

    def next_round(self, workers: Callable[[], int]) -> Sequence[T] | Stop:
        """The matches to play next (may be empty), or why the run stops.
        `workers()` is how many matches the executor plays at once; calling
        it starts the executor (a run with nothing to play starts none)."""
        ...

    def decided(self) -> bool:
        """Asked before every match: start no further match (those in
        play finish and are recorded; then next_round says why)."""
        ...

    def told(self, item: T, result: MatchResult | None) -> None:
        """A match came back: its result, stored, or None if it could not be played."""
        ...


class Fixed(Generic[T]):
    """stop = "fixed": one round of every match given; an error does not
    stop it (the others are still worth playing; the next run retries)."""

    played_out = True

    def __init__(self, items: Sequence[T]) -> None:
        self._items: Sequence[T] | None = items

    def next_round(self, workers: Callable[[], int]) -> Sequence[T] | Stop:
        items, self._items = self._items, None
        return Stop() if items is None else items

    def decided(self) -> bool:
        return False

    def told(self, item: T, result: MatchResult | None) -> None:
        pass
