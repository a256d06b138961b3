"""Usage mistakes on the real command line (a value out of range or of the
wrong type, an unknown option, a missing argument) are one `error:` line and
exit status 2, as every other bad input, not a boxed block."""

from __future__ import annotations

import subprocess
import sys

import pytest
from clihelp import ARENA as CLI
from clihelp import cli_here

USAGE = [
    (["bot", "check", "sample_bots/greedy", "--deals", "0"],
     "arena bot check: Invalid value for '--deals'"),
    (["bot", "check", "sample_bots/greedy", "--deals", "many"],
     "arena bot check: Invalid value for '--deals'"),
    (["bot", "check", "sample_bots/greedy", "--seed", "-1"],  # as `arena play` refuses it
     "arena bot check: Invalid value for '--seed'"),
    # Beyond 64 bits a seed would deal the games of a smaller one (arena.game.rng).
    (["play", "a", "b", "c", "--seed", str(2**64)], "arena play: Invalid value for '--seed'"),
    (["bot", "check", "sample_bots/greedy", "--seed", str(2**64)],
     "arena bot check: Invalid value for '--seed'"),
    (["gauntlet", "sample_bots/greedy", "--against", "sample_bots/random", "--seed", str(2**64)],
     "arena gauntlet: Invalid value for '--seed'"),
    (["tournament", "run", "nowhere", "-j", "-1"], "arena tournament run: Invalid value for '--concurrency'"),
    (["play", "--nosuch"], "arena play: No such option: --nosuch"),
    (["play"], "arena play: Missing argument 'bots'"),
    (["nosuchcommand"], "No such command 'nosuchcommand'. (see --help)"),
    # A group's command typed without its group: named, not only refused.
    (["status", "tournaments/sample"],
     "No such command 'status'. Did you mean 'arena tournament status'?"),
    (["add", "t", "b"], "No such command 'add'. Did you mean 'arena bot add'?"),
    (["show"], "Did you mean 'arena leaderboard show' or 'arena replay show' or 'arena rules show'?"),
]


@pytest.mark.parametrize(("args", "message"), USAGE)
def test_usage_mistakes_are_one_line(args: list[str], message: str) -> None:
    # The first through the real command; the others in-process (cli_here:
    # the same main(), whose handler turns click's errors into one line).
    if args == USAGE[0][0]:
        done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60, check=False)
    else:
        done = cli_here(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_help_and_commands_keep_their_exit_status() -> None:
    assert subprocess.run([*CLI, "--help"], capture_output=True, timeout=60).returncode == 0
    done = cli_here("rules", "show", "klondike")
    assert done.returncode == 2 and "unknown rules preset" in done.stderr
    assert cli_here("rules", "list").returncode == 0


def test_a_dependency_missing_from_the_virtualenv_is_one_line() -> None:
    """After a `git pull` that added a dependency, without `make setup`: was
    a ModuleNotFoundError's traceback from the command's lazy import."""
    import sys

    from clihelp import ROOT

    code = ("import sys; sys.modules['numpy'] = None; from arena.cli import main; "
            "sys.argv = ['arena', 'leaderboard', 'show', 'tournaments/sample']; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: the Python package 'numpy' is not installed in "), done.stderr
    assert "make setup" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_removed_current_folder_is_one_line(tmp_path) -> None:
    """`arena serve` (any command reading a relative or default path) in a
    shell whose folder was removed: was a FileNotFoundError traceback."""
    gone = tmp_path / "gone"
    gone.mkdir()
    code = (f"import os, subprocess, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
            f"sys.exit(subprocess.run({[*CLI, 'serve']!r}).returncode)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("error: the current folder no longer exists (removed while this "
                           "shell was in it): cd to another one\n"), done.stderr
