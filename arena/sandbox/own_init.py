"""Each container's init process from a file of its own.

Docker's `--init` bind-mounts the engine's init binary (tini, as
`/sbin/docker-init`) from the host into every container: one file, the
same inode in each. A lock on a file needs no write access (flock, or a
fcntl read lock on a byte range, which another process sees by asking
F_GETLK), so two bots at one table could pass bits through the locks on
that file, each in its own container, while the referee shows them nothing
of each other (measured: one bot read the three byte ranges the other had
locked). So the arena starts each container's init from a copy of that
binary made for the container, removed with it: a file no other container
has. Where the engine's init binary cannot be found on this machine (an
engine elsewhere), docker's own `--init` is used, and that channel stays.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

INIT_PATH = "/sbin/arena-init"  # where the copy is mounted in the container
# What the engine names its init binary (docker's `init-path` default), and tini's
# static build, which Debian's docker-init is.
_NAMES = ("docker-init", "tini-static")
_DIRS = ("/usr/libexec/docker", "/usr/local/libexec/docker")
PREFIX = "arena-init-"  # then the pid of the arena process that made it


def remove_stale(alive: Callable[[int], bool]) -> int:
    """Remove the copies that arena processes now gone left (a crash, a
    SIGKILL); `alive(pid)` says whether that process still runs."""
    removed = 0
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*-*"):
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


@functools.cache
def host_init() -> str | None:
    """The engine's (static) init binary on this machine, or None."""
    for name in _NAMES:
        found = shutil.which(name) or next(
            (os.path.join(d, name) for d in _DIRS if os.path.isfile(os.path.join(d, name))), None)
        if found:
            return os.path.realpath(found)
    return None


class OwnInit:
    """A copy of the init binary for one container (`path`, None if there is
    no binary to copy), and the create() arguments that run the bot under it."""

    def __init__(self) -> None:
        self.folder: str | None = None
        self.path: str | None = None
        source = host_init()
        if source is None:
            return
        self.folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
        os.chmod(self.folder, 0o755)
        self.path = os.path.join(self.folder, "init")
        shutil.copyfile(source, self.path)
        os.chmod(self.path, 0o755)

    def create_args(self, command: list[str], image_config: dict[str, Any]) -> dict[str, Any]:
        """`init`, `entrypoint` and `command` for containers.create: the image's
        own entry point and command (or the bot's `run`) under the copy."""
        if self.path is None:
            return {"init": True, "command": command or None}
        entry = list(image_config.get("Entrypoint") or [])
        # A new entry point drops the image's CMD: name it again.
        cmd = command or list(image_config.get("Cmd") or [])
        return {"init": False, "entrypoint": [INIT_PATH, "--", *entry], "command": cmd}

    def mount(self) -> dict[str, dict[str, str]]:
        return {} if self.path is None else {self.path: {"bind": INIT_PATH, "mode": "ro"}}

    def remove(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = self.path = None
