"""What a tournament run (coordinator.py) and a gauntlet run
(gauntlet/run.py) share around their executor, written once:

    clear_part_files(root / REPLAYS_DIR)     # left by a killed run
    with Playing(executor_factory) as playing:
        ended = loop.play(playing, rule, store, to_spec)   # loop.py

`Playing` makes the executor when first asked (a run with nothing to play
starts no worker), stops the matches in play on Ctrl-C or SIGTERM (the
CLI's handlers raise KeyboardInterrupt: each match's teardown runs before
the workers are waited for) and always closes the executor.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from arena.tournament.executors.worker import Executor


def clear_part_files(replays: Path) -> None:
    """Remove the replay part files of a killed run, whose workers never
    dropped them. A worker of that run may still be winding down for a
    moment (or a Dask task outlive its client): removing its open part file
    only makes its move into place fail; this run plays that match again."""
    replays.mkdir(exist_ok=True)
    for part in replays.glob("*.part"):
        part.unlink(missing_ok=True)


class Playing:
    def __init__(self, factory: Callable[[], Executor]) -> None:
        self._factory = factory
        self._executor: Executor | None = None

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self._factory()
        return self._executor

    @property
    def started(self) -> bool:
        return self._executor is not None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._executor is None:
            return
        try:
            if kind is not None and issubclass(kind, KeyboardInterrupt):
                # Ctrl-C reaches this process only (a local pool's workers
                # leave the terminal's process group): stop the matches in
                # play, each with its teardown, before waiting for the workers.
                self._executor.terminate_workers()
        finally:
            self._executor.close()
