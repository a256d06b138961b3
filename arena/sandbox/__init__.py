"""Starting untrusted bots confined: docker, bwrap or a plain process group.

    from arena.sandbox import launch, available_levels, resolve_level, Limits
"""

from arena.sandbox.api import LEVELS, BotHandle, Limits, SandboxError, SandboxUnavailable
from arena.sandbox.levels import available_levels, launch, resolve_level

__all__ = ["LEVELS", "BotHandle", "Limits", "SandboxError", "SandboxUnavailable", "available_levels", "launch",
           "resolve_level"]
