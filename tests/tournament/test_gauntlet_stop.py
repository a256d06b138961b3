"""Stopping `arena gauntlet` the way a user does: Ctrl-C in a real terminal
(a pseudo-terminal) at several moments, and SIGTERM to the process. Each
time: the one last line, its exit status, no traceback, the bots gone, the
finished matches kept, and the next run resumes without playing them again."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from clihelp import ARENA, ROOT

from .gauntlets import SHORT, gauntlet
from .terminal import (
    NOISE,
    assert_gone,
    below,
    bot_running,
    stops_cleanly,
    workers,
)

pytestmark = [pytest.mark.slow, pytest.mark.serial]

SET_DONE = re.compile(rb"(?m)^sets [1-9][0-9]* ")

SETS = 4  # a fixed-length gauntlet: it does not stop early on its own
GREEDY, RANDOM = ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random"


def args(folder: Path) -> list[str]:
    return ["gauntlet", str(GREEDY), "--against", str(RANDOM), "--dir", str(folder),
            "--max-sets", str(SETS), "--stop", "fixed", "--seed", "5", *map(str, SHORT)]


def finished(folder: Path) -> int:
    store = folder / "gauntlet.sqlite"
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
            return int(db.execute(
                "SELECT COUNT(*) FROM matches WHERE status='finished'").fetchone()[0])
    except sqlite3.OperationalError:  # being created: no table yet
        return 0


def resumes(folder: Path, kept: int) -> None:
    done = gauntlet(*args(folder)[1:], "--json")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["sets"] == SETS and verdict["matches"] == 3 * SETS
    assert verdict["played_now"] == 3 * SETS - kept  # the stored ones were not played again


def test_ctrl_c_of_a_gauntlet_is_clean_every_time(tmp_path: Path) -> None:
    if not Path(ARENA[0]).exists():
        pytest.skip(f"no {ARENA[0]} (scripts/setup.sh makes it)")
    folder = tmp_path / "g"
    kept = stops_cleanly(args(folder), [
        ("at the first output", lambda out, pid: bool(out), False, None),
        ("as the second worker appears", workers(2), False, None),
        ("with a match in play", bot_running, False, None),
        # Progress lines come as sets finish, two may land between lines
        # ("sets 0" then "sets 2": a CI run): any count from 1 on is a set done.
        ("with a set finished", lambda out, pid: SET_DONE.search(out) is not None, False, None),
        ("twice, with a match in play", bot_running, True, None),
    ], lambda line: line.startswith("sets "), lambda: finished(folder))
    assert kept >= 3  # the finished set is still stored
    resumes(folder, kept)


def test_sigterm_stops_a_gauntlet_as_ctrl_c_does(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    err = tmp_path / "err"
    # SIGINT ignored (inherited through exec), as for a background job:
    # SIGTERM is how such a run is stopped.
    sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with err.open("w") as stderr:
            proc = subprocess.Popen([*ARENA, *args(folder)], cwd=ROOT,
                                    stdout=subprocess.PIPE, stderr=stderr,
                                    start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, sigint)
    left: set[int] = set()
    try:
        end = time.monotonic() + 300
        while not (finished(folder) >= 2 and bot_running(b"", proc.pid)):
            assert proc.poll() is None and time.monotonic() < end, err.read_text()
            time.sleep(0.05)
        left = below(proc.pid)
        before = finished(folder)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=60) == 143
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert_gone(left)  # stopped, not orphaned: every process it had started
    text = err.read_text()
    assert not any(word in text for word in NOISE), text
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[-1] == "terminated: finished matches are stored; run again to resume", text
    assert all(line.startswith("sets ") for line in lines[:-1]), text
    kept = finished(folder)
    assert kept >= before
    with sqlite3.connect(folder / "gauntlet.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM matches WHERE status='running'").fetchone()[0] \
            <= 4  # left by the stop (the window of 2 x 2): played again
    resumes(folder, kept)
