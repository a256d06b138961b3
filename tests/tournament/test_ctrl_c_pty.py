"""Ctrl-C of `arena tournament run` in a real terminal (a pseudo-terminal:
the line discipline turns ^C into SIGINT for the foreground process group,
as a shell's terminal does). Repeated at different moments — while the
workers start, at the first output, with matches finished — the output has
no traceback and no "Exception ignored", only the one last line, and the
next run resumes and completes the tournament."""

from __future__ import annotations

import os
import pty
import select
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .test_cli_bad_input import ROOT, cli, random_bot

pytestmark = pytest.mark.slow

ARENA = ROOT / ".venv" / "bin" / "arena"
STOPPED = "interrupted: finished matches are stored; run again to resume"
NOISE = ("Traceback", "Exception ignored", "never awaited", "Error", "Exception in callback")


def in_terminal(folder: Path, interrupt_when: Callable[[bytes, float], bool]) -> tuple[int, str]:
    """Run the tournament on a pty; type ^C once `interrupt_when(output so
    far, seconds since start)` says so. Returns (exit status, all output)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: session leader with the pty as its terminal
        os.chdir(ROOT)
        os.execv(str(ARENA), [str(ARENA), "tournament", "run", str(folder)])
    out, sent, start = b"", False, time.monotonic()
    try:
        while True:
            if not sent and interrupt_when(out, time.monotonic() - start):
                os.write(fd, b"\x03")
                sent = True
            ready, _, _ = select.select([fd], [], [], 0.05)
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


def test_ctrl_c_is_clean_every_time(tmp_path: Path) -> None:
    if not ARENA.exists():
        pytest.skip(f"no {ARENA} (scripts/setup.sh makes it)")
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    folder = tmp_path / "t"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "cc"\nseed = 8123456789012345\nsandbox = "process"\nbootstrap = 5\n'
        f'concurrency = 2\nduplicate_sets = 2\nbots = [{listed}]\n[rules]\ntarget = 1000\n'
        'max_deals = 3\n')
    moments: list[tuple[str, Callable[[bytes, float], bool]]] = [
        ("while the workers start", lambda out, t: t > 0.3),
        ("at the first output", lambda out, t: bool(out)),
        ("with a match finished", lambda out, t: b" 1/12 " in out or b" 2/12 " in out),
        ("while the workers start, again", lambda out, t: t > 0.8),
        ("at the first output, again", lambda out, t: bool(out)),
    ]
    for what, when in moments:
        code, out = in_terminal(folder, when)
        assert code == 130, (what, out)
        assert not any(word in out for word in NOISE), (what, out)
        lines = [line.strip() for line in out.replace("^C", "").splitlines() if line.strip()]
        if lines:  # else stopped before the run began: nothing but the echoed ^C
            assert lines[-1] == STOPPED, (what, out)
            assert all(line == STOPPED or "matches" in line for line in lines), (what, out)
    done = cli("tournament", "run", folder)
    assert done.returncode == 0, done.stderr
    assert "12/12 matches finished" in done.stdout
    assert "finished 12 (of 12" in cli("tournament", "status", folder).stdout
