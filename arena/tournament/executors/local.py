"""Where matches are played: a local process pool (here) or a Dask cluster
(dask_executor.py), `make_executor` choosing; what both share (the Executor
protocol, the outcome of a match, how a worker process starts, stops and
leaves with its parent) is worker.py, imported from here as before.

A match is one task: `runner(MatchSpec) -> MatchResult`, a module-level
function (by default `arena.referee.run_match`), so it pickles by reference.
Executors only play; they never touch the store. Results come back in
completion order; the coordinator makes the outcome independent of it.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any

from arena.referee.spec import MatchResult, MatchSpec
from arena.tournament.executors import cpus
from arena.tournament.executors.deal_gate import DealGate
from arena.tournament.executors.worker import (
    TEARDOWN_GRACE,
    Executor,
    ExecutorError,
    Outcome,
    Runner,
    _error_text,
    _play_one,
    _quiet_stop,
    _sigint_held,
    _start_worker,
    _warm_up,
    cores,
    default_runner,
)

__all__ = [
    "TEARDOWN_GRACE", "Executor", "ExecutorError", "LocalPool", "Outcome", "Runner", "_quiet_stop",
    "_sigint_held", "cores", "default_runner", "make_executor",
]

log = logging.getLogger("arena.tournament")


class LocalPool:
    """A pool of fresh worker processes (spawn: no state inherited from the
    coordinator), each on a CPU slot of its own (arena.tournament.executors.cpus)
    unless `pin_cpus` is False; `slots` gives the CPU sets instead of
    cpus.slots(workers) (one per worker)."""

    def __init__(self, workers: int, runner: Runner | None = None, pin_cpus: bool = True,
                 slots: list[tuple[int, ...]] | None = None) -> None:
        self.workers = workers if workers > 0 else cores()
        self._runner = runner or default_runner()
        self._context = multiprocessing.get_context("spawn")
        if slots is not None and len(slots) != self.workers:
            raise ValueError(f"{len(slots)} CPU slots for {self.workers} workers")
        self._slots = (slots if slots is not None else cpus.slots(self.workers)) if pin_cpus else []
        self._generation = 0
        self._terminated: set[int] = set()  # workers told to stop (terminate_workers)
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # Started before the hold: starting it unblocks SIGINT in this thread.
        resource_tracker.ensure_running()
        with _sigint_held():  # the slots queue's feeder thread starts here
            return self._make_pool()

    def _make_pool(self) -> ProcessPoolExecutor:
        queue: Any = None
        if self._slots:
            # Each worker takes one slot as it starts (the pool starts exactly
            # `workers` processes and does not replace them; a broken pool is
            # replaced whole, with fresh slots).
            queue = self._context.Queue()
            for slot in self._slots:
                queue.put(slot)
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                   initializer=_start_worker, initargs=(os.getpid(), queue))

    def _replace_pool(self) -> None:
        """A worker died (killed, or crashed hard): the pool is broken and has
        failed every match it held; go on with a new one."""
        log.info("a local pool worker died; its matches failed, starting new workers")
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._generation += 1
        self._pool = self._new_pool()

    def _submit(self, spec: MatchSpec) -> Future[MatchResult]:
        with _sigint_held():  # a submit may start a worker
            try:
                return self._pool.submit(_play_one, self._runner, spec)
            except BrokenProcessPool:
                self._replace_pool()
                return self._pool.submit(_play_one, self._runner, spec)

    def warm(self) -> None:
        """Start every worker process and import the runner there."""
        with _sigint_held():
            futures = [self._pool.submit(_warm_up, self._runner.__module__)
                       for _ in range(self.workers)]
        for future in futures:
            future.result()

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        # Keep a small window in flight so memory stays flat on big tournaments.
        # A dead worker breaks the whole pool: its matches in flight fail
        # (reported, played again on the next run) and a new pool goes on.
        # No two matches on the same deals at once (deal_gate.py).
        pending: dict[Future[MatchResult], tuple[str, int]] = {}
        played: dict[Future[MatchResult], MatchSpec] = {}
        window = 2 * self.workers
        gate = DealGate(specs)
        while True:
            while len(pending) < window:
                spec = gate.take()
                if spec is None:
                    break
                future = self._submit(spec)
                pending[future] = (spec.match_id, self._generation)
                played[future] = spec
            if not pending:
                assert gate.drained, "the deal gate held matches back with nothing in flight"
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for future in sorted(done, key=lambda f: pending[f]):
                match_id, generation = pending.pop(future)
                gate.finished(played.pop(future))
                exc = future.exception()
                if exc is None:
                    yield Outcome(match_id, future.result())
                else:
                    if isinstance(exc, BrokenProcessPool):
                        broken |= generation == self._generation
                        exc = BrokenProcessPool("a pool worker process died (killed, or "
                                                "crashed hard) while the match was in flight")
                    yield Outcome(match_id, None, _error_text(exc))
            if broken:
                self._replace_pool()

    def terminate_workers(self) -> None:
        """SIGTERM to every worker (the coordinator is being terminated): each
        stops the bots of its match and exits (_start_worker)."""
        # Each worker once: the CLI's handler and the coordinator both stop
        # the workers, and a worker's stop is under way from the first.
        for pid in list(getattr(self._pool, "_processes", None) or ()):
            if pid in self._terminated:
                continue
            self._terminated.add(pid)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def make_executor(kind: str, workers: int, dask_address: str = "",
                  runner: Runner | None = None, quiet: bool = False,
                  pin_cpus: bool = True, sandbox: str = "auto",
                  slots: list[tuple[int, ...]] | None = None, tls: str = "",
                  insecure: bool = False, match_timeout: float = 0) -> Executor:
    """`sandbox`: the run's level, which a Dask worker must offer to be sent
    its matches; `slots`: the local pool's CPU sets (Dask workers take
    theirs from ARENA_CPUS); `tls`: the folder of the cluster's certificates
    for a tls:// scheduler; `insecure`: plain tcp:// to another machine
    allowed; `match_timeout`: seconds a Dask match may take (0: the default)."""
    if kind == "dask":
        # dask only when asked for
        from arena.tournament.executors.dask_executor import MATCH_TIMEOUT, DaskExecutor

        return DaskExecutor(dask_address, workers, runner, quiet, pin_cpus, sandbox=sandbox,
                            tls=tls, insecure=insecure,
                            match_timeout=match_timeout or MATCH_TIMEOUT)
    return LocalPool(workers, runner, pin_cpus, slots)
