"""Shared part of the adversarial bots: play legally, attack, report.

The test copies this file, reach.py (the helpers that need no gRPC), one
attack script (as bot.py) and an `attack.json` (targets the attack should
try: a TCP port on 127.0.0.1, paths of other bots and of referee files, the
referee's pid) into a fresh bot folder. Every attack reports what happened on stderr, one line each:

    ATTACK <what>: <result>

so the test can check from the bot's log that the attack itself failed.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from reach import report  # the attack scripts import it from here too

from arena.sdk import Bot, run

HERE = os.path.dirname(os.path.abspath(__file__))
MB = 1024 * 1024


def config() -> dict[str, Any]:
    try:
        with open(os.path.join(HERE, "attack.json")) as f:
            data: dict[str, Any] = json.load(f)
            return data
    except OSError:
        return {}


def failure(exc: BaseException) -> str:
    """How an attempt failed, in words a test can match (errno names)."""
    import errno

    if isinstance(exc, OSError) and exc.errno is not None:
        return f"failed {errno.errorcode.get(exc.errno, exc.errno)} ({exc.strerror})"
    return f"failed {type(exc).__name__} ({exc})"


class Adversary(Bot):
    """Random legal play; `attack()` once at the first decision, `between()` after each."""

    name = "adversary"
    version = "1"

    def __init__(self) -> None:
        self.rng = random.Random(os.environ.get("ARENA_SEED", "0"))
        self.turns = 0
        self.config = config()

    def attack(self) -> None:
        pass

    def act(self, obs: Any) -> Any:
        self.turns += 1
        if self.turns == 1:
            self.attack()
        return self.rng.choice(obs.legal_actions)


def main(bot: Adversary) -> None:
    report("start", f"pid {os.getpid()} uid {os.getuid()} level {os.environ.get('ARENA_SANDBOX')}")
    raise SystemExit(run(bot))
