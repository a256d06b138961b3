"""The signal handling of a run, in-process: the hold that pool workers
and threads are started in (executors._sigint_held) and the handlers of
the commands that play many matches (arena.cli.stopping)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator

import pytest
import typer

from arena.cli import stopping
from arena.cli.stopping import RunStop, StopSignals, Terminated
from arena.tournament.executors.local import _sigint_held


@pytest.fixture
def handlers() -> Iterator[None]:
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    yield
    for s, h in saved.items():
        signal.signal(s, h)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def test_a_ctrl_c_during_the_hold_is_raised_when_it_ends_not_inside(handlers: None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    done = []
    with pytest.raises(KeyboardInterrupt), _sigint_held():
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        signal.raise_signal(signal.SIGINT)  # to this thread: blocked, so pending
        done.append("the rest of the hold")
    assert done == ["the rest of the hold"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_taken_by_another_thread_is_deferred_too(handlers: None) -> None:
    # The kernel gives a process's SIGINT to a thread that does not block it;
    # Python then runs the handler in the main thread at any instruction.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    done = []
    go = threading.Event()

    def take_it() -> None:
        go.wait()
        signal.raise_signal(signal.SIGINT)  # this thread does not block SIGINT

    other = threading.Thread(target=take_it)
    other.start()  # before the hold: with the mask of a thread started outside one
    with pytest.raises(KeyboardInterrupt), _sigint_held():
        go.set()
        other.join()
        for _ in range(10_000):  # many instructions: the handler could run at any
            done.append(1)
    assert len(done) == 10_000


def test_a_sigterm_handler_is_deferred_to_the_end_of_the_hold(handlers: None) -> None:
    came: list[str] = []

    def on_term(signum: int, frame: object) -> None:
        came.append("handler")
        raise Terminated

    signal.signal(signal.SIGTERM, on_term)
    with pytest.raises(Terminated), _sigint_held():
        signal.raise_signal(signal.SIGTERM)  # not blocked: its note-taker runs now
        came.append("after the signal, in the hold")
    assert came == ["after the signal, in the hold", "handler"]
    assert signal.getsignal(signal.SIGTERM) is on_term


def test_nothing_raised_without_a_signal_and_holds_nest(handlers: None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with pytest.raises(KeyboardInterrupt), _sigint_held():
        with _sigint_held():
            signal.raise_signal(signal.SIGINT)
        # The inner hold hands it to the outer one, still holding.
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with _sigint_held():
        pass  # no signal: no exception


def test_an_ignored_sigint_stays_ignored(handlers: None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with _sigint_held():
        signal.raise_signal(signal.SIGINT)
    with StopSignals():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.raise_signal(signal.SIGINT)  # nothing happens


def test_the_first_signal_stops_once_then_both_are_ignored(handlers: None) -> None:
    stops: list[str] = []
    signals = StopSignals(lambda: stops.append("stop"))
    with pytest.raises(Terminated), signals:
        signal.raise_signal(signal.SIGTERM)
    assert stops == ["stop"] and signals.words() == ("terminated", 143)
    # On its way out: a second Ctrl-C or SIGTERM changes nothing.
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    with pytest.raises(KeyboardInterrupt):
        signals.check()  # a stop whose exception a finalizer swallowed


def test_ctrl_c_words_and_handlers_restored_when_not_stopped(handlers: None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signals = StopSignals()
    with pytest.raises(KeyboardInterrupt), signals:
        signal.raise_signal(signal.SIGINT)
    assert signals.words() == ("interrupted", 130)
    quiet = StopSignals()
    with quiet:
        quiet.check()  # not stopped: nothing raised
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # as the first one left it


class _Executor:
    """Stands for a pool: records that it was told to stop its workers."""

    def __init__(self, told: list[str]) -> None:
        self._told = told

    def terminate_workers(self) -> None:
        self._told.append("stop")


@pytest.fixture
def run_stop(handlers: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # RunStop and last_words set process-wide state: put it back after.
    monkeypatch.setattr(stopping, "_RUN", None)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)


def test_a_run_stop_stops_every_executor_it_made(run_stop: None) -> None:
    told: list[str] = []
    stop = RunStop(lambda: _Executor(told))  # type: ignore[arg-type, return-value]
    with pytest.raises(Terminated), stop:
        stop.executor()
        stop.executor()  # a second pool (the gauntlet's rounds, a replaced one)
        signal.raise_signal(signal.SIGTERM)
    assert told == ["stop", "stop"] and stop.words() == ("terminated", 143)


def test_a_signal_after_the_run_is_said_once_the_summary_is_printed(
        run_stop: None, capsys: pytest.CaptureFixture[str]) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    told: list[str] = []
    stop = RunStop(lambda: _Executor(told))  # type: ignore[arg-type, return-value]
    with stop:
        stop.executor()
    signal.raise_signal(signal.SIGINT)  # while the summary is printed: noted, not raised
    assert stop.stopped and told == []  # the run is over: no worker left to stop
    with pytest.raises(typer.Exit) as stopped:
        stop.finish()
    assert stopped.value.exit_code == 130
    assert capsys.readouterr().err.strip() == f"interrupted: {stopping.RUN_STOPPED}"
    # Escaping the command all the same, the interrupt is not said twice.
    assert stopping.last_words(KeyboardInterrupt()) == 130
    assert capsys.readouterr().err == ""


def test_a_run_stop_without_a_signal_leaves_the_handlers_it_found(run_stop: None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    stop = RunStop(lambda: _Executor([]))  # type: ignore[arg-type, return-value]
    with stop:
        pass
    stop.finish()  # no signal: nothing raised
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_last_words_of_an_interrupt_that_escaped_a_command(
        run_stop: None, capsys: pytest.CaptureFixture[str]) -> None:
    # No run started: the exit status only (click's Abort carries the interrupt).
    abort = typer.Abort()
    abort.__cause__ = Terminated()
    assert stopping.last_words(abort) == 143
    assert capsys.readouterr().err == ""
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # on its way out
    # A run's: its one line, with the signal that escaped.
    stop = RunStop(lambda: _Executor([]))  # type: ignore[arg-type, return-value]
    with stop:
        pass
    assert stopping.last_words(Terminated()) == 143
    assert capsys.readouterr().err.strip() == f"terminated: {stopping.RUN_STOPPED}"
