"""Ctrl-C of `arena tournament run` in a real terminal (a pseudo-terminal:
the line discipline turns ^C into SIGINT for the foreground process group,
as a shell's terminal does). At every moment of a run — while it plans
(the store open, nothing printed yet), at the first output, as each pool
worker appears, while a worker is being started, with a match in play,
with matches finished, and twice in a row — the run stops with exit status
130, the output has no traceback and no "Exception ignored", only the one
last line, the matches finished before are still stored, and the next run
resumes and completes the tournament.

The moments are events seen from outside (the output, the processes in
/proc), not times: under load the command's start alone can take longer
than any fixed delay."""

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

import pytest
from clihelp import ROOT, cli

from arena.sandbox.freezer import process_tree
from arena.sandbox.process import live_processes

from .test_cli_bad_input import random_bot

pytestmark = [pytest.mark.slow, pytest.mark.serial]

ARENA = ROOT / ".venv" / "bin" / "arena"
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
        os.execv(str(ARENA), [str(ARENA), *args])
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
    status = cli("tournament", "status", folder)
    assert status.returncode == 0, status.stderr
    found = re.search(r"finished (\d+)", status.stdout)
    return int(found.group(1)) if found else 0


def tournament(tmp_path: Path) -> Path:
    if not ARENA.exists():
        pytest.skip(f"no {ARENA} (scripts/setup.sh makes it)")
    return random_tournament(tmp_path, "cc", sets=2, deals=3)


def random_tournament(tmp_path: Path, name: str, *, sets: int, deals: int) -> Path:
    """A folder `t` of three random bots at the process level, two matches at once."""
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    folder = tmp_path / "t"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "{name}"\nseed = 8123456789012345\nsandbox = "process"\nbootstrap = 5\n'
        f'concurrency = 2\nduplicate_sets = {sets}\nbots = [{listed}]\n[rules]\ntarget = 1000\n'
        f'max_deals = {deals}\n')
    return folder


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


def test_ctrl_c_is_clean_every_time(tmp_path: Path) -> None:
    folder = tournament(tmp_path)
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(SLOW_SPAWN)

    def worker_being_started(n: int) -> tuple[Moment, dict[str, str]]:
        # The sitecustomize writes the worker's pid, then waits 0.3 s before
        # handing it its preparation data: the ^C comes in that wait.
        slowed = tmp_path / f"slowed-{n}"
        env = {"PYTHONPATH": str(slow), "ARENA_TEST_SLOW_SPAWN": str(slowed)}
        return (lambda out, pid: slowed.exists() and bool(slowed.read_text().split())), env

    slowed_1, slow_env_1 = worker_being_started(1)
    slowed_2, slow_env_2 = worker_being_started(2)
    tournament_stops_cleanly(folder, [
        ("while the run plans", store_open(folder / "tournament.sqlite"), False, None),
        ("at the first output", lambda out, pid: bool(out), False, None),
        ("as the first worker appears", workers(1), False, None),
        ("as the second worker appears", workers(2), False, None),
        ("while a worker is being started", slowed_1, False, slow_env_1),
        ("while a worker is being started, again", slowed_2, False, slow_env_2),
        ("with a match in play", bot_running, False, None),
        ("with a match finished", finished(1), False, None),
        ("twice, while the run stops", workers(2), True, None),
        ("as the first worker appears, again", workers(1), False, None),
        ("with matches finished", finished(3), False, None),
    ])


def test_ctrl_c_of_a_dask_local_run_is_clean_every_time(tmp_path: Path) -> None:
    # Dask's LocalCluster: worker processes with a nanny each, a scheduler,
    # and each worker's match process; none of them may print on the way out.
    folder = tournament(tmp_path)
    tournament_stops_cleanly(folder, [
        ("at the first output", lambda out, pid: bool(out), False, None),
        ("as the Dask workers appear", workers(2), False, None),
        ("with a match in play", bot_running, False, None),
        ("with a match finished", finished(1), False, None),
        ("twice, with a match in play", bot_running, True, None),
    ], "--dask", "local")
