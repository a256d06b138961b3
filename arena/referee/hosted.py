"""Seats played by code of this process instead of a bot program: a person's
browser bridge (arena/web/human) is the one such host.

A hosted seat is still started like a bot (docs/people.md):
the referee calls `start_bot` with the seat's ARENA_ADDRESS and ARENA_TOKEN,
and the host connects over gRPC with that token like any bot. Nothing in the
referee's clocks, faults or hidden-information rules changes for it; only
the start differs: no process is spawned, a coroutine is started on the
event loop the host registered.

    key = register_host(starter, loop)           # starter(env) -> coroutine
    bot = hosted_bot("alice", key)               # a BotSpec for MatchSpec.bots
    ...
    unregister_host(key)

The registry is process-local: a MatchSpec with a hosted seat can only be
played in the process that registered its host (not in a worker pool).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from arena.manifest import BotSpec
from arena.sandbox import freezer
from arena.sandbox.api import SandboxError
from arena.sandbox.logcap import CappedLog

# bot.run of a hosted seat: the marker, then the host's key.
_MARK = "arena:hosted"
# The level a hosted seat runs "at": outside any sandbox, but arena code, so
# it does not make the other seats' sockets reachable (match.py `_private`).
HOSTED_LEVEL = "human"

Starter = Callable[[Mapping[str, str]], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class _Host:
    starter: Starter
    loop: asyncio.AbstractEventLoop


_HOSTS: dict[str, _Host] = {}
_LOCK = threading.Lock()


def register_host(starter: Starter, loop: asyncio.AbstractEventLoop) -> str:
    """Register a seat host; returns its key (for `hosted_bot`)."""
    key = secrets.token_hex(8)
    with _LOCK:
        _HOSTS[key] = _Host(starter, loop)
    return key


def unregister_host(key: str) -> None:
    with _LOCK:
        _HOSTS.pop(key, None)


def hosted_bot(name: str, key: str, version: str = "human", language: str = "human") -> BotSpec:
    """The BotSpec of a hosted seat (no folder, no program, no content hash)."""
    return BotSpec(name=name, version=version, language=language, path="", run=(_MARK, key))


def hosted_key(bot: BotSpec) -> str | None:
    """The host key of a hosted seat's BotSpec, None for a bot program."""
    if len(bot.run) == 2 and bot.run[0] == _MARK:
        return bot.run[1]
    return None


class HostedHandle:
    """A BotHandle (arena.sandbox.api) over a coroutine running on the host's
    loop. Callable from any thread, as the referee calls handles from worker
    threads: poll and wait read a concurrent future; stop cancels the task."""

    level = HOSTED_LEVEL
    pid: int | None = None
    uid: int | None = None
    reaches_others = False  # arena code: it connects to its own seat's socket only

    def __init__(self, future: concurrent.futures.Future[None], loop: asyncio.AbstractEventLoop) -> None:
        self._future = future
        self._loop = loop
        self.violations: list[str] = []
        # Never paused while others decide: it is not a program on the CPU
        # slot's cores, and a person thinks on their own clock anyway.
        self.pauser = freezer.Pauser()
        self.log: CappedLog | None = None  # a person prints nothing

    def owns(self, pid: int, _uid: int) -> bool:
        """Its connection comes from this very process (the referee's gate
        asks the seat's own handle first: two hosted seats share the pid)."""
        return pid == os.getpid()

    def poll(self) -> int | None:
        if not self._future.done():
            return None
        if self._future.cancelled() or self._future.exception() is not None:
            return 1
        return 0

    def wait(self, timeout: float | None = None) -> int | None:
        done, _ = concurrent.futures.wait((self._future,), timeout)
        return self.poll() if done else None

    def stop(self) -> None:
        if not self._future.done():
            try:
                self._loop.call_soon_threadsafe(self._future.cancel)
            except RuntimeError:  # the loop is closed: nothing runs any more
                return

    def cleanup(self) -> None:
        self.stop()
        if not self._loop.is_closed():
            self.wait(5.0)


def start_hosted(bot: BotSpec, env: Mapping[str, str]) -> HostedHandle:
    """Start the hosted seat `bot` with the referee's environment for it."""
    key = hosted_key(bot)
    with _LOCK:
        host = _HOSTS.get(key or "")
    if host is None:
        raise SandboxError(f"{bot.label}: no seat host {key!r} in this process")
    future = asyncio.run_coroutine_threadsafe(host.starter(dict(env)), host.loop)
    return HostedHandle(future, host.loop)
