"""A Ctrl-C that lands anywhere in `arena tournament run`'s main thread
ends it the same way: the one last line, exit status 130, no traceback,
the finished matches stored, and the next run completes the tournament.

The interrupt is put at chosen points, deterministically: a sitecustomize
in the command's process wraps a function there and raises SIGINT inside
it (signal.raise_signal: Python's handler runs in the main thread at once,
as for a Ctrl-C typed at that instant). The pty tests (test_ctrl_c_pty.py)
find the moments from outside; these are the instants between them that a
typed Ctrl-C hits only once in many runs."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from clihelp import argv, cli, cli_here

from .folders import random_tournament
from .terminal import NOISE, STOPPED

pytestmark = [pytest.mark.slow, pytest.mark.serial]

PLANNED = 6  # one duplicate set of a 3-bot field

# ARENA_TEST_INTERRUPT names the point; the file ARENA_TEST_REACHED is
# written when the SIGINT is raised there (the test checks it was).
INTERRUPT = '''
import atexit, json.decoder, os, signal, typer
from pathlib import Path

# Taken out of the environment: for the command's process only, not its pool workers.
point, reached = os.environ.pop("ARENA_TEST_INTERRUPT", ""), Path(os.environ["ARENA_TEST_REACHED"])


def interrupt():
    reached.write_text(point)
    signal.raise_signal(signal.SIGINT)


from arena.tournament import store as _store
from arena.tournament.executors import local as _executors

_finish = _store.Store.finish
recorded = []


def finish(self, result):
    recorded.append(result.match_id)
    if len(recorded) == 2 and point == "decode":
        armed.append(1)  # the SIGINT inside the JSON decoding of this store write
    if len(recorded) == 2 and point == "finalizer":
        class Lost:  # raised in a finalizer, Python reports the exception and drops it
            def __del__(self):
                interrupt()
        Lost()
    return _finish(self, result)


_store.Store.finish = finish
armed = []
_decode = json.decoder.JSONDecoder.decode


def decode(self, s, *args, **kwargs):
    if armed:
        armed.clear()
        interrupt()
    return _decode(self, s, *args, **kwargs)


json.decoder.JSONDecoder.decode = decode
_close = _executors.LocalPool.close


def close(self):
    if point == "close":  # as the run ends: in the pool's shutdown
        interrupt()
    _close(self)


_executors.LocalPool.close = close
_echo = typer.echo


def echo(message=None, *args, **kwargs):
    if point == "summary" and "matches finished" in str(message):
        interrupt()  # in the middle of the summary
    return _echo(message, *args, **kwargs)


typer.echo = echo
if point == "exit":
    atexit.register(interrupt)  # registered first: run last, in the interpreter's exit
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = random_tournament(tmp_path, "ia", sets=1, deals=2)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(INTERRUPT)
    return folder


def interrupted_at(folder: Path, point: str) -> subprocess.CompletedProcess[str]:
    site, reached = folder.parent / "site", folder.parent / "reached"
    reached.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(site), ARENA_TEST_INTERRUPT=point,
               ARENA_TEST_REACHED=str(reached))
    done = subprocess.run(
        argv("tournament", "run", folder), capture_output=True, text=True, env=env,
        timeout=300, check=False,
        # As a terminal's foreground command: SIGINT at its default (a test run
        # in the background has it ignored, and the run would rightly ignore it).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert reached.exists() and reached.read_text() == point, done.stderr  # it was raised there
    assert not any(word in done.stdout + done.stderr for word in NOISE), done.stdout + done.stderr
    return done


def finished(folder: Path) -> int:
    # In-process (cli_here): these tests are serial, a second each counts.
    found = re.search(r"finished (\d+)", cli_here("tournament", "status", folder).stdout)
    return int(found.group(1)) if found else 0


def stopped_cleanly(done: subprocess.CompletedProcess[str]) -> None:
    shown = f"exit status {done.returncode}, stderr:\n{done.stderr}"
    assert done.returncode == 130, shown
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    assert lines and lines[-1] == STOPPED, shown
    assert lines.count(STOPPED) == 1, shown


def resumes(folder: Path, kept: int) -> None:
    done = cli("tournament", "run", folder)
    assert done.returncode == 0, done.stderr
    assert f"{PLANNED}/{PLANNED} matches finished ({PLANNED - kept} played now" in done.stdout


@pytest.mark.parametrize("point", ["decode", "finalizer"])
def test_interrupted_while_a_result_is_stored(folder: Path, point: str) -> None:
    # decode: inside the JSON decoding of a store write (CI's frame: a
    # KeyboardInterrupt in "<frozen codecs>", line 319, in decode).
    # finalizer: raised in a __del__, where Python drops it: the run still stops.
    done = interrupted_at(folder, point)
    stopped_cleanly(done)
    kept = finished(folder)
    assert 1 <= kept < PLANNED  # the first result is stored; the one being stored may be
    resumes(folder, kept)


def test_interrupted_in_the_pools_shutdown(folder: Path) -> None:
    done = interrupted_at(folder, "close")
    stopped_cleanly(done)
    assert finished(folder) == PLANNED  # every match had been played and stored


def test_interrupted_while_the_summary_is_printed(folder: Path) -> None:
    done = interrupted_at(folder, "summary")
    stopped_cleanly(done)
    assert f"{PLANNED}/{PLANNED} matches finished" in done.stdout  # printed whole, before the line
    assert finished(folder) == PLANNED


def test_interrupted_in_the_interpreters_exit(folder: Path) -> None:
    # The command is done: the Ctrl-C is ignored, its exit status stands.
    done = interrupted_at(folder, "exit")
    assert done.returncode == 0, done.stderr
    assert f"{PLANNED}/{PLANNED} matches finished" in done.stdout
    assert STOPPED not in done.stderr
