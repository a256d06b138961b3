"""The docker level (placeholder until implemented: reports unavailable)."""

from __future__ import annotations

from arena.sandbox.api import BotHandle, SandboxError
from arena.sandbox.botfile import BotSpec


def engine_reachable() -> bool:
    return False


def can_run(bot: BotSpec) -> bool:
    return False


def launch_docker(bot: BotSpec, env: dict[str, str], socket_dir: str, log_path: str,
                  limits: object, match_id: str) -> BotHandle:
    raise SandboxError("the docker level is not implemented yet")
