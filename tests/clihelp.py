"""The `arena` command run as a user runs it, for every test that drives the
real CLI in a child process (one copy of how, instead of one per test file).

Import it as `from clihelp import cli` (pytest puts `tests/` on the path,
as for `tournament.tournament_fakes`).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The console script `pip install -e .` puts beside this interpreter (what a
# user types); where the package is importable but not installed as a script,
# the same entry point through this interpreter.
_SCRIPT = Path(sys.executable).with_name("arena")
ARENA: list[str] = ([str(_SCRIPT)] if _SCRIPT.exists()
                    else [sys.executable, "-c", "from arena.cli import main; main()"])


def argv(*args: object) -> list[str]:
    """The command line `arena ARGS...` (arguments as strings: paths welcome)."""
    return [*ARENA, *map(str, args)]


def cli(*args: object, cwd: Path | str | None = ROOT, timeout: float = 600,
        env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run `arena ARGS...` to its end; the exit status is the caller's to check."""
    return subprocess.run(argv(*args), capture_output=True, text=True, cwd=cwd, check=False,
                          timeout=timeout, env=env)


def cli_ok(*args: object, cwd: Path | str | None = ROOT, timeout: float = 600,
           env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`cli`, asserting exit status 0 (the failure shows what the command said)."""
    done = cli(*args, cwd=cwd, timeout=timeout, env=env)
    assert done.returncode == 0, (done.args, done.stderr[-3000:] + done.stdout[-3000:])
    return done


def cli_here(*args: object, cwd: Path | str = ROOT) -> subprocess.CompletedProcess[str]:
    """`cli` in this process: `arena.cli.main` (what the console script
    calls) with ARGS as its command line and its output captured, for the
    bad-input checks where the process is not the point (each command
    keeps one end-to-end check through `cli`). Half a second less a call:
    no interpreter to start, no package to import. The signal handlers the
    command sets on its way out are put back."""
    from arena.cli import main

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    argv_was, cwd_was = sys.argv, os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    sys.argv = argv(*args)
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code
                if isinstance(code, str):  # what the interpreter would print
                    err.write(code + "\n")
    finally:
        sys.argv = argv_was
        os.chdir(cwd_was)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    status = code if isinstance(code, int) else (0 if code is None else 1)
    return subprocess.CompletedProcess(argv(*args), status, out.getvalue(), err.getvalue())


def start(*args: object, cwd: Path | str | None = ROOT, **popen: Any) -> subprocess.Popen[Any]:
    """Start `arena ARGS...` in the background; `popen` goes to subprocess.Popen."""
    return subprocess.Popen(argv(*args), cwd=cwd, **popen)


def refused(proc: subprocess.CompletedProcess[str], fragment: str) -> None:
    """Bad input: exit status 2 and one line on stderr naming what is wrong, no traceback."""
    assert proc.returncode == 2, proc.stderr + proc.stdout
    assert fragment in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr, proc.stderr
