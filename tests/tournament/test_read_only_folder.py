"""A finished tournament's folder made read-only (archived, another user's,
a read-only mount) can still be read through the real CLI: status, the
rating table, a publication elsewhere and the web app's store. What must
write says so in one line, before any match is played, and nothing stored
changes. ("not a usable tournament store: unable to open database file"
was all a reader got: SQLite's WAL mode wants a -shm file beside the store.)

The folder is made read-only for real: `chmod -R a-w` for a user, and for
root (whom file modes do not stop) a read-only bind mount of it in a mount
namespace of the command's own (`unshare -m`).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from clihelp import ROOT, argv, cli, cli_ok, refused

from .folders import random_bot, write

_MOUNT_RO = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'


def _root_can_mount_read_only(tmp: Path) -> bool:
    probe = tmp / "probe"
    probe.mkdir(exist_ok=True)
    try:
        done = subprocess.run(["unshare", "-m", "sh", "-c", _MOUNT_RO, "sh", str(probe),
                               "sh", "-c", f"! touch {probe}/x"],
                              capture_output=True, timeout=30, check=False)
    except FileNotFoundError:
        return False
    return done.returncode == 0 and not (probe / "x").exists()


class ReadOnly:
    """Runs `arena` commands that see `folder` read-only."""

    def __init__(self, folder: Path, tmp: Path) -> None:
        self.folder = folder
        self.as_root = os.geteuid() == 0
        if self.as_root and not _root_can_mount_read_only(tmp):
            pytest.skip("root here cannot make a read-only bind mount (unshare -m, mount)")

    def cli(self, *args: object) -> subprocess.CompletedProcess[str]:
        if not self.as_root:
            return cli(*args)
        return subprocess.run(["unshare", "-m", "sh", "-c", _MOUNT_RO, "sh", str(self.folder),
                               *argv(*args)], capture_output=True, text=True, cwd=ROOT,
                              timeout=600, check=False)

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", code]
        if self.as_root:
            command = ["unshare", "-m", "sh", "-c", _MOUNT_RO, "sh", str(self.folder), *command]
        return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120,
                              check=False)


@contextmanager
def read_only(folder: Path, tmp: Path) -> Iterator[ReadOnly]:
    view = ReadOnly(folder, tmp)
    if view.as_root:
        yield view
        return
    subprocess.run(["chmod", "-R", "a-w", str(folder)], check=True)
    try:
        yield view
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(folder)], check=True)


def _dump(folder: Path) -> list[str]:
    # closing(): a sqlite3 connection's own `with` commits but stays open.
    with closing(sqlite3.connect(f"{(folder / 'tournament.sqlite').as_uri()}?mode=ro",
                                 uri=True)) as db:
        return list(db.iterdump())


@pytest.mark.slow
def test_a_read_only_tournament_is_read_and_refuses_writes_in_one_line(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    folder = tmp_path / "t"
    write(folder, bots, seed=11)  # tournament "cli": 6 one-deal matches, no replays
    cli_ok("tournament", "run", folder, "--quiet")
    unmarked = tmp_path / "unmarked"  # finished, its seed not published yet
    shutil.copytree(folder, unmarked)
    cli_ok("leaderboard", "publish", folder, "--out", tmp_path / "first", "--no-site")
    # Closed last by a writer (status opens the store for writing), SQLite
    # removes the -wal and -shm files: the folder as a finished run leaves it
    # most often, and the case a WAL reader in a read-only folder cannot open.
    before = _dump(folder), _dump(unmarked)  # (a reader: it leaves the -shm file)
    for done in (folder, unmarked):
        cli_ok("tournament", "status", done)
        assert not (done / "tournament.sqlite-shm").exists()
    newcomer = random_bot(tmp_path, "rd")

    with read_only(folder, tmp_path) as view:
        status = view.cli("tournament", "status", folder)
        assert status.returncode == 0, status.stderr
        assert "cli: finished 6 (of 6 for the current bots)" in status.stdout
        show = view.cli("leaderboard", "show", folder)
        assert show.returncode == 0, show.stderr
        assert "| ra |" in show.stdout and "Seed 11," in show.stdout
        out = tmp_path / "again"
        published = view.cli("leaderboard", "publish", folder, "--out", out)
        assert published.returncode == 0, published.stderr
        assert (out / "leaderboard.md").read_text() == (tmp_path / "first" / "leaderboard.md").read_text()
        assert (out / "site" / "index.html").is_file()
        # The web app's reader (arena serve) opens the same store read-only.
        served = view.python(
            "from arena.tournament.store import Store\n"
            f"with Store({str(folder / 'tournament.sqlite')!r}, readonly=True) as s:\n"
            "    print(sum(s.counts().values()))\n")
        assert served.returncode == 0 and served.stdout.strip() == "6", served.stderr
        # Writers: one line each, nothing played.
        refused(view.cli("tournament", "run", folder), "cannot open the run lock")

    with read_only(unmarked, tmp_path) as view:
        # Publishing the seed must record it (bots added later get other deals):
        # a store that cannot record it publishes nothing.
        out = tmp_path / "nothing"
        refused(view.cli("leaderboard", "publish", unmarked, "--out", out),
                "the tournament store is read-only")
        assert not (out / "leaderboard.md").exists()
        refused(view.cli("bot", "add", unmarked, newcomer),
                f"{unmarked}: not writable here (read-only)")

    assert (_dump(folder), _dump(unmarked)) == before
    assert not (unmarked / "bots" / "rd").exists()
