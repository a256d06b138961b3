"""The sandbox interface the referee uses to start one bot.

    from arena.sandbox import launch, available_levels, resolve_level, Limits
    handle = launch(bot, level="auto", env={...}, socket_dir=..., log_path=...,
                    limits=Limits(), match_id="m1")
    handle.level      # "docker" | "bwrap" | "process": what it really runs under
    handle.pid        # host pid of the main process (docker: the container's init)
    handle.poll()     # exit code or None while running (negative: killed by that signal)
    handle.wait(t)    # exit code, or None if still running after t seconds
    handle.stop()     # SIGTERM, grace period, SIGKILL of the whole group / container; idempotent
    handle.cleanup()  # stop() + remove containers, cgroups and temp files; nothing is left behind
    handle.log        # logcap.CappedLog: the capped output; log.position() for decision marks
    handle.violations # list[str]: limits the sandbox enforced (pids, memory...), for the fault log
    handle.pauser     # freezer.Pauser: freeze()/thaw() the bot, its CPU seconds, .mechanism
    handle.uid        # host uid the bot runs as if it is one of its own, else None
    handle.reaches_others  # True if it can reach other seats' sockets (process level, no namespace)
    handle.owns(pid, uid)  # is host process `pid` (uid `uid`) one of this bot's? (arena.sandbox.peers)

`launch` is synchronous and quick (it returns once the process or container
is started); `stop`/`cleanup` block up to `stop_grace` + a few seconds, so an
asyncio caller should run them in a thread (asyncio.to_thread).

`env` carries ARENA_TOKEN and ARENA_ADDRESS ("unix:<socket_dir>/<name>");
every level makes that same path reachable inside (socket_dir is mounted at
the same path), so ARENA_ADDRESS is passed through unchanged. The referee
must create the socket before calling launch: at the bwrap and docker levels
the bot runs as an unprivileged uid, so launch() makes `socket_dir`
traversable (mode 0o711 or wider) and the socket file in ARENA_ADDRESS
connectable (0o666). The token is the authentication, not the file mode.
The bot's stdout and stderr go to `log_path` (created 0600), capped at
`limits.log_bytes`. Keep only this bot's socket in `socket_dir`: it is
mounted into the bot's sandbox (the referee gives every seat a folder and a
socket of its own; logs and the replay belong elsewhere).

A bot that cannot be started at all (command not found, image missing)
raises SandboxError: the referee should record that as the seat's crash.
A level this machine cannot run at all raises SandboxUnavailable: then the
match cannot be played (nobody's fault, nothing to record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from arena.sandbox.freezer import Pauser
from arena.sandbox.logcap import CappedLog

LEVELS: tuple[str, ...] = ("docker", "bwrap", "process")  # strongest first


class SandboxError(RuntimeError):
    """A bot could not be started at the requested level; says why."""


class SandboxUnavailable(SandboxError):
    """The requested level cannot run here at all (not installed, no engine).

    Not the bot's fault: a match that meets it cannot be played, rather than
    a match whose bots all crashed (which would be stored as a result)."""


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 512
    cpu_seconds: int = 600        # CPU time over the whole match (RLIMIT_CPU)
    cpus: float = 1.0             # docker CPU quota
    pids: int = 64
    open_files: int = 256
    file_size_mb: int = 16        # largest file a bot may write (RLIMIT_FSIZE)
    tmpfs_mb: int = 16            # /tmp size at docker and bwrap level
    log_bytes: int = 1_000_000    # stdout+stderr kept per bot per match
    stop_grace: float = 1.0       # seconds between SIGTERM and SIGKILL


class BotHandle(Protocol):
    level: str
    pid: int | None
    uid: int | None
    reaches_others: bool
    violations: list[str]
    pauser: Pauser

    @property
    def log(self) -> CappedLog | None:
        """Its output (log.position(): where a decision's lines start); None: no process."""

    def owns(self, pid: int, uid: int) -> bool: ...
    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int | None: ...
    def stop(self) -> None: ...
    def cleanup(self) -> None: ...
