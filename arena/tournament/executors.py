"""Where matches are played: a local process pool or a Dask cluster.

A match is one task: `runner(MatchSpec) -> MatchResult`, a module-level
function (by default `arena.referee.run_match`), so it pickles by reference.
Executors only play; they never touch the store. Results come back in
completion order; the coordinator makes the outcome independent of it.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import resource_tracker
from typing import Any, Protocol, TypeVar

from arena.referee.spec import MatchResult, MatchSpec
from arena.sandbox.process import live_processes
from arena.tournament import cpus

log = logging.getLogger("arena.tournament")
Runner = Callable[[MatchSpec], MatchResult]
A = TypeVar("A")
R = TypeVar("R")


@dataclass(frozen=True)
class Outcome:
    """A played match, or why it could not be played (an arena error, not a bot fault)."""

    match_id: str
    result: MatchResult | None
    error: str = ""


class Executor(Protocol):
    workers: int

    def warm(self) -> None: ...

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]: ...
    def close(self) -> None: ...


def default_runner() -> Runner:
    from arena.referee import run_match

    return run_match


def cores() -> int:
    return max(1, len(cpus.available()))


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


def _warm_up(module: str) -> int:
    """Import the runner's module in a worker (so a benchmark times matches only)."""
    importlib.import_module(module)
    return os.getpid()


def _take_slot(slots: Any) -> None:
    """Worker initializer: pin this worker to the next free CPU slot."""
    cpus.pin(slots.get())


def _start_worker(parent: int, slots: Any = None) -> None:
    """Local pool worker initializer: take the next free CPU slot (if slots
    are on), leave when the coordinator is gone (a killed coordinator never
    shuts its pool down: an orphan would wait forever), and on SIGTERM (what
    a broken pool sends its other workers) stop the match's bots and leave."""
    if slots is not None:
        _take_slot(slots)
    _leave_the_terminal()
    _exit_with_parent(parent)
    signal.signal(signal.SIGTERM, _on_sigterm)


def _leave_the_terminal() -> None:
    """Move this worker out of the terminal's foreground process group. A
    Ctrl-C then reaches the coordinator only, which stops each worker in
    order (terminate_workers): delivered to every process at once, it broke
    into workers still importing (tracebacks) and into matches in their
    teardown (grpc's "Exception ignored in Server.__del__"), all printed on
    the terminal. The worker started with SIGINT blocked (_sigint_held); one
    that came before the move is dropped (SIG_IGN discards a pending signal)."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


# Signals whose Python handlers a hold defers (the CLI's: KeyboardInterrupt
# on Ctrl-C, its SIGTERM handler).
_DEFERRED = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Start pool processes and threads inside this: SIGINT is blocked in the
    calling thread, and a Ctrl-C or SIGTERM that comes meanwhile is acted on
    when the hold ends, never in the middle of it.

    The mask: processes and threads started here inherit it. A worker
    booting with SIGINT blocked waits until it has left the terminal's
    process group (_leave_the_terminal), and a helper thread of the
    coordinator (a pool's queue feeder, its manager thread) never takes a
    SIGINT, so the kernel delivers it to the main thread: there, Python's
    handler runs at once, even while the main thread waits for results (a
    signal taken by another thread would wake the main thread only when a
    match came back, which can take minutes).

    The deferral: a blocked signal can still be taken by another thread,
    and Python then runs its handler in the main thread at any instruction.
    Raised in the middle of starting a worker (between the spawn and the
    write of its preparation data), KeyboardInterrupt left that worker
    reading a closed pipe, and it printed `EOFError: Ran out of input` on
    the terminal. So while the hold lasts the handlers only take note; the
    first signal that came is handed to its real handler as the hold ends."""
    came: list[tuple[int, Any]] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for wanted in _DEFERRED:
            handler = signal.getsignal(wanted)
            if callable(handler):  # a Python handler (not SIG_IGN / SIG_DFL)
                handlers[wanted] = handler
                signal.signal(wanted, lambda s, frame: came.append((s, frame)))
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        for held, handler in handlers.items():
            signal.signal(held, handler)  # runs the note-takers for what is pending first
        # A SIGINT pending on the process is delivered here, to the real handler.
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if came:
            first, frame = came[0]
            handlers[first](first, frame)


def _quiet_stop() -> None:
    """Once this worker is being stopped, what Python can only report (a
    grpc server collected after its event loop closed, a coroutine the
    cancelled teardown never awaited) goes to the log, not to the terminal
    it shares with the coordinator's last line."""
    import sys
    import warnings

    def to_log(unraisable: sys.UnraisableHookArgs) -> None:
        log.debug("worker stopping: %s in %r: %s", unraisable.err_msg or "exception ignored",
                  unraisable.object, unraisable.exc_value)

    sys.unraisablehook = to_log
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    # grpc's poller thread can still call into the closed loop of the match
    # it was serving ("Exception in callback PollerCompletionQueue...").
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    # The match's own warnings while it is torn down (a bot started as the
    # stop came, found parentless by its seat's gate: "refused a connection
    # on seat 0's socket") say nothing about the run; errors still show.
    logging.disable(logging.WARNING)


_STOPPING = False  # this worker was told to stop: it starts no further match


def _play_one(runner: Runner, spec: MatchSpec) -> MatchResult:
    """A pool task: one match, unless the worker is stopping (a match already
    handed to it when the stop came would start bots only to lose them)."""
    if _STOPPING:
        os._exit(1)
    return runner(spec)


def _on_sigterm(signum: int, frame: Any) -> None:
    global _STOPPING
    _STOPPING = True
    _quiet_stop()
    if not _children():
        os._exit(1)  # no match running: nothing to stop
    threading.Thread(target=_leave, name="arena-leave", daemon=True).start()


# How long a match being torn down (SIGINT in the worker: the referee stops
# its bots as on Ctrl-C) may take before what is left is killed outright.
TEARDOWN_GRACE = 10.0


def _children() -> list[int]:
    """Live children of this process, from /proc: the bots of the match it
    plays (each leads a process group of its own)."""
    me = os.getpid()
    return [pid for pid, ppid, _ in live_processes() if ppid == me]


def _leave() -> None:
    """Exit this worker process, stopping its match's bots first: SIGINT to
    the main thread (the referee's asyncio.run cancels the match, whose
    teardown stops the bots); whatever still runs after TEARDOWN_GRACE is
    killed. Called from a thread."""
    if _children():
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        end = time.monotonic() + TEARDOWN_GRACE
        while _children() and time.monotonic() < end:
            time.sleep(0.1)
        for pid in _children():
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
    os._exit(1)


class LocalPool:
    """A pool of fresh worker processes (spawn: no state inherited from the
    coordinator), each on a CPU slot of its own (arena.tournament.cpus)
    unless `pin_cpus` is False."""

    def __init__(self, workers: int, runner: Runner | None = None, pin_cpus: bool = True) -> None:
        self.workers = workers if workers > 0 else cores()
        self._runner = runner or default_runner()
        self._context = multiprocessing.get_context("spawn")
        self._slots = cpus.slots(self.workers) if pin_cpus else []
        self._generation = 0
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
        pending: dict[Future[MatchResult], tuple[str, int]] = {}
        source = iter(specs)
        window = 2 * self.workers
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                spec = next(source, None)
                if spec is None:
                    exhausted = True
                    break
                future = self._submit(spec)
                pending[future] = (spec.match_id, self._generation)
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for future in sorted(done, key=lambda f: pending[f]):
                match_id, generation = pending.pop(future)
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
        for pid in list(getattr(self._pool, "_processes", None) or ()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


# Dask settings for workers that run matches (see DaskExecutor and
# _in_match_process; the same settings as environment variables are in
# docs/tournaments.md for workers started by hand).
QUIET_WORKER_CONFIG = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "2s",
    # A worker may start a child process: the match process (_in_match_process).
    "distributed.worker.daemon": False,
}


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


def _exit_with_parent(parent: int) -> None:
    """In a pool's worker process (the Dask worker's match process, a local
    pool worker): leave when `parent` is gone (a parent that is killed never
    shuts its pool down; an orphan would wait forever), stopping the bots of
    the match being played (_leave)."""
    # _leave stops the match with SIGINT. A coordinator started as a
    # background job (CI, nohup, `&`) has SIGINT ignored, and its spawned
    # workers inherit that: the match would then run on until the grace
    # period, and be killed without its teardown (bots, replay part file).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        _leave()

    threading.Thread(target=watch, name="exit-with-worker", daemon=True).start()


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


# Seconds to reach a running Dask scheduler before the run gives up.
CONNECT_SECONDS = 10


class ExecutorError(RuntimeError):
    """An executor cannot be started (for example no Dask scheduler answers)."""


class DaskExecutor:
    """Dask distributed: `address` "local" (or "") starts a LocalCluster of
    `workers` single-threaded worker processes on 127.0.0.1; "tcp://host:port"
    connects to a running scheduler (see docs/tournaments.md)."""

    def __init__(self, address: str, workers: int, runner: Runner | None = None,
                 quiet: bool = False, pin_cpus: bool = True) -> None:
        import distributed

        dist: Any = distributed  # untyped library
        self._runner = runner or default_runner()
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
                try:
                    self._client = dist.Client(address, timeout=CONNECT_SECONDS)
                except (OSError, ValueError) as exc:  # TimeoutError is an OSError
                    raise ExecutorError(
                        f"dask scheduler {address}: cannot connect: {exc}") from None
            self._client.register_plugin(_worker_plugin(slots), name="arena-match-process")
        info = self._client.scheduler_info()
        self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in info["workers"].values()))

    def warm(self) -> None:
        """Start every worker's match process and import the runner there."""
        self._client.run(_in_match_process, _warm_up, self._runner.__module__)

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        import distributed

        dist: Any = distributed
        window = 2 * self.workers
        source = iter(specs)
        futures: dict[Any, str] = {}
        batch: Any = dist.as_completed(with_results=False)
        in_flight = 0

        def submit_more() -> None:
            nonlocal in_flight
            while in_flight < window:
                spec = next(source, None)
                if spec is None:
                    return
                future = self._client.submit(_in_match_process, self._runner, spec, pure=False)
                futures[future.key] = spec.match_id
                batch.add(future)
                in_flight += 1

        submit_more()
        while in_flight:
            future = next(batch)
            in_flight -= 1
            match_id = futures.pop(future.key)
            if future.status == "finished":
                yield Outcome(match_id, future.result())
            else:
                try:
                    exc = future.exception()
                    yield Outcome(match_id, None, _error_text(exc))
                except Exception as lost:  # noqa: BLE001 - cancelled, or the worker vanished
                    yield Outcome(match_id, None, _error_text(lost))
            future.release()
            submit_more()

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


def make_executor(kind: str, workers: int, dask_address: str = "",
                  runner: Runner | None = None, quiet: bool = False,
                  pin_cpus: bool = True) -> Executor:
    if kind == "dask":
        return DaskExecutor(dask_address, workers, runner, quiet, pin_cpus)
    return LocalPool(workers, runner, pin_cpus)
