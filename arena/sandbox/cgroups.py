"""Best-effort cgroup limits for the process and bwrap levels.

rlimits are per process: a bot that forks can multiply its memory by its
process count, and RLIMIT_NPROC does not bind root. Where the machine lets
us create cgroups (root, a writable cgroup v1 `pids`/`memory` hierarchy, or
a cgroup v2 tree with those controllers delegated) every bot gets its own
group with `pids.max` and a memory limit, joined between fork and exec; the
group's member list also finds every process of the bot at stop time.
Where it is not possible the levels fall back to rlimits and a watchdog.

The group is also made in the v1 `freezer` and `cpuacct` hierarchies and,
on a hybrid machine, in the unified (v2) one: that is what pauses a bot
while another seat decides and reads its CPU time (freezer.py). Its name
carries the arena process's pid (`arena-<pid>-<marker>`), so that
`remove_stale` can tell the groups of a process that died, whose bots may
still be frozen, from those of a live one.
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

    def pauser_dirs(self) -> tuple[Path | None, Path | None, Path | None]:
        """(unified or v2 group, v1 freezer group, v1 cpuacct group), None where absent."""
        if self.version == 2:
            return self.dirs[0], None, None
        found: dict[str, Path] = {}
        for d in self.dirs:
            for name in ("unified", "freezer", "cpuacct"):
                if d.is_relative_to(ROOT / name):
                    found[name] = d
        return found.get("unified"), found.get("freezer"), found.get("cpuacct")

    def thaw(self) -> None:
        """Thaw the group in every freezer it is in (a frozen v1 task dies of
        SIGKILL only once thawed; a SIGTERM waits for the thaw everywhere)."""
        unified, freezer, _ = self.pauser_dirs()
        for path, word in ((unified, "0"), (freezer, "THAWED")):
            if path is not None:
                name = "cgroup.freeze" if word == "0" else "freezer.state"
                with contextlib.suppress(OSError):
                    (path / name).write_text(word)

    def kill_all(self) -> None:
        for _ in range(20):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self.thaw()  # after the kill: a thawed task then dies before it runs again
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


def group_name(marker: str) -> str:
    """The name of a bot's group: the arena process's pid, then its marker."""
    return f"arena-{os.getpid()}-{marker}"


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
        limited = (("pids", {"pids.max": str(limits.pids)}),
                   ("memory", {"memory.limit_in_bytes": str(limits.memory_mb * _MB)}))
        for ctrl, files in limited:
            base = ROOT / ctrl / own.get(ctrl, "/").lstrip("/")
            if not (base / "cgroup.procs").exists():
                continue
            d = base / name
            d.mkdir()
            made.append(d)
            for fname, value in files.items():
                (d / fname).write_text(value)
        # Pausing and the CPU clock (freezer.py): wanted, not required.
        for ctrl, key in (("freezer", "freezer"), ("cpuacct", "cpuacct"), ("unified", "")):
            base = ROOT / ctrl / own.get(key, "/").lstrip("/")
            if not (base / "cgroup.procs").exists():
                continue
            d = base / name
            try:
                d.mkdir()
            except OSError:
                continue
            made.append(d)
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


def _owner_gone(name: str) -> bool:
    """The group is named after an arena process (`group_name`) that has ended."""
    parts = name.split("-")
    if len(parts) != 3 or not parts[1].isdigit():
        return False  # an older name without the owner: only removed when empty
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def remove_stale() -> int:
    """Remove the `arena-*` groups that arena processes which died left: the
    empty ones, and every group of an owner that is gone, its bots killed
    (thawed first: a crash may leave them frozen, and at v1 a frozen task
    does not die of SIGKILL). Returns how many group names were removed."""
    own = _own_paths()
    bases = [ROOT / c / own.get(c, "/").lstrip("/") for c in ("pids", "memory", "freezer", "cpuacct")]
    bases.append(ROOT / "unified" / own.get("", "/").lstrip("/"))
    bases.append(ROOT / own.get("", "/").lstrip("/"))
    by_name: dict[str, list[Path]] = {}
    for base in bases:
        try:
            children = [d for d in base.iterdir() if d.is_dir() and d.name.startswith("arena-")]
        except OSError:
            continue
        for d in children:
            by_name.setdefault(d.name, []).append(d)
    removed = 0
    for name, dirs in sorted(by_name.items()):
        group = Cgroup(tuple(dirs), 1 if any(d.is_relative_to(ROOT / "pids") for d in dirs) else 2)
        if group.pids() and not _owner_gone(name):
            continue
        group.remove()
        if not any(d.exists() for d in dirs):
            removed += 1
    return removed
