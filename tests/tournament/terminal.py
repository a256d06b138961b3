"""A command run in a real terminal (a pty) and interrupted at a chosen
moment, as a person at a keyboard would: the moments (the store open, the
workers started, a bot running, N matches finished), the check that
nothing of the run is left behind, and that its output has no noise.
Shared by the Ctrl-C, SIGTERM and interrupt tests."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import termios
import time
from collections.abc import Callable
from pathlib import Path

from clihelp import ARENA, ROOT, cli, cli_here

from arena.sandbox.freezer import process_tree
from arena.sandbox.process import live_processes

STOPPED = "interrupted: finished matches are stored; run again to resume"
NOISE = ("Traceback", "Exception ignored", "never awaited", "Error", "Exception in callback")


# Where the run is, as the test sees it: its output so far, its pid.
Moment = Callable[[bytes, int], bool]


# A sitecustomize that makes the coordinator wait 0.3 s between starting a
# pool worker and handing it its preparation data: a ^C typed while a
# worker is being started lands in that gap every time (unslowed it lasts
# about a millisecond; a KeyboardInterrupt raised there left the worker
# reading a closed pipe, and it printed `EOFError: Ran out of input`).
SLOW_SPAWN = '''
import os, time
import multiprocessing.util as util

_spawn = util.spawnv_passfds


def _slow(path, args, passfds):
    pid = _spawn(path, args, passfds)
    text = " ".join(a.decode() if isinstance(a, bytes) else str(a) for a in args)
    if "spawn_main" in text and os.environ.get("ARENA_TEST_SLOW_SPAWN"):
        open(os.environ["ARENA_TEST_SLOW_SPAWN"], "a").write(f"{pid}\\n")
        time.sleep(0.3)
    return pid


util.spawnv_passfds = _slow
'''


def in_terminal(args: list[str], interrupt_when: Moment, again: bool = False,
                env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run `arena ARGS` on a pty; type ^C once `interrupt_when(output so
    far, pid)` says so (and, with `again`, once more 0.2 s later, while the
    run stops). Returns (exit status, all output)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: session leader with the pty as its terminal
        os.chdir(ROOT)
        os.environ.update(env or {})
        # As a terminal's shell starts its foreground command: SIGINT at its
        # default. A test run started in the background (`make test &`, a
        # CI runner) has SIGINT ignored, and an ignored SIGINT is inherited
        # through exec: the run would then rightly ignore ^C, as every
        # program does (Python installs no KeyboardInterrupt handler), and
        # play to the end. That is how this test once failed in CI.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        # A typed ^C makes the terminal discard the output not yet read
        # (unless NOFLSH): a line printed just before it lost its newline
        # there ("...lobby^Cinterrupted: ..."), a test's race, not the
        # command's (CI once). The output is what these tests read: keep it.
        attrs = termios.tcgetattr(0)
        attrs[3] |= termios.NOFLSH
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        os.execv(ARENA[0], [*ARENA, *args])
    out, sent, start = b"", 0.0, time.monotonic()
    try:
        while True:
            if not sent and interrupt_when(out, pid):
                os.write(fd, b"\x03")
                sent = time.monotonic()
            elif again and sent and time.monotonic() - sent > 0.2:
                os.write(fd, b"\x03")
                again = False
            assert time.monotonic() - start < 120, out.decode(errors="replace")
            ready, _, _ = select.select([fd], [], [], 0.05 if sent else 0.002)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # EIO: every writer of the terminal has exited
                    break
                if not data:
                    break
                out += data
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
    assert sent, out.decode(errors="replace")
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def _children(pid: int) -> list[int]:
    return [p for p, ppid, _ in live_processes() if ppid == pid]


def _workers(pid: int) -> list[int]:
    """The run's pool workers (not its resource tracker)."""
    out = []
    for child in _children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            out.append(child)
    return out


def store_open(store: Path) -> Moment:
    def moment(out: bytes, pid: int) -> bool:
        try:
            return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(store)
                       for fd in os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            return False
    return moment


def workers(n: int) -> Moment:
    return lambda out, pid: len(_workers(pid)) >= n


def bot_running(out: bytes, pid: int) -> bool:
    """A bot process (`python3 bot.py`) below the run: a match is in play."""
    below, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        below += kids
        todo += kids
    for child in below:
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if b"bot.py" in f.read():
                    return True
        except OSError:
            continue
    return False


def finished(n: int) -> Moment:
    def moment(out: bytes, pid: int) -> bool:
        done = re.findall(rb" (\d+)/12 matches", out)
        return bool(done) and int(done[-1]) >= n
    return moment


def stored_finished(folder: Path) -> int:
    """The finished count `arena tournament status` shows. In-process
    (cli_here): read after each of a test's many interrupted runs, where a
    process of its own cost a second or more; the tests' last status is
    the real command's."""
    status = cli_here("tournament", "status", folder)
    assert status.returncode == 0, status.stderr
    found = re.search(r"finished (\d+)", status.stdout)
    return int(found.group(1)) if found else 0


def below(pid: int) -> set[int]:
    """Every process below `pid` (the sandbox's own /proc walk)."""
    return set(process_tree(pid)) - {pid}


def assert_gone(left: set[int]) -> None:
    """Stopped, not orphaned: every process in `left` exits within 20 s."""
    end = time.monotonic() + 20
    while left & {p for p, _, _ in live_processes()} and time.monotonic() < end:
        time.sleep(0.1)
    assert not left & {p for p, _, _ in live_processes()}, left


Moments = list[tuple[str, Moment, bool, dict[str, str] | None]]


def stops_cleanly(args: list[str], moments: Moments, progress: Callable[[str], bool],
                  finished_now: Callable[[], int]) -> int:
    """Each moment: exit 130, the last line STOPPED and before it only
    progress lines, no noise, nothing finished lost. Returns how many
    matches are stored finished at the end."""
    kept = 0
    for what, when, twice, env in moments:
        code, out = in_terminal(args, when, twice, env)
        # A string, whole: pytest shortens any other message to 240
        # characters, and cut the one frame that told where (CI).
        shown = f"{what}: exit status {code}, output:\n{out}"
        assert code == 130, shown
        assert not any(word in out for word in NOISE), shown
        lines = [line.strip() for line in out.replace("^C", "").splitlines() if line.strip()]
        assert lines and lines[-1] == STOPPED, shown
        assert all(line == STOPPED or progress(line) for line in lines), shown
        now = finished_now()
        assert now >= kept, (what, now, kept)  # nothing finished is ever lost
        kept = now
    return kept


def tournament_stops_cleanly(folder: Path, moments: Moments, *options: str) -> None:
    """stops_cleanly, then a run completes the tournament without playing
    a stored match again."""
    def finished_now() -> int:
        return stored_finished(folder) if (folder / "tournament.sqlite").exists() else 0

    kept = stops_cleanly(["tournament", "run", str(folder), *options], moments,
                         lambda line: "matches" in line, finished_now)
    done = cli("tournament", "run", folder, *options)
    assert done.returncode == 0, done.stderr
    assert "12/12 matches finished" in done.stdout
    assert f"({12 - kept} played now" in done.stdout  # the stored ones were not played again
    assert "finished 12 (of 12" in cli("tournament", "status", folder).stdout
