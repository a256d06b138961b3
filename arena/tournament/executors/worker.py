"""What every executor shares (the local pool, local.py, and Dask,
dask_executor.py): the Executor protocol, the outcome of a match, the
errors, and how a worker process starts, plays one match, stops and leaves
with its parent. Neither executor imports the other for these.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from arena.referee.spec import MatchResult, MatchSpec
from arena.sandbox.process import live_processes
from arena.tournament.errors import TournamentError
from arena.tournament.executors import cpus

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
    def terminate_workers(self) -> None:
        """Stop the matches in play now (Ctrl-C), each with its teardown."""
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
        _quiet_stop()  # no run is left to print for: its terminal is not this worker's
        _leave()

    threading.Thread(target=watch, name="exit-with-worker", daemon=True).start()


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


class _StderrToLog(io.TextIOBase):
    """sys.stderr of a worker being stopped: what is written goes to the log."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text.strip():
            log.debug("worker stopping: %s", text.rstrip())
        return len(text)


def _quiet_stop() -> None:
    """Once this worker is being stopped, what Python can only report (a
    grpc server collected after its event loop closed, a coroutine the
    cancelled teardown never awaited) goes to the log, not to the terminal
    it shares with the coordinator's last line.

    So does sys.stderr: the stop raises KeyboardInterrupt in the worker's
    main thread (_leave), and where it lands outside the match (the pool's
    own loop, between two tasks or while it pickles the match's end for the
    coordinator), multiprocessing prints it with a traceback ("Process
    SpawnProcess-1: ..."). The logging handlers keep the stream they were
    made with (the last resort's too): the match's errors still show."""
    import sys
    import warnings

    def to_log(unraisable: sys.UnraisableHookArgs) -> None:
        log.debug("worker stopping: %s in %r: %s", unraisable.err_msg or "exception ignored",
                  unraisable.object, unraisable.exc_value)

    sys.unraisablehook = to_log
    if not isinstance(sys.stderr, _StderrToLog):  # the first call has the real stream
        # Python's handler of last resort (no logging set up in a worker) writes
        # to whatever sys.stderr is: given the real one, errors still show.
        last_resort = logging.StreamHandler(sys.stderr)
        last_resort.setLevel(logging.WARNING)
        logging.lastResort = last_resort
        sys.stderr = _StderrToLog()
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
    if _STOPPING:
        # The stop is under way. Acted on again, a second _leave raised a
        # second KeyboardInterrupt into the teardown of the first (CI: in
        # the pool's formatting of the first one's traceback, printed).
        return
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


def _containers() -> list[str]:
    """The ids of the docker level's containers this process owns (its
    match's bots at the docker level, which are not its children): none
    unless this process has used the docker level."""
    import sys

    docker_level = sys.modules.get("arena.sandbox.docker_level")
    if docker_level is None:
        return []
    try:
        api = docker_level.client().api
        return [str(c["Id"]) for c in api.containers(
            all=True, filters={"label": f"arena.owner={docker_level.owner_label()}"})]
    except Exception:  # noqa: BLE001 - no engine to ask: nothing of it to stop
        return []


def _leave() -> None:
    """Exit this worker process, stopping its match's bots first: SIGINT to
    the main thread (the referee's asyncio.run cancels the match, whose
    teardown stops the bots: processes, or containers at the docker
    level); whatever still runs after TEARDOWN_GRACE is killed, and a
    container still there removed (one a launch thread made as the match
    was cancelled has no handle the teardown knows). Called from a thread."""
    if _children() or _containers():
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        end = time.monotonic() + TEARDOWN_GRACE
        while (_children() or _containers()) and time.monotonic() < end:
            time.sleep(0.1)
        for pid in _children():
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
        _remove_containers()
    os._exit(1)


def _remove_containers() -> None:
    import sys

    docker_level = sys.modules.get("arena.sandbox.docker_level")
    for cid in _containers():
        with contextlib.suppress(Exception):
            docker_level.client().api.remove_container(cid, force=True, v=True)  # type: ignore[union-attr]


class ExecutorError(TournamentError, RuntimeError):
    """An executor cannot be started (for example no Dask scheduler answers)."""
