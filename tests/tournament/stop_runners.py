"""Match runners for tests/tournament/test_worker_stop.py: each stands for
a match in a local pool worker (a child process as its bot, so that the
worker's stop interrupts it, as it does a real match) and puts the stop's
KeyboardInterrupt where the test wants it. Module-level: the pool pickles a
runner by reference. `spec.work_dir` is the folder the runner and the test
talk through."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from arena.referee.spec import MatchResult, MatchSpec


def _bot() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "60"])


def _stack(thread: int) -> list[str]:
    frame = sys._current_frames().get(thread)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return names


def _waiting_for_a_task(names: list[str]) -> bool:
    """The worker's main thread is in the pool's own loop, waiting for the
    next task (after it sent the last one's end back)."""
    return ("_process_worker" in names and "get" in names and "_sendback_result" not in names
            and not any(n.startswith("stop_runner_") for n in names))


def stop_runner_interrupt_between_tasks(spec: MatchSpec) -> MatchResult:
    """The match stops on the stop's KeyboardInterrupt, as a real match does;
    then a KeyboardInterrupt comes once the worker is back in the pool's own
    loop (where a stop's interrupt lands when the match ended just before
    it): multiprocessing prints what escapes there, with a traceback.

    The bot lives until the worker's main thread has done with that (it
    is in threading._shutdown, which waits for this non-daemon thread):
    until then the worker's stop (executors._leave) waits for it, instead
    of ending the worker before the traceback could be printed."""
    work = Path(spec.work_dir)
    bot = _bot()
    main = threading.get_ident()
    (work / "ready").write_text("")
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass

    def interrupt_outside() -> None:
        while not _waiting_for_a_task(_stack(main)):
            time.sleep(0.01)
        (work / "outside").write_text("")
        signal.pthread_kill(main, signal.SIGINT)
        while main in sys._current_frames() and "_shutdown" not in _stack(main):
            time.sleep(0.01)
        bot.kill()
        bot.wait()

    threading.Thread(target=interrupt_outside).start()
    raise KeyboardInterrupt  # as the referee's asyncio.run does


def stop_runner_count_interrupts(spec: MatchSpec) -> MatchResult:
    """Counts the KeyboardInterrupts that reach the match while it is torn
    down: one stop is one interrupt, however many SIGTERMs came."""
    work = Path(spec.work_dir)
    bot = _bot()
    (work / "ready").write_text("")
    interrupts = 0
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        interrupts += 1
        (work / "interrupted").write_text("")
    # The teardown: until the test has sent all its signals, and a second after.
    end = None
    while end is None or time.monotonic() < end:
        try:
            if end is None and (work / "sent").exists():
                end = time.monotonic() + 1.0
            time.sleep(0.05)
        except KeyboardInterrupt:
            interrupts += 1
    (work / "interrupts").write_text(str(interrupts))
    bot.kill()
    bot.wait()
    raise KeyboardInterrupt
