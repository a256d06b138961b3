"""The bwrap level (placeholder until implemented: reports unavailable)."""

from __future__ import annotations

from arena.sandbox.api import SandboxError
from arena.sandbox.process import ProcessHandle


def works() -> bool:
    return False


def launch_bwrap(bot: object, env: dict[str, str], socket_dir: str, log_path: str,
                 limits: object) -> ProcessHandle:
    raise SandboxError("the bwrap level is not implemented yet")
