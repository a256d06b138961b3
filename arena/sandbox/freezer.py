"""Pausing a bot while another seat decides, and reading the CPU time it used.

With `TimeControl.pondering = False` the referee keeps every bot but the
deciding one paused (arena/referee/pondering.py), so a bot that burns CPU
between its turns cannot take thinking time from the seat that decides
(the seats of a match share the cores of their CPU slot). Every sandbox
handle carries a `Pauser` for its bot; the mechanism, best first:

  cgroup v2      `cgroup.freeze` of the bot's own group (pure v2, or the
                 unified hierarchy of a hybrid v1 machine): a few µs, and a
                 frozen task still dies of SIGKILL.
  cgroup v1      `freezer.state` of the bot's group in the v1 `freezer`
                 hierarchy. Also a few µs, as long as some group stays
                 frozen: the kernel switches its freezer code on and off
                 (a patch of its own text, about 70 µs each way) when the
                 number of frozen groups leaves or reaches zero, and in a
                 match some other seat is always frozen. A frozen v1 task
                 does not die of SIGKILL until it is thawed.
  docker pause   the engine's pause/unpause (runc writes the same freezer):
                 about 17 ms each, only where the container's cgroup cannot
                 be reached from this process.
  SIGSTOP        SIGSTOP to the bot's process group and to every thread of
                 its process tree (/proc/<pid>/task/*/children), SIGCONT to
                 each process, where no cgroup can be
                 made: a process that left both (double fork, and setpgid
                 or setsid) escapes it (docs/sandbox.md).

At the docker level the container's own cgroup is written directly: the
engine's pause API goes through dockerd, containerd and runc (docs/sandbox.md
has the figures). The CPU clock reads the same group's usage (v2 `cpu.stat`
usage_usec, v1 `cpuacct.usage`); without a group there is none.

Every pauser is thread-safe and ends with `release()`: thawed for good, and
`freeze()` does nothing after it. A handle's stop() releases first, so
SIGTERM reaches a running bot and SIGKILL a v1-frozen one.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path

# Mechanism names, as recorded per seat (MatchResult, replay header).
CGROUP_V2 = "cgroup v2 freeze"
CGROUP_V1 = "cgroup v1 freezer"
DOCKER_PAUSE = "docker pause"
SIGSTOP = "SIGSTOP"
NONE = "none"
# Which mechanisms may be used, best first; benchmarks/fairness.py and tests
# set it to compare them. Unknown names are ignored.
MECHANISMS_VAR = "ARENA_FREEZER"


def allowed(mechanism: str) -> bool:
    """`mechanism` may be used here (ARENA_FREEZER, comma-separated: v2, v1, docker, signal)."""
    wanted = os.environ.get(MECHANISMS_VAR, "").strip()
    if not wanted:
        return True
    short = {CGROUP_V2: "v2", CGROUP_V1: "v1", DOCKER_PAUSE: "docker", SIGSTOP: "signal"}
    return short.get(mechanism, mechanism) in {w.strip() for w in wanted.split(",")}


class CpuClock:
    """CPU seconds a cgroup's tasks used since it was made, read from one file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._v2 = path.name == "cpu.stat"
        self._fd = -1

    def seconds(self) -> float | None:
        try:
            if self._fd < 0:
                self._fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            text = os.pread(self._fd, 512, 0)
            if not self._v2:
                return int(text) / 1e9                      # cpuacct.usage: ns
            for line in text.split(b"\n"):
                if line.startswith(b"usage_usec "):
                    return int(line.split()[1]) / 1e6
        except (OSError, ValueError):
            pass
        return None

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1


class Pauser:
    """Freeze and thaw one bot; `mechanism` says how (NONE: it cannot be paused)."""

    mechanism = NONE

    def __init__(self, cpu: CpuClock | None = None) -> None:
        self.cpu = cpu
        self.frozen = False
        self.released = False
        self._lock = threading.Lock()

    def freeze(self) -> None:
        with self._lock:
            if self.frozen or self.released:
                return
            self.frozen = self._set(True)

    def thaw(self) -> None:
        with self._lock:
            if self.frozen:
                self._set(False)
                self.frozen = False

    def release(self) -> None:
        """Thaw, and never freeze again (the bot is being stopped)."""
        with self._lock:
            self.released = True
            # Thawed even if we think it is not frozen: a crash between the
            # write and the flag must not leave the bot unkillable (v1).
            self._set(False)
            self.frozen = False

    def cpu_seconds(self) -> float | None:
        return self.cpu.seconds() if self.cpu is not None else None

    def _set(self, frozen: bool) -> bool:
        """Apply the state; True if the bot is now frozen."""
        return False


class CgroupPauser(Pauser):
    """`cgroup.freeze` (v2) or `freezer.state` (v1) of one group, kept open."""

    def __init__(self, state_file: Path, cpu: CpuClock | None = None) -> None:
        super().__init__(cpu)
        self.state_file = state_file
        self.mechanism = CGROUP_V2 if state_file.name == "cgroup.freeze" else CGROUP_V1
        self._words = (b"1", b"0") if self.mechanism == CGROUP_V2 else (b"FROZEN", b"THAWED")
        self._fd = -1

    def _set(self, frozen: bool) -> bool:
        try:
            if self._fd < 0:
                self._fd = os.open(self.state_file, os.O_WRONLY | os.O_CLOEXEC)
            os.pwrite(self._fd, self._words[0 if frozen else 1], 0)
        except OSError:
            return False  # the group is gone: so is the bot
        return frozen

    def release(self) -> None:
        super().release()
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1


class SignalPauser(Pauser):
    """SIGSTOP/SIGCONT to the process group `pid` leads and to its process tree."""

    mechanism = SIGSTOP

    def __init__(self, pid: int, cpu: CpuClock | None = None) -> None:
        super().__init__(cpu)
        self.pid = pid
        self._stopped: list[int] = []  # the tree as it was stopped

    def _set(self, frozen: bool) -> bool:
        sig = signal.SIGSTOP if frozen else signal.SIGCONT
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)
        # A stopped tree cannot fork: the thaw continues the processes the
        # freeze stopped, without walking /proc again (the walk is most of
        # the cost). A release walks it anyway, in case a freeze was cut short.
        if frozen or self.released or not self._stopped:
            tree = process_threads(self.pid)
            self._stopped = [p for p, _ in tree]
        if frozen:
            # To every thread, not only to each process: a process-wide
            # SIGSTOP goes to one thread, often the main one asleep on its
            # socket, and the others run on until it is scheduled and stops
            # them (a tick or more on a busy core: a spinning burner used
            # 30-50 ms a match that way). Sent to each thread, one that is
            # running takes it at once.
            for p, tids in tree:
                for tid in tids:
                    _tgkill(p, tid, signal.SIGSTOP)
            return True
        for pid in self._stopped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        return frozen
class CallPauser(Pauser):
    """Pause and resume through two calls (the docker engine's API)."""

    mechanism = DOCKER_PAUSE

    def __init__(self, pause: Callable[[], object], resume: Callable[[], object],
                 cpu: CpuClock | None = None) -> None:
        super().__init__(cpu)
        self._pause = pause
        self._resume = resume

    def _set(self, frozen: bool) -> bool:
        try:
            (self._pause if frozen else self._resume)()
        except Exception:  # noqa: BLE001 - e.g. not running, already resumed, or the engine slow
            # A pause that failed may still have happened (a call that timed
            # out while the engine went on): counted as paused, so that the
            # next thaw resumes it (resuming a running container only fails).
            return frozen
        return frozen


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants, from /proc/<pid>/task/<tid>/children."""
    return [p for p, _ in process_threads(pid)]


def process_threads(pid: int) -> list[tuple[int, list[int]]]:
    """`pid` and its descendants, each with its threads (/proc/<pid>/task)."""
    found: list[tuple[int, list[int]]] = []
    todo = [pid]
    while todo and len(found) < 4096:
        p = todo.pop()
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            found.append((p, []))
            continue
        found.append((p, [int(t) for t in tids if t.isdigit()]))
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError):
                continue
    return found


_libc: ctypes.CDLL | None = None


def _tgkill(pid: int, tid: int, sig: int) -> None:
    """Send `sig` to thread `tid` of process `pid` (glibc's tgkill: Python has
    no os.tgkill); a thread that is gone is ignored."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    _libc.tgkill(pid, tid, sig)


def for_dirs(unified: Path | None, freezer: Path | None, cpuacct: Path | None,
             fallback_pid: int | None) -> Pauser:
    """The best pauser for a bot in these cgroup folders (any may be None)."""
    cpu: CpuClock | None = None
    if unified is not None and (unified / "cpu.stat").exists():
        cpu = CpuClock(unified / "cpu.stat")
    elif cpuacct is not None and (cpuacct / "cpuacct.usage").exists():
        cpu = CpuClock(cpuacct / "cpuacct.usage")
    if unified is not None and (unified / "cgroup.freeze").exists() and allowed(CGROUP_V2):
        return CgroupPauser(unified / "cgroup.freeze", cpu)
    if freezer is not None and (freezer / "freezer.state").exists() and allowed(CGROUP_V1):
        return CgroupPauser(freezer / "freezer.state", cpu)
    if fallback_pid is not None and allowed(SIGSTOP):
        return SignalPauser(fallback_pid, cpu)
    return Pauser(cpu)


def cgroup_dirs_of(pid: int, root: Path = Path("/sys/fs/cgroup")) -> tuple[Path | None, Path | None, Path | None]:
    """(unified, freezer, cpuacct) folders of process `pid`'s cgroups as this
    process sees them, each None where it is not there (another cgroup
    namespace, no such hierarchy)."""
    try:
        text = Path(f"/proc/{pid}/cgroup").read_text()
    except OSError:
        return None, None, None
    unified = freezer = cpuacct = None
    v2_root = root / "unified" if (root / "unified" / "cgroup.procs").exists() else root
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        rel = parts[2].lstrip("/")
        ctrls = parts[1].split(",") if parts[1] else []
        if parts[0] == "0" and not parts[1]:
            candidate = v2_root / rel
            if rel and (candidate / "cgroup.procs").exists():
                unified = candidate
        elif "freezer" in ctrls and rel:
            candidate = root / "freezer" / rel
            freezer = candidate if (candidate / "freezer.state").exists() else None
        elif "cpuacct" in ctrls and rel:
            mount = root / parts[1] if (root / parts[1]).exists() else root / "cpuacct"
            candidate = mount / rel
            cpuacct = candidate if (candidate / "cpuacct.usage").exists() else None
    return unified, freezer, cpuacct
