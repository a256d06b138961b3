"""A tournament run in this process: the Inline executor (matches played
one by one here, no pool) and the rows of its leaderboard as JSON."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from pathlib import Path

from arena.referee.spec import MatchSpec
from arena.tournament.executors.local import Outcome
from arena.tournament.plan.config import load_config
from arena.tournament.results.publish import to_json
from arena.tournament.results.standings import build
from arena.tournament.run import coordinator
from arena.tournament.store import Store
from tournament.tournament_fakes import fake_run_match


class Inline:
    """Plays in this process; `shuffle` returns results in a scrambled order."""

    workers = 1

    def warm(self) -> None:
        pass

    def __init__(self, shuffle: int | None = None, stop_after: int | None = None) -> None:
        self.shuffle = shuffle
        self.stop_after = stop_after

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        outcomes = []
        for i, spec in enumerate(specs):
            if self.stop_after is not None and i >= self.stop_after:
                raise KeyboardInterrupt  # the runner dies mid-tournament
            try:
                outcomes.append(Outcome(spec.match_id, fake_run_match(spec)))
            except RuntimeError as exc:
                outcomes.append(Outcome(spec.match_id, None, str(exc)))
            if self.shuffle is None:
                yield outcomes.pop()
        if self.shuffle is not None:
            random.Random(self.shuffle).shuffle(outcomes)
            yield from outcomes

    def terminate_workers(self) -> None:
        pass  # its matches are played in this process, one at a time

    def close(self) -> None:
        pass


def rows_json(folder: Path) -> str:
    config = load_config(folder)
    with Store(config.store_path) as store:
        text = to_json(build(config, store))
    return text.split('"rows"', 1)[1]  # without the (folder-specific) name


def run(folder: Path, executor: Inline | None = None) -> coordinator.RunSummary:
    config = load_config(folder)
    with Store(config.store_path) as store:
        return coordinator.run(config, store, lambda: executor or Inline())
