"""The process level: the bot's own session and process group, rlimits,
a capped log, and a stop that leaves nothing behind.

Every process we start carries a unique marker in its environment
(`ARENA_SANDBOX_ID`); children inherit it, so a bot that leaves its process
group with setsid() is still found by scanning /proc and killed at stop().
Where cgroups can be created (see cgroups.py) the bot's group bounds its
process count and total memory and lists its members for the final kill.
Elsewhere a watchdog counts marked processes, because RLIMIT_NPROC does not
bind root and counts all of a user's processes otherwise; it kills a bot
over `Limits.pids`, but a fast fork bomb can outrun a /proc scan on a busy
machine, so the cgroup is the real defence.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

from arena.manifest import BotSpec
from arena.sandbox import cgroups, freezer, peers, rlimits
from arena.sandbox.api import Limits, SandboxError
from arena.sandbox.logcap import CappedLog, PipeSource

MARKER_VAR = "ARENA_SANDBOX_ID"
WATCHDOG_PERIOD = 0.25  # seconds between two process counts
# Where any user may create files that outlive their creator: a private
# tmpfs each at the process level as root (`private_mounts`).
SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def live_processes() -> Iterator[tuple[int, int, int]]:
    """(pid, parent pid, process group) of every process that is not a
    zombie, from /proc (a zombie runs nothing: it only waits to be reaped)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                # After the command name in parentheses: state, ppid, pgrp, ...
                state, ppid, pgrp = f.read().rsplit(")", 1)[1].split()[:3]
        except (OSError, IndexError, ValueError):
            continue  # gone, or not a stat line
        if state != "Z":
            yield int(entry), int(ppid), int(pgrp)


def marked_pids(marker: str) -> list[int]:
    """Pids of live processes whose environment holds `MARKER_VAR=marker`."""
    needle = f"{MARKER_VAR}={marker}".encode()
    found: list[int] = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                data = f.read()
        except OSError:
            continue  # gone, or not ours to read
        if needle + b"\0" in data or data.endswith(needle):
            found.append(int(entry))
    return found


def base_env(level: str, marker: str) -> dict[str, str]:
    """The environment every bot starts from: nothing of the arena's own.

    The directory of the arena's interpreter comes first on PATH, so
    `python3` in a bot's `run` is the interpreter that has grpcio and arena.sdk."""
    py_dir = str(Path(sys.executable).parent)
    return {
        "PATH": f"{py_dir}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "ARENA_SANDBOX": level,
        MARKER_VAR: marker,
    }


class ProcessHandle:
    """A started bot (process or bwrap level): see arena.sandbox.api.BotHandle."""

    def __init__(self, *, level: str, popen: subprocess.Popen[bytes], log: CappedLog,
                 marker: str, limits: Limits, watchdog: bool, cgroup: cgroups.Cgroup | None,
                 on_cleanup: Sequence[Callable[[], None]] = (), uid: int | None = None,
                 reaches_others: bool = False) -> None:
        self.level = level
        self.reaches_others = reaches_others
        self.pid: int | None = popen.pid
        # The host uid the bot runs as when it is one of its own (no other
        # process has it), else None: it runs as the arena's own user.
        self.uid = uid
        self.marker = marker
        self.limits = limits
        self.log = log
        self.violations: list[str] = []   # limits the arena enforced itself, human readable
        self._popen = popen
        self._cgroup = cgroup
        # Pauses the bot while another seat decides (TimeControl.pondering).
        self.pauser: freezer.Pauser = freezer.for_dirs(
            *(cgroup.pauser_dirs() if cgroup is not None else (None, None, None)),
            fallback_pid=popen.pid)
        self._on_cleanup = list(on_cleanup)
        self._lock = threading.Lock()
        self._stopped = False
        self._cleaned = False
        self._done = threading.Event()
        if watchdog and cgroup is None:
            threading.Thread(target=self._watch, name=f"botwatch:{popen.pid}", daemon=True).start()

    # -- BotHandle ---------------------------------------------------------
    def poll(self) -> int | None:
        return self._popen.poll()

    def wait(self, timeout: float | None = None) -> int | None:
        """Exit code once the bot's main process ended, None if `timeout` passed first."""
        try:
            return self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def owns(self, pid: int, uid: int) -> bool:
        """True if process `pid` (of host uid `uid`) is this bot's (arena.sandbox.peers)."""
        if self.uid is not None:
            return uid == self.uid
        # Its cgroup where it has one: a child that detached itself from the
        # process tree is still in it (and cannot leave it unprivileged).
        if self._cgroup is not None and peers.in_cgroup_named(pid, cgroups.group_name(self.marker)):
            return True
        return self.pid is not None and peers.descends_from(pid, self.pid)

    def stop(self) -> None:
        """SIGTERM to the group, `stop_grace` seconds, then SIGKILL to the group and
        to every marked process. Blocks at most about stop_grace + a few seconds."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._done.set()
        self.pauser.release()  # a frozen bot would hold SIGTERM until the grace ran out
        if self._popen.poll() is None:
            self._signal_group(signal.SIGTERM)
            self.wait(self.limits.stop_grace)
        self._kill_all()
        if self.wait(5.0) is None:  # pragma: no cover - SIGKILL cannot be ignored
            self.violations.append("main process survived SIGKILL for 5 s")
        # The pipe closes when the last process holding it is gone.
        if not self.log.join(5.0):
            self._kill_all()
            self.log.join(5.0)
        if self._cgroup is not None:
            # Everything is dead now: read what the kernel enforced, then remove
            # the group here already (callers that only stop() leave nothing).
            self.violations.extend(self._cgroup.events())
            self._cgroup.remove()
        if self.pauser.cpu is not None:
            self.pauser.cpu.close()

    def cleanup(self) -> None:
        self.stop()
        with self._lock:
            if self._cleaned:
                return
            self._cleaned = True
        for fn in self._on_cleanup:
            fn()

    # -- internals -----------------------------------------------------------
    def _signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._popen.pid, sig)

    def _kill_all(self) -> None:
        self._signal_group(signal.SIGKILL)
        if self._cgroup is not None:
            self._cgroup.kill_all()
        # Up to a few rounds: a process may fork while we kill its siblings.
        for _ in range(5):
            pids = marked_pids(self.marker)
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def _watch(self) -> None:
        while not self._done.wait(WATCHDOG_PERIOD):
            if self._popen.poll() is not None and not marked_pids(self.marker):
                return
            count = len(marked_pids(self.marker))
            if count > self.limits.pids:
                self.violations.append(
                    f"{count} processes, over the limit of {self.limits.pids}: killed")
                self._kill_all()
                return


def spawn(argv: Sequence[str], *, level: str, cwd: str, env: dict[str, str], log_path: str,
          limits: Limits, marker: str, nproc: bool, watchdog: bool,
          on_cleanup: Sequence[Callable[[], None]] = (), uid: int | None = None,
          reaches_others: bool = False) -> ProcessHandle:
    """Start `argv` in its own session with rlimits and a capped log."""
    table = rlimits.rlimit_table(limits, with_nproc=nproc)
    group = cgroups.create(cgroups.group_name(marker), limits)
    procs = group.procs_files if group is not None else ()
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    prefix = rlimits.exec_prefix(table, procs)
    r, w = os.pipe()
    try:
        if prefix is not None and not _executable(argv[0], cwd, env):
            # Through the prelude a missing command would only show as an exit
            # status; say it here, as Popen would have.
            raise FileNotFoundError("no such executable (on PATH or in the bot's folder)")
        # Limits are set in the child before the bot's first instruction (prlimit()
        # after the start would leave it unlimited for its first instants); see
        # rlimits.py for why that is an exec prelude and not a preexec_fn.
        popen = subprocess.Popen(
            [*prefix, *argv] if prefix is not None else list(argv),
            cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=w, stderr=w,
            start_new_session=True, close_fds=True,
            preexec_fn=None if prefix is not None else partial(rlimits.apply, table, procs),  # noqa: PLW1509
        )
    except (OSError, subprocess.SubprocessError) as exc:
        os.close(r)
        os.close(w)
        if group is not None:
            group.remove()
        for fn in on_cleanup:
            fn()
        raise SandboxError(f"cannot start {argv[0]!r} in {cwd} ({level} level): {exc}") from None
    os.close(w)
    log = CappedLog(PipeSource(r), log_path, limits.log_bytes)
    return ProcessHandle(level=level, popen=popen, log=log, marker=marker, limits=limits,
                         watchdog=watchdog, cgroup=group, on_cleanup=on_cleanup, uid=uid,
                         reaches_others=reaches_others)


def _executable(cmd: str, cwd: str, env: dict[str, str]) -> bool:
    if os.sep in cmd:
        path = cmd if os.path.isabs(cmd) else os.path.join(cwd, cmd)
        return os.path.isfile(path) and os.access(path, os.X_OK)
    return shutil.which(cmd, path=env.get("PATH", os.defpath)) is not None


def launch_process(bot: BotSpec, env: dict[str, str], socket_dir: str, log_path: str,
                   limits: Limits) -> ProcessHandle:
    """The bot's `run` in its folder.

    Run by root (with util-linux `unshare`), the bot gets a mount namespace
    of its own (`private_mounts`) and no capabilities. Elsewhere it gets a
    private HOME/TMPDIR removed at cleanup, and the machine's /tmp and
    /dev/shm stay in its reach (docs/sandbox.md)."""
    if not bot.run:
        raise SandboxError(f"{bot.label}: bot.toml has no 'run' command; the process level needs one")
    marker = uuid.uuid4().hex
    mounts = private_mounts(bot, socket_dir, limits)
    if mounts is not None:
        full_env = base_env("process", marker) | dict(env) | {"HOME": "/tmp", "TMPDIR": "/tmp"}
        if not _executable(bot.argv[0], bot.path, full_env):
            raise SandboxError(f"cannot start {bot.argv[0]!r} in {bot.path} (process level): "
                               "no such executable (on PATH or in the bot's folder)")
        return spawn([*mounts, *bot.argv], level="process", cwd=bot.path, env=full_env,
                     log_path=log_path, limits=limits, marker=marker, nproc=False, watchdog=True)
    home = tempfile.mkdtemp(prefix=f"arena-{bot.name}-")
    full_env = base_env("process", marker) | dict(env) | {"HOME": home, "TMPDIR": home}
    return spawn(bot.argv, level="process", cwd=bot.path, env=full_env, log_path=log_path,
                 limits=limits, marker=marker, nproc=False, watchdog=True,
                 on_cleanup=[partial(shutil.rmtree, home, ignore_errors=True)], reaches_others=True)


# $1: tmpfs size in bytes; $2: the bot's folder (made read-only); $3: how many folders follow to hide; then those
# folders, then the folders to show again (each at its own path), "--", the
# command. Each folder shown again is opened (fd 3, 4, ...) before anything
# is hidden and bound back from its fd; mount must not canonicalize the
# /proc/self/fd path, which would name the new, empty folder.
_PRIVATE_MOUNTS = r"""
set -e
size=$1; bot=$2; hide=$3; shift 3
i=0; hidden=""
while [ "$i" -lt "$hide" ]; do hidden="$hidden $1"; shift; i=$((i + 1)); done
fd=3; shown=""
while [ "$1" != "--" ]; do eval "exec $fd<\"\$1\""; shown="$shown $fd:$1"; fd=$((fd + 1)); shift; done
shift
for d in $hidden; do mount -t tmpfs -o "size=$size,mode=1777,nosuid,nodev" arena-private "$d"; done
for entry in $shown; do
  n=${entry%%:*}; d=${entry#*:}
  mkdir -p "$d"
  mount --no-canonicalize --bind "/proc/self/fd/$n" "$d"
  eval "exec $n<&-"
done
mount --bind "$bot" "$bot"
# Every other mount read-only (the bot stays uid 0 at this level, and uid 0
# owns most of the system): what it writes can only go to the tmpfs above.
awk '{ src = ""; for (i = 1; i <= NF; i++) if ($i == "-") src = $(i + 2); if (src != "arena-private") print $5 }' \
  /proc/self/mountinfo | while read -r m; do
  mount -o remount,bind,ro "$(printf '%b' "$m")" 2>/dev/null || true
done
cd "$bot"  # the working directory given at the start is the folder before the mounts
exec "$@"
"""


def private_mounts_available() -> bool:
    """Whether process-level bots get a mount namespace of their own here."""
    return os.geteuid() == 0 and all(shutil.which(t) for t in ("unshare", "setpriv", "sh", "awk"))


def private_mounts(bot: BotSpec, socket_dir: str, limits: Limits) -> list[str] | None:
    """The argv prefix that runs a process-level bot in a mount namespace of
    its own, or None where that cannot be done (not root, no `unshare`).

    Inside, /tmp and /dev/shm are fresh size-capped tmpfs (whatever the bot
    writes there dies with its last process: nothing is left on the host),
    and so is the match's socket folder, in which only this seat's folder is
    shown again: other seats' sockets are not there to replace or connect to.
    Every other mount (the system, the bot's folder, the arena's files) is
    read-only inside, as at the other levels.
    The bot's folder and the arena's Python are shown again where they lay
    under a hidden folder. `setpriv` then drops every capability (the bot
    stays the arena's uid, but cannot undo the mounts, trace the referee or
    override file modes)."""
    if not private_mounts_available():
        return None
    unshare, setpriv, sh = shutil.which("unshare"), shutil.which("setpriv"), shutil.which("sh")
    assert unshare is not None and setpriv is not None and sh is not None
    match_dir = os.path.dirname(os.path.abspath(socket_dir))
    hide = [d for d in (*SHARED_DIRS, match_dir) if os.path.isdir(d)]
    # A folder under another hidden one is hidden with it (and would no longer be there to mount on).
    hide = [d for d in hide if not any(d.startswith(h + "/") for h in hide)]
    keep = [os.path.abspath(socket_dir), os.path.abspath(bot.path), *_python_dirs()]
    shown = sorted({k for k in keep if any(k == h or k.startswith(h + "/") for h in hide)},
                   key=len)
    size = str(limits.tmpfs_mb * 1024 * 1024)
    return [unshare, "--mount", "--propagation", "private", "--",
            sh, "-c", _PRIVATE_MOUNTS, "arena-mounts", size, os.path.abspath(bot.path),
            str(len(hide)), *hide, *shown, "--",
            setpriv, "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]


def _python_dirs() -> list[str]:
    import arena
    return [sys.prefix, sys.base_prefix, str(Path(sys.executable).resolve().parent),
            str(Path(arena.__file__).resolve().parent)]
