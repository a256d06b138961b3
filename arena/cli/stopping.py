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
from typing import TYPE_CHECKING, Any, Self, TypeVar

if TYPE_CHECKING:  # imported lazily at run time: the CLI starts often
    from arena.tournament import Executor

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


RUN_STOPPED = "finished matches are stored; run again to resume"


class RunStop(StopSignals):
    """StopSignals for the commands that play their matches on executors
    (`tournament run`, `gauntlet`): the executors made through `executor()`
    are told to stop their workers at the first signal (each worker stops
    its match's bots and exits; finished matches are stored), and the
    command ends with one line.

    A signal after the run (while the command prints its summary, or as its
    store closes) is noted, not raised: the summary is printed whole, then
    `finish()` says the one line. A KeyboardInterrupt that escapes the
    command all the same (raised where no handler of the command is: a
    finalizer's, an exit's) gets that line from `arena.cli.main` (last_words)."""

    def __init__(self, make: Callable[[], Executor]) -> None:
        super().__init__(self._stop_workers)
        self._make = make
        self._made: list[Executor] = []
        self.said = False

    def executor(self) -> Executor:
        self._made.append(self._make())
        return self._made[-1]

    def _stop_workers(self) -> None:
        for made in self._made:
            made.terminate_workers()

    def __enter__(self) -> Self:
        global _RUN
        _RUN = self
        return super().__enter__()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.stopped or not self._previous:
            return
        # The run is over: from here to the command's end a signal is noted
        # only (finish() acts on it), as in the run once its first came.
        for signum in self._previous:
            signal.signal(signum, self._note)

    def _note(self, signum: int, frame: object) -> None:
        if self.signal is None:
            self.signal = signum
            quiet_unraisable()

    def stopped_exit(self) -> BaseException:
        """Say the one line; the exit to raise, with the signal's status."""
        import typer

        for held in self._previous:
            signal.signal(held, signal.SIG_IGN)
        quiet_unraisable()
        what, code = self.words()
        if not self.said:
            self.said = True
            typer.echo(f"\n{what}: {RUN_STOPPED}", err=True)
        return typer.Exit(code)

    def finish(self) -> None:
        """At the command's end: the one line and the exit if a signal came
        after the run; else the handlers the run found."""
        if self.stopped:
            raise self.stopped_exit()
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


_RUN: RunStop | None = None  # the run of this command, once it has started (last_words)


def last_words(exc: BaseException) -> int:
    """A KeyboardInterrupt (or typer.Abort) that escaped the command: the
    exit status, and for a run, its one line if not said yet. Both signals
    are ignored from here: the process is on its way out, and a second
    Ctrl-C would break into the interpreter's exit with a traceback."""
    exiting()
    quiet_unraisable()
    if not isinstance(exc, KeyboardInterrupt):  # click's Abort, raised from the KeyboardInterrupt
        exc = exc.__cause__ or exc.__context__ or exc
    if _RUN is not None:
        if _RUN.signal is None:
            _RUN.signal = signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT
        if not _RUN.said:
            _RUN.said = True
            what, _ = _RUN.words()
            print(f"\n{what}: {RUN_STOPPED}", file=sys.stderr, flush=True)
        return _RUN.words()[1]
    return 143 if isinstance(exc, Terminated) else 130


def exiting() -> None:
    """The command is done, the process on its way out: SIGINT and SIGTERM
    ignored (in the main thread). A Ctrl-C now could only break into the
    interpreter's exit (its atexit hooks join the pool's threads) and print
    a traceback after the command's last line."""
    if threading.current_thread() is threading.main_thread():
        for held in (signal.SIGINT, signal.SIGTERM):
            signal.signal(held, signal.SIG_IGN)


class OneMatchStop:
    """Ctrl-C and SIGTERM for the commands that play one match under
    asyncio.run (`play`, `bot check`, `bot add`'s validation).

    During the match, Ctrl-C and SIGTERM, through `run`, cancel the match's
    task (its cleanup stops the bots and drops an unfinished replay), once:
    a second one while that cleanup runs is only noted. asyncio.run's own
    Ctrl-C handler raised KeyboardInterrupt at the second, anywhere in the
    cleanup, and the bots' gRPC server, cut off in its shutdown, printed
    "Exception ignored in Server.__del__ ... Event loop is closed" and
    "coroutine 'AioServer.shutdown' was never awaited" (left at its
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
            # In place of asyncio.run's Ctrl-C handler: asyncio.run puts the
            # default back at its end only if its own is still there.
            for held in (signal.SIGINT, signal.SIGTERM):
                if signal.getsignal(held) is not signal.SIG_IGN:
                    signal.signal(held, self._handle)
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
