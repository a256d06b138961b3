"""Ctrl-C and SIGTERM for the commands that play many matches (`tournament
run`, `gauntlet`; also `serve`): either one stops the run once, cleanly.
OneMatchStop (below) does the same for the commands that play one match.

The first signal raises KeyboardInterrupt (Terminated for SIGTERM) in the
main thread; the command stops its matches, says so in one line and exits
130 (143). From then on both signals are ignored: the stop is under way and
bounded (each pool worker tears its match down, killed after
executors.TEARDOWN_GRACE), and a second Ctrl-C would only break into it or
into the interpreter's exit (a KeyboardInterrupt in an atexit hook: a
death by SIGINT instead of the exit status, and the workers' bots left to
their own watchdog).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Self, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Terminated(KeyboardInterrupt):
    """SIGTERM: handled as Ctrl-C (exit status 143)."""


def quiet_unraisable() -> None:
    """Once a run is being stopped, errors Python can only report ("Exception
    ignored in: ...", e.g. from a finalizer that the stop interrupted, or one
    of the pool's threads writing to a worker that just exited) go to the log,
    not to stderr: there they would break into the one line that says what
    happened."""
    def to_log(unraisable: sys.UnraisableHookArgs) -> None:
        log.debug("while stopping: %s in %r: %s", unraisable.err_msg or "exception ignored",
                  unraisable.object, unraisable.exc_value)

    sys.unraisablehook = to_log


class StopSignals:
    """While entered (in the main thread), SIGINT and SIGTERM stop the run:
    `on_stop` is called first (for example: tell the pool's workers to
    stop their matches), then KeyboardInterrupt or Terminated is raised.

    A SIGINT that the command was started with ignored (a background job
    of a script, `nohup`-like launchers) stays ignored, as POSIX means it
    to: that Ctrl-C is not for this process.

    The exception can be lost: raised while a finalizer runs, Python
    reports it and drops it. `check()` raises it again; call it where the
    run can stop (each result that comes back), and `stopped` tells after
    the run whether it should have stopped."""

    def __init__(self, on_stop: Callable[[], None] = lambda: None) -> None:
        self._on_stop = on_stop
        self.signal: int | None = None  # the signal that stopped the run
        self._previous: dict[int, Any] = {}

    @property
    def stopped(self) -> bool:
        return self.signal is not None

    def exception(self) -> KeyboardInterrupt:
        return Terminated() if self.signal == signal.SIGTERM else KeyboardInterrupt()

    def check(self) -> None:
        if self.stopped:
            raise self.exception()

    def _handle(self, signum: int, frame: object) -> None:
        if self.signal is None:
            self.signal = signum
            for held in self._previous:
                signal.signal(held, signal.SIG_IGN)
            quiet_unraisable()
            self._on_stop()
        raise self.exception()

    def __enter__(self) -> Self:
        if threading.current_thread() is not threading.main_thread():
            return self  # called from other code's thread: no handlers
        for signum in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(signum) is not signal.SIG_IGN:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.stopped:
            # The process is on its way out: the signals stay ignored, and the
            # quiet hook stays (the pool's threads may still report something
            # while the interpreter exits).
            return
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def words(self) -> tuple[str, int]:
        """What to say and the exit status, for the signal that stopped the run."""
        return ("terminated", 143) if self.signal == signal.SIGTERM else ("interrupted", 130)


class OneMatchStop:
    """Ctrl-C and SIGTERM for the commands that play one match under
    asyncio.run (`play`, `bot check`, `bot add`'s validation).

    During the match, Ctrl-C is asyncio.run's own (it cancels the match's
    task, whose cleanup stops the bots and drops an unfinished replay) and
    SIGTERM, through `run`, cancels that task the same way (left at its
    default, SIGTERM would kill the command and leave its bots running). A
    Python handler, not loop.add_signal_handler: the loop's close puts
    SIGTERM back to its default, and a SIGTERM then killed the command
    while it printed. Linux gives a process's signal to its main thread,
    so the handler runs even while the loop waits.

    Once the match has its result, `run` calls `hold`: from then on both
    signals are only noted, so the result is printed whole, and the command
    then ends with the one line and 130 (143) if one came (`signal`)."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._cancel: Callable[[], None] | None = None

    async def run(self, work: Awaitable[T], done: list[T]) -> T:
        """Await `work`; its result is also appended to `done` before the
        signals are held, so that a Ctrl-C which cancels the task just as
        the match ends does not lose it."""
        import asyncio

        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        if task is not None and threading.current_thread() is threading.main_thread():
            def cancel() -> None:
                if not loop.is_closed():
                    loop.call_soon_threadsafe(task.cancel)

            self._cancel = cancel
            if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:
                signal.signal(signal.SIGTERM, self._handle)
        result = await work
        done.append(result)
        self.hold()
        return result

    def _handle(self, signum: int, frame: object) -> None:
        if self.signal is not None:
            return  # the stop is under way: a second signal changes nothing
        self.signal = signum
        if self._cancel is not None:
            quiet_unraisable()
            self._cancel()

    def hold(self, signum: int | None = None) -> None:
        """From now on SIGINT and SIGTERM are noted (the first of them), not
        acted on; `signum` is the signal that already stopped the match, if
        asyncio.run's Ctrl-C did."""
        if signum is not None and self.signal is None:
            self.signal = signum
        self._cancel = None
        if threading.current_thread() is not threading.main_thread():
            return
        for held in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(held) is not signal.SIG_IGN:
                signal.signal(held, self._handle)

    def exception(self) -> KeyboardInterrupt:
        return Terminated() if self.signal == signal.SIGTERM else KeyboardInterrupt()

    def words(self) -> tuple[str, int]:
        """What to say and the exit status, for the signal that came."""
        return ("terminated", 143) if self.signal == signal.SIGTERM else ("interrupted", 130)
