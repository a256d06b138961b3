"""Matches on a Dask cluster (`tournament run --dask ADDRESS|local`): each
Dask worker process keeps one match process, where its matches run (the
referee's asyncio loop and the bots' process group stay out of Dask's
worker), started on its first match in the worker's CPU slot and stopped
with the worker. The local process pool is local.py; what both share,
worker.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any, TypeVar

from arena.referee.spec import MatchSpec
from arena.tournament.executors import cpus, honest
from arena.tournament.executors.cluster import (
    QUIET_WORKER_CONFIG,
    WORKERS_SECONDS,
    Admission,
    address_problem,
    localize,
    pack_bot,
    security,
)
from arena.tournament.executors.deal_gate import DealGate
from arena.tournament.executors.honest import Returned
from arena.tournament.executors.worker import (
    ExecutorError,
    Outcome,
    Runner,
    _error_text,
    _exit_with_parent,
    _leave_the_terminal,
    _on_sigterm,
    _quiet_stop,
    _sigint_held,
    _warm_up,
    cores,
    default_runner,
)

log = logging.getLogger("arena.tournament")
A = TypeVar("A")
R = TypeVar("R")


# One match process per Dask worker process (workers run one task at a time:
# --nthreads 1), started on the worker's first match and kept.
_MATCH_PROCESS: ProcessPoolExecutor | None = None


# This Dask worker's CPU slot (set by the worker plugin): its match process runs there.
_SLOT: tuple[int, ...] | None = None


def _match_process() -> ProcessPoolExecutor:
    global _MATCH_PROCESS
    if _MATCH_PROCESS is None:
        _MATCH_PROCESS = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_match_process, initargs=(os.getpid(), _SLOT))
    return _MATCH_PROCESS


def _start_match_process(parent: int, slot: tuple[int, ...] | None) -> None:
    # Pinned first, while the process has one thread: everything it starts inherits it.
    if slot:
        cpus.pin(slot)
    # As a local pool worker: out of the terminal's process group (a Ctrl-C
    # reaches the run, which stops this process: DaskExecutor.terminate_workers),
    # and SIGTERM stops its match's bots before it exits.
    _leave_the_terminal()
    _exit_with_parent(parent)
    signal.signal(signal.SIGTERM, _on_sigterm)


def _stop_match_process() -> int:
    """Run on a Dask worker (Client.run) when the run is stopped: SIGTERM to
    its match process, which tears its match down and exits (_on_sigterm);
    the worker's own reports of its task's end go to the log. Returns how
    many processes were told."""
    _quiet_stop()
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    told = 0
    if _MATCH_PROCESS is not None:
        for pid in list(getattr(_MATCH_PROCESS, "_processes", None) or ()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
                told += 1
    return told


def _close_match_process(wait: bool = True) -> None:
    global _MATCH_PROCESS
    if _MATCH_PROCESS is not None:
        _MATCH_PROCESS.shutdown(wait=wait, cancel_futures=True)
        _MATCH_PROCESS = None


class _MatchProcessPlugin:
    """Dask worker plugin: give the worker its CPU slot (`slots` by worker
    name for a LocalCluster, whose workers are named 0..n-1; else ARENA_CPUS
    from the worker's environment; else none), and shut the match process
    down with the worker."""

    idempotent = True

    def __init__(self, slots: list[tuple[int, ...]] | None = None) -> None:
        self.slots = list(slots or [])

    def setup(self, worker: Any) -> None:
        global _SLOT
        name = getattr(worker, "name", None)
        if self.slots and isinstance(name, int):
            _SLOT = self.slots[name % len(self.slots)]
            return
        try:
            _SLOT = cpus.from_env()
        except ValueError as exc:
            _SLOT = None
            log.warning("%s ignored: %s", cpus.ENV, exc)

    def teardown(self, worker: Any) -> None:
        _close_match_process()


def _in_match_process(fn: Callable[[A], R], arg: A) -> R:
    """The Dask task: `fn(arg)` (a match: `runner(spec)`, or the warm-up) in
    the worker's match process, beside the worker. In the worker process the
    referee's event loop would share the GIL with the worker's (heartbeats,
    comms, monitors) and lose time to it; measured with whole games on 2
    cores, Dask ran about a fifth slower than the local pool that way. A
    daemonic worker (Dask's default outside `--dask local`) may not have
    children: it plays in-process."""
    if multiprocessing.current_process().daemon:
        return fn(arg)
    try:
        return _match_process().submit(fn, arg).result()
    except KeyboardInterrupt:
        # The match process's match was stopped (_stop_match_process: the
        # run is being stopped) and its KeyboardInterrupt came back as the
        # task's result. An error of this task, not an interrupt of the
        # worker: distributed re-raises a KeyboardInterrupt out of a task
        # into its event loop, with a traceback on the terminal.
        _close_match_process(wait=False)
        raise RuntimeError("the match was stopped: the run was interrupted") from None
    except BrokenProcessPool:
        # The match process died (killed, or crashed hard): this match fails
        # (reported, and played again on resume); the next one gets a new process.
        _close_match_process(wait=False)
        raise


def _worker_plugin(slots: list[tuple[int, ...]]) -> Any:
    import distributed

    dist: Any = distributed

    class MatchProcessPlugin(_MatchProcessPlugin, dist.WorkerPlugin):  # type: ignore[misc]
        pass

    return MatchProcessPlugin(slots)


# Seconds to reach a running Dask scheduler before the run gives up; the
# environment variable sets another (a slow link; a test that checks the
# refusal need not wait the 10 s out).
CONNECT_SECONDS = 10
CONNECT_SECONDS_VAR = "ARENA_DASK_CONNECT_SECONDS"


def connect_seconds() -> float:
    """CONNECT_SECONDS, or ARENA_DASK_CONNECT_SECONDS when set (seconds > 0)."""
    raw = os.environ.get(CONNECT_SECONDS_VAR, "").strip()
    if not raw:
        return CONNECT_SECONDS
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ExecutorError(f"{CONNECT_SECONDS_VAR}={raw!r}: expected a number of seconds > 0")
    return seconds



# Seconds from a match's hand-out to its result before the coordinator gives
# up on its worker (slow or hung) and plays it elsewhere (--match-timeout).
MATCH_TIMEOUT = 1800.0

# What a worker says as it starts a match (the coordinator's match clock).
START_TOPIC = "arena-match-start"

# Results of one match refused (honest.check) before it is failed for this run.
MAX_REFUSALS = 3
NO_WORKER_LEFT = (f"no Dask worker that may play it was left for {WORKERS_SECONDS} s: every "
                  "one was refused (the run's lines say why) or left")


def _cluster_task(runner: Runner, spec: MatchSpec, packs: dict[str, bytes]) -> Returned:
    """The Dask task of a match: its bots from `packs` (content hash ->
    the folder packed, a Dask future each: shipped once to each worker)
    into this worker's cache (cluster.localize), played in the worker's
    match process, its replay recorded there and sent back with the result
    (honest.py)."""
    import distributed

    worker: Any = distributed.get_worker()
    # The coordinator's clock of this match starts now (DaskExecutor._deadline).
    worker.log_event(START_TOPIC, {"key": str(worker.get_current_task())})
    local = localize(spec, packs)
    return _in_match_process(functools.partial(honest.play_recorded, runner), local)


class DaskExecutor:
    """Dask distributed: `address` "local" (or "") starts a LocalCluster of
    `workers` single-threaded worker processes on 127.0.0.1; "tcp://host:port"
    connects to a running scheduler (see docs/tournaments.md)."""

    def __init__(self, address: str, workers: int, runner: Runner | None = None,
                 quiet: bool = False, pin_cpus: bool = True, check: bool = True,
                 sandbox: str = "auto", tls: str = "", insecure: bool = False,
                 match_timeout: float = MATCH_TIMEOUT) -> None:
        import distributed

        dist: Any = distributed  # untyped library
        self._runner = runner or default_runner()
        # Every result re-played before it is stored (honest.py); off only
        # for test runners that play no real game (and so write no replay).
        self._check = check
        self._match_timeout = match_timeout
        self._address = address
        self._started: dict[str, float] = {}  # task key -> when a worker started it
        self.played_by: dict[str, int] = {}  # worker address -> results of it stored
        self._scattered: dict[str, Any] = {}  # content hash -> its pack, a Dask future
        self._cluster: Any = None
        level = logging.ERROR if quiet else logging.WARNING
        # CPU slots are known here only for a LocalCluster (this machine);
        # workers elsewhere read ARENA_CPUS.
        slots: list[tuple[int, ...]] = []
        self._stopped = False
        # Dask's threads in this process (its event loop, a nanny's process
        # watchers) and its worker processes start inside the hold
        # (_sigint_held): the threads never take a Ctrl-C from the main
        # thread, and the workers never get one at all (they inherit SIGINT
        # blocked; a Ctrl-C delivered to each process of the terminal broke
        # into every worker and nanny at once, tracebacks and "still alive
        # after 4.0 seconds, killing" all over the terminal). The run stops
        # them in order instead (terminate_workers, close). The resource
        # tracker first: starting it unblocks SIGINT in the thread that does.
        resource_tracker.ensure_running()
        with _sigint_held():
            if address in ("", "local"):
                import dask

                n = workers if workers > 0 else cores()
                slots = cpus.slots(n) if pin_cpus else []
                # A match runs in the worker process beside the worker's own event
                # loop: its housekeeping (a 20 ms tick, memory and system monitors
                # every 0.1-0.5 s) takes the GIL from the referee. Matches last
                # seconds, so slower housekeeping loses nothing (measured: Dask 2
                # workers went from 8% below the local pool to level with it).
                with dask.config.set(QUIET_WORKER_CONFIG):
                    self._cluster = dist.LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=level,
                        # No dashboard; the scheduler's HTTP routes (health,
                        # metrics) on a free loopback port: by default they
                        # take 8787 and, with it in use (another cluster),
                        # warn on the terminal that they moved.
                        scheduler_kwargs={"dashboard": False,
                                          "dashboard_address": "127.0.0.1:0"})
                self._client: Any = dist.Client(self._cluster)
            else:
                timeout = connect_seconds()
                # Plain tcp:// only to this machine unless told; tls:// with
                # the cluster's certificates (cluster.py).
                if problem := address_problem(address, tls, insecure):
                    raise ExecutorError(problem)
                try:
                    self._client = dist.Client(address, timeout=timeout, security=security(tls))
                except (OSError, ValueError) as exc:  # TimeoutError is an OSError
                    raise ExecutorError(
                        f"dask scheduler {address}: cannot connect: {exc}") from None
            self._client.register_plugin(_worker_plugin(slots), name="arena-match-process")
            self._client.subscribe_topic(START_TOPIC, self._on_start)
        # Who may play: each worker asked what it plays with (cluster.py).
        self._gate = Admission(self._client, sandbox)
        self.refused = self._gate.refused  # worker address -> why it was refused
        self.workers = max(1, self._gate.wait_for_workers(address))

    def _packs(self, spec: MatchSpec) -> dict[str, Any]:
        """Each bot of `spec` packed once for the run and handed to Dask
        (scattered to every worker admitted now; a worker that joins later
        gets a copy from one of them when it first needs it)."""
        for bot in spec.bots:
            held = self._scattered.get(bot.content_hash)
            if held is None or held.status != "finished":  # lost with the workers that held it
                self._scattered[bot.content_hash] = self._client.scatter(
                    pack_bot(bot), hash=False, broadcast=True, workers=self._gate.admit() or None)
        return {bot.content_hash: self._scattered[bot.content_hash] for bot in spec.bots}

    def warm(self) -> None:
        """Start every worker's match process and import the runner there."""
        self._client.run(_in_match_process, _warm_up, self._runner.__module__,
                         workers=self._gate.admit())

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        """The matches of `specs` as they come back. The scheduler lost
        (killed, unreachable past Dask's reconnect time): ExecutorError, one
        line; what finished is stored, and the next run plays the rest."""
        try:
            yield from self._play(specs)
        except ExecutorError:
            raise
        except Exception as exc:
            if self._client.status == "running":
                raise
            raise ExecutorError(
                f"dask scheduler {self._address}: lost ({_error_text(exc)}); the finished "
                "matches are stored: run again once it is back") from None

    def _play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        window = 2 * self.workers
        gate = DealGate(specs)  # no two matches on the same deals at once
        futures: dict[Any, tuple[Any, MatchSpec, float]] = {}  # key -> future, spec, handed out
        in_flight = 0
        refusals: dict[tuple[str, str], int] = {}  # (match id, why) -> times played again

        def submit(spec: MatchSpec) -> bool:
            """Send `spec` to the cluster; False if no worker that may play
            is left (none joined within WORKERS_SECONDS of the last refusal)."""
            nonlocal in_flight
            # Not restricted to the workers admitted: a task restricted to
            # workers that all died would wait forever. A refused worker has
            # left (refuse_here) or was retired; one that joins later is
            # checked here, or as its first result comes back (_accepted).
            deadline = time.monotonic() + WORKERS_SECONDS
            while not self._gate.admit():
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.2)
            future = self._client.submit(_cluster_task, self._runner, spec, self._packs(spec),
                                         pure=False)
            futures[future.key] = (future, spec, time.monotonic())
            in_flight += 1
            return True

        def submit_more() -> None:
            while in_flight < window:
                spec = gate.take()
                if spec is None:
                    return
                if not submit(spec):
                    gate.finished(spec)
                    failed.append(Outcome(spec.match_id, None, NO_WORKER_LEFT))

        failed: list[Outcome] = []
        submit_more()
        while in_flight or failed:
            if failed:
                yield failed.pop(0)
                continue
            future, why = self._next(futures)
            in_flight -= 1
            spec = futures.pop(future.key)[1]
            self._started.pop(str(future.key), None)
            match_id = spec.match_id
            outcome: Outcome | None
            if why:  # past its deadline: cancelled, its worker refused
                outcome = None
            elif future.status == "finished":
                outcome, why = self._accepted(future, spec), "results of it were refused"
            else:
                outcome, why = self._failed(future, spec), "times its worker was lost"
            future.release()
            if outcome is None:  # refused or lost: played again, by another worker
                key = (match_id, why)
                refusals[key] = refusals.get(key, 0) + 1
                if refusals[key] > MAX_REFUSALS:
                    outcome = Outcome(match_id, None, f"{refusals[key]} {why} (docs/"
                                      "tournaments.md, 'Running on other machines')")
                elif not submit(spec):
                    outcome = Outcome(match_id, None, NO_WORKER_LEFT)
            if outcome is not None:
                gate.finished(spec)
                yield outcome
            submit_more()

    def _next(self, futures: dict[Any, tuple[Any, MatchSpec, float]]) -> tuple[Any, str]:
        """The next task to come back, with "" as the reason, or one past
        its deadline (a slow or hung worker): cancelled, the worker that
        held it refused (it takes no further match, and leaves), with the
        reason it is played again."""
        import distributed

        dist: Any = distributed
        while True:
            soonest = min(futures.values(), key=self._deadline)
            left = self._deadline(soonest) - time.monotonic()
            if left > 0:
                try:
                    done, _ = dist.wait([f for f, _, _ in futures.values()], timeout=left,
                                        return_when="FIRST_COMPLETED")
                except TimeoutError:
                    continue
                except dist.client.FuturesCancelledError:
                    # Cancelled (its data lost with a worker): handed back
                    # as done; _failed tells it from a failure.
                    done = {f for f, _, _ in futures.values() if f.cancelled()}
                    if not done:
                        continue
                # The lowest match id of those that came back (a stable order).
                return min(done, key=lambda f: futures[f.key][1].match_id), ""
            future, spec = soonest[0], soonest[1]
            if future.done():
                return future, ""
            held = [w for w, keys in self._client.processing().items() if future.key in keys]
            self._client.cancel(future)
            for worker in held:
                if worker not in self.refused:
                    self._gate.refuse(worker, f"match {spec.match_id} took longer than "
                                 f"{self._match_timeout:.0f} s there (a slow or hung worker: "
                                 "the match is played again by another)")
            return future, "times it took too long"

    def _deadline(self, entry: tuple[Any, MatchSpec, float]) -> float:
        """When a match in flight is given up: `match_timeout` after its
        worker started it (its START_TOPIC event), or twice that after it
        was handed out if no worker has started it (queued behind a hung one)."""
        started = self._started.get(str(entry[0].key))
        if started is not None:
            return started + self._match_timeout
        return entry[2] + 2 * self._match_timeout

    def _on_start(self, event: tuple[float, Any]) -> None:
        """A worker started a match (run by the client's event loop)."""
        msg = event[1]
        if isinstance(msg, dict) and isinstance(msg.get("key"), str):
            self._started[msg["key"]] = time.monotonic()

    def _failed(self, future: Any, spec: MatchSpec) -> Outcome | None:
        """The outcome of a task that did not finish, or None when it was
        lost with its worker (killed, gone, or the bots' packs lost with
        the only workers that held them): played again."""
        import distributed

        dist: Any = distributed
        try:
            exc = future.exception()
        except Exception as lost:  # noqa: BLE001 - cancelled: its data went with a worker
            exc = lost
        if exc is None or isinstance(exc, (dist.KilledWorker, dist.client.FutureCancelledError,
                                           asyncio.CancelledError)):
            log.info("match %s: lost with its worker (%s); played again", spec.match_id,
                     _error_text(exc) if exc is not None else future.status)
            return None
        return Outcome(spec.match_id, None, _error_text(exc))

    def _accepted(self, future: Any, spec: MatchSpec) -> Outcome | None:
        """The outcome of a finished task, or None when its result is
        refused: its replay does not re-play to it (honest.check), or its
        worker was refused before. A refused worker is sent no further
        match (play), and its results still to come are refused too."""
        returned = future.result()
        if not self._check and isinstance(returned, Returned):
            return Outcome(spec.match_id, honest.stored(spec, returned))
        # Who ran it, as the scheduler knows (the task's own word could be forged).
        held = self._client.who_has(future).get(future.key, ())
        worker = str(held[0]) if held else "?"
        self._gate.admit()  # a worker that joined since the last match was handed out
        if worker not in self._gate.admitted or worker in self.refused:
            return None
        try:
            if not isinstance(returned, Returned):  # something else entirely: no honest worker
                raise honest.ReplayMismatch(
                    f"match {spec.match_id}: the worker sent a {type(returned).__name__}")
            honest.check(spec, returned)
        except honest.ReplayMismatch as exc:
            self._gate.refuse(worker, f"{exc} (a result its replay does not re-play to: the match "
                         "is played again by another worker)")
            return None
        self.played_by[worker] = self.played_by.get(worker, 0) + 1
        return Outcome(spec.match_id, honest.stored(spec, returned))

    def terminate_workers(self) -> None:
        """The run is being stopped: the matches in play on this run's own
        LocalCluster are torn down (their bots stopped) and what Dask reports
        of the workers' ends goes to the log. A cluster of others (a
        scheduler address) is left alone: its matches of this run finish
        there, unrecorded, and are played again on the next run."""
        if self._stopped or self._cluster is None:
            return
        self._stopped = True
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        with contextlib.suppress(Exception):  # a worker already gone has nothing to stop
            self._client.run(_stop_match_process, on_error="ignore")

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
