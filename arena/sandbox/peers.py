"""Whose process is it: telling a bot's processes from everyone else's.

The referee learns the pid and uid of whoever connects to a seat's socket
(SO_PEERCRED, arena/referee/socket_gate.py) and asks each seat's handle whether
that process is its bot's (`BotHandle.owns`). The answer must not be one a
bot can forge:

- a bot running under a uid of its own (bwrap, and the process level when
  the arena runs as root): the peer's uid, which only the kernel sets;
- a bot running as the arena's own user: the peer descends from the bot's
  main process (a process cannot choose its parent). A child that detached
  itself (double fork) is no longer found and is refused, which harms only
  its own bot;
- a container: the peer's cgroup is the container's (the engine puts every
  process of a container in it; an unprivileged process cannot leave it).
"""

from __future__ import annotations


def parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descends_from(pid: int, root: int) -> bool:
    """True if `pid` is `root` or one of its descendants (now)."""
    seen = 0
    while pid > 1 and seen < 4096:
        if pid == root:
            return True
        parent = parent_of(pid)
        if parent is None:
            return False
        pid, seen = parent, seen + 1
    return False


def in_cgroup_named(pid: int, needle: str) -> bool:
    """True if a cgroup path of `pid` contains `needle` (a container id)."""
    if not needle:
        return False
    try:
        with open(f"/proc/{pid}/cgroup", encoding="utf-8", errors="replace") as f:
            return any(needle in line.split(":", 2)[-1] for line in f)
    except OSError:
        return False
