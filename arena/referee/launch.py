"""Start one bot process for a match, and check that none is left over.

`start_bot` is a thin seam over `arena.sandbox.launch` (docker / bwrap /
process levels), so tests and the referee share one place that starts bots.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Mapping

from arena.manifest import BotSpec
from arena.referee.hosted import HOSTED_LEVEL, hosted_key, start_hosted
from arena.sandbox import launch, resolve_level
from arena.sandbox.api import BotHandle, Limits
from arena.sandbox.process import live_processes


def start_bot(
    bot: BotSpec, level: str, env: Mapping[str, str], socket_dir: str, log_path: str,
    limits: Limits | None = None, match_id: str = "",
) -> BotHandle:
    """Start `bot` at `level` ("auto" = strongest available). Raises SandboxError.
    A hosted seat (arena.referee.hosted) is started by its host, at no level."""
    if hosted_key(bot) is not None:
        return start_hosted(bot, env)
    return launch(bot, level, env=dict(env), socket_dir=socket_dir, log_path=log_path,
                  limits=limits or Limits(), match_id=match_id)


def seat_level(requested: str, bot: BotSpec) -> str:
    """The level `start_bot` will start `bot` at (arena.sandbox.resolve_level,
    or HOSTED_LEVEL for a hosted seat)."""
    if hosted_key(bot) is not None:
        return HOSTED_LEVEL
    return resolve_level(requested, bot)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def group_alive(pgid: int) -> bool:
    """True while any process of the group `pgid` exists (tests use it)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # killpg(…, 0) also succeeds for zombies; look for a live member.
    return any(group == pgid for _, _, group in live_processes())


def wait_gone(pgid: int, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while group_alive(pgid):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True
