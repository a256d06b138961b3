"""The sandbox interface the referee uses to start one bot.

    handle = launch(bot, level="auto", env={...}, socket_dir=..., log_path=..., limits=Limits())
    handle.level      # "docker" | "bwrap" | "process": what it really runs under
    handle.poll()     # exit code or None while running
    handle.stop()     # SIGTERM, grace period, SIGKILL of the whole group / container; idempotent
    handle.cleanup()  # stop() + remove containers and temp files; nothing is left behind

`env` carries ARENA_TOKEN and ARENA_ADDRESS ("unix:<socket_dir>/<name>");
a level that mounts `socket_dir` elsewhere rewrites ARENA_ADDRESS itself.
The bot's stdout and stderr go to `log_path`, capped at `limits.log_bytes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

LEVELS: tuple[str, ...] = ("docker", "bwrap", "process")  # strongest first


class SandboxError(RuntimeError):
    """A bot could not be started at the requested level; says why."""


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

    def poll(self) -> int | None: ...
    def stop(self) -> None: ...
    def cleanup(self) -> None: ...
