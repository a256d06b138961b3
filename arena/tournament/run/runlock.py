"""One `arena tournament run` per tournament folder at a time.

Two runs on one folder would each reset the other's running matches and
play them again: double the load (timeouts a busy machine then stores as
bot faults) and two matches writing one replay file. An exclusive
`flock` on a file in the folder, held for the whole run, refuses the
second run. The kernel drops the lock when the process dies, however it
dies, so a killed run never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.tournament.errors import TournamentError

LOCK_NAME = ".run.lock"


class RunLocked(TournamentError, RuntimeError):
    """Another run holds the folder, or its lock file cannot be opened."""


# `is_running` takes a shared lock for an instant: a run starting at that
# instant tries again for a little while before it reports another run.
_TRIES = 10
_PAUSE = 0.02


@contextmanager
def exclusive_run(folder: str | os.PathLike[str],
                  command: str = "arena tournament run", what: str = "tournament") -> Iterator[None]:
    """Hold the folder for one run; `command` and `what` name them in the
    refusal of a second (a gauntlet's folder is locked the same way)."""
    path = Path(folder) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:  # a folder of another user's, read-only, or the name taken
        raise RunLocked(f"{path}: cannot open the run lock: {exc.strerror or exc} (a run "
                        "writes into the tournament folder: it must be writable)") from None
    try:
        for attempt in range(_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt + 1 < _TRIES:
                    time.sleep(_PAUSE)
        else:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            raise RunLocked(f"{folder}: another `{command}` is playing this {what} (pid "
                            f"{holder}); wait for it, or stop it and run again") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def is_running(folder: str | os.PathLike[str]) -> bool:
    """True while an `arena tournament run` holds the folder (read-only probe)."""
    try:
        fd = os.open(Path(folder) / LOCK_NAME, os.O_RDONLY)
    except OSError:  # none yet, or not readable by this reader: no run it can see
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also releases the shared lock, if taken
    return False
