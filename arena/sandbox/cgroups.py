"""Best-effort cgroup limits for the process and bwrap levels.

rlimits are per process: a bot that forks can multiply its memory by its
process count, and RLIMIT_NPROC does not bind root. Where the machine lets
us create cgroups (root, a writable cgroup v1 `pids`/`memory` hierarchy, or
a cgroup v2 tree with those controllers delegated) every bot gets its own
group with `pids.max` and a memory limit, joined between fork and exec; the
group's member list also finds every process of the bot at stop time.
Where it is not possible the levels fall back to rlimits and a watchdog.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.api import Limits

ROOT = Path("/sys/fs/cgroup")
_MB = 1024 * 1024


def _own_paths() -> dict[str, str]:
    """controller -> this process's cgroup path ("" key for cgroup v2)."""
    paths: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return paths
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for ctrl in parts[1].split(",") if parts[1] else [""]:
            paths[ctrl] = parts[2]
    return paths


@dataclass
class Cgroup:
    """One bot's group, in one (v2) or two (v1: pids, memory) hierarchies."""

    dirs: tuple[Path, ...]
    version: int

    @property
    def procs_files(self) -> tuple[str, ...]:
        return tuple(str(d / "cgroup.procs") for d in self.dirs)

    def pids(self) -> set[int]:
        found: set[int] = set()
        for d in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(x) for x in (d / "cgroup.procs").read_text().split())
        return found

    def kill_all(self) -> None:
        for _ in range(20):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def events(self) -> list[str]:
        """Limits the kernel enforced on this group, human readable."""
        notes: list[str] = []
        for d in self.dirs:
            for name, key, what in (("pids.events", "max", "fork refused at the pids limit"),
                                    ("memory.events", "oom_kill", "killed at the memory limit")):
                try:
                    for line in (d / name).read_text().splitlines():
                        k, _, v = line.partition(" ")
                        if k == key and int(v) > 0:
                            notes.append(f"{what} ({v}x)")
                except (OSError, ValueError):
                    pass
            try:
                if int((d / "memory.failcnt").read_text()) > 0:
                    notes.append("memory allocation refused at the memory limit")
            except (OSError, ValueError):
                pass
        return notes

    def remove(self) -> None:
        self.kill_all()
        for d in self.dirs:
            for _ in range(150):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # members still exiting


def join(procs_files: tuple[str, ...]) -> None:
    """Move the calling process into the group; runs in the child before exec."""
    me = str(os.getpid()).encode()
    for path in procs_files:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, me)
        finally:
            os.close(fd)


def create(name: str, limits: Limits) -> Cgroup | None:
    """A new group with limits applied, or None where this machine does not allow it."""
    own = _own_paths()
    if (ROOT / "pids" / "cgroup.procs").exists():
        return _create_v1(name, limits, own)
    if (ROOT / "cgroup.controllers").exists():
        return _create_v2(name, limits, own)
    return None


def _create_v1(name: str, limits: Limits, own: dict[str, str]) -> Cgroup | None:
    made: list[Path] = []
    try:
        for ctrl, files in (("pids", {"pids.max": str(limits.pids)}),
                            ("memory", {"memory.limit_in_bytes": str(limits.memory_mb * _MB)})):
            base = ROOT / ctrl / own.get(ctrl, "/").lstrip("/")
            if not (base / "cgroup.procs").exists():
                continue
            d = base / name
            d.mkdir()
            made.append(d)
            for fname, value in files.items():
                (d / fname).write_text(value)
    except OSError:
        Cgroup(tuple(made), 1).remove()
        return None
    if not any(d.is_relative_to(ROOT / "pids") for d in made):
        Cgroup(tuple(made), 1).remove()
        return None
    return Cgroup(tuple(made), 1)


def _create_v2(name: str, limits: Limits, own: dict[str, str]) -> Cgroup | None:
    base = ROOT / own.get("", "/").lstrip("/")
    d = base / name
    try:
        available = (base / "cgroup.subtree_control").read_text().split()
        if "pids" not in available:
            (base / "cgroup.subtree_control").write_text("+pids +memory")
        d.mkdir()
        (d / "pids.max").write_text(str(limits.pids))
        if (d / "memory.max").exists():
            (d / "memory.max").write_text(str(limits.memory_mb * _MB))
            if (d / "memory.swap.max").exists():
                (d / "memory.swap.max").write_text("0")
    except OSError:
        with contextlib.suppress(OSError):
            d.rmdir()
        return None
    return Cgroup((d,), 2)


def remove_stale() -> int:
    """Remove empty `arena-*` groups (a crashed arena process leaves them). Returns how many."""
    removed = 0
    own = _own_paths()
    bases = [ROOT / c / own.get(c, "/").lstrip("/") for c in ("pids", "memory")]
    bases.append(ROOT / own.get("", "/").lstrip("/"))
    for base in bases:
        try:
            children = [d for d in base.iterdir() if d.is_dir() and d.name.startswith("arena-")]
        except OSError:
            continue
        for d in children:
            try:
                if not (d / "cgroup.procs").read_text().strip():
                    d.rmdir()
                    removed += 1
            except OSError:
                pass
    return removed
