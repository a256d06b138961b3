"""The adversaries' helpers that need no gRPC (importing it is slow, and a
flooder wants to be quicker than the other seats' Hello)."""

from __future__ import annotations

import glob
import os
import sys


def report(what: str, result: str) -> None:
    print(f"ATTACK {what}: {result}", file=sys.stderr, flush=True)


def other_sockets(own: str) -> list[str]:
    """Paths of the other seats' referee sockets within reach of the bot
    whose socket is `own` (each seat's socket sits in a folder of its own,
    side by side)."""
    pattern = os.path.join(os.path.dirname(os.path.dirname(own)), "*", "*.sock")
    return sorted(p for p in glob.glob(pattern) if p != own)
