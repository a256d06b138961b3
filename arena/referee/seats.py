"""One seat of a match: its token, its stream, its clock, its faults.

The gRPC handler (server.py) feeds everything a bot sends into the seat's
`inbox` (raw bytes, then `DISCONNECTED` when the stream ends) with
`deliver`; the match loop (match.py) takes it with `receive`, which has a
deadline. That keeps the stream's read side in one task: timing out on the
inbox never cancels a gRPC read (docs/protocol.md#connecting). It must not:
after a cancelled grpc.aio server read, every later read of that stream
returns EOF, so a bot that was only late would look disconnected. Awaiting
the read on the match loop would be cheaper (docs/performance.md, "Where
the floor is"), but only with a cancellable read.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from arena.manifest import BotSpec
from arena.referee.marks import Mark
from arena.referee.spec import (
    FAULT_KINDS,
    GONE_STALLED,
    GONE_WRITE_FAILED,
    FaultPolicy,
    TimeControl,
)
from arena.sandbox.api import BotHandle
from arena.wire import codec

log = logging.getLogger("arena.referee")


class _Disconnected:
    def __repr__(self) -> str:
        return "DISCONNECTED"


DISCONNECTED = _Disconnected()


@dataclass(frozen=True)
class Oversized:
    """A message over the size limit, dropped on arrival: only its size is kept,
    so that a bot cannot park megabytes in the inbox (server.MESSAGE_LIMIT)."""

    size: int


Inbound = bytes | _Disconnected | Oversized
# Seconds (beyond the per-move time) a write to a bot may wait for flow control.
WRITE_TIMEOUT = 2.0


class StreamWriter(Protocol):
    async def write(self, message: bytes) -> None: ...


@dataclass
class Seat:
    index: int
    bot: BotSpec
    token: str
    time_control: TimeControl
    inbox: deque[tuple[float, Inbound]] = field(default_factory=deque)  # (arrival, item), not yet received
    waiter: asyncio.Future[None] | None = None            # set while `receive` waits
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)  # match over: end the stream
    writer: StreamWriter | None = None
    outbox: deque[bytes] = field(default_factory=deque)  # posted, not yet written, in order
    drainer: asyncio.Task[None] | None = None             # the task writing `outbox`
    pending: list[bytes] = field(default_factory=list)  # Events not sent yet, in order (codec.event_field)
    encoder: codec.ObservationEncoder = field(default_factory=codec.ObservationEncoder)
    stale: int = 0                   # messages that answered nothing (see server.INBOX_LIMIT)
    claimed: bool = False
    turn_notices: bool = False       # its Hello asked for Turn messages (loop.py)
    last_turn: bytes = b""           # the last Turn message posted to it (loop.py)
    alive: bool = False              # stream open and writable
    gone_why: str = ""               # why a write found the stream gone ("" if none did)
    handle: BotHandle | None = None
    level: str = "process"
    log_path: str = ""
    marks: list[Mark] = field(default_factory=list)  # where each request met its log (marks.py)
    # clock (not a rule of the game: docs/protocol.md#time-control)
    bank: float = 0.0
    seq: int = 0
    # statistics and faults
    decisions: int = 0               # asked and answered, faulty answers included
    moves: int = 0                   # answered with a legal action
    time_total: float = 0.0
    time_max: float = 0.0
    strikes: int = 0
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    fault_log: list[str] = field(default_factory=list)
    forfeited: bool = False
    forfeit_reason: str = ""

    def __post_init__(self) -> None:
        self.bank = self.time_control.bank

    @property
    def playing(self) -> bool:
        """True while the bot itself decides for this seat."""
        return not self.forfeited and self.alive

    def _count_fault(self, kind: str, line: str) -> None:
        self.faults[kind] = self.faults.get(kind, 0) + 1
        self.fault_log.append(line)
        log.info("seat %d (%s): %s", self.index, self.bot.label, line)

    def record_fault(self, kind: str, line: str, policy: FaultPolicy) -> bool:
        """Count one fault; True if the seat forfeits now (spec.FaultPolicy)."""
        self._count_fault(kind, line)
        if self.forfeited:
            return False
        self.strikes += 1
        # A crashed or disconnected bot cannot answer again: it forfeits at once.
        if kind == "crash" or policy.mode == "forfeit" or self.strikes >= policy.max_strikes:
            self.forfeit(line if kind == "crash" else f"forfeit after {self.strikes} fault(s): {line}")
            return True
        return False

    def forfeit_now(self, kind: str, line: str) -> None:
        """Count one fault that forfeits the seat whatever the policy (no
        Hello within the start-up limit, flooding the referee)."""
        self._count_fault(kind, line)
        self.forfeit(line)

    def forfeit(self, reason: str) -> None:
        if not self.forfeited:
            self.forfeited = True
            self.forfeit_reason = reason
            log.info("seat %d (%s) forfeits: %s", self.index, self.bot.label, reason)

    def deliver(self, item: Inbound) -> None:
        """Hand one inbound item to the match (waking `receive` if it waits),
        stamped with its arrival on the referee's monotonic clock."""
        self.inbox.append((time.monotonic(), item))
        if self.waiter is not None:
            _wake(self.waiter)

    async def receive(self, deadline: float) -> tuple[float, Inbound]:
        """The next inbound item, oldest first, with its arrival time
        (time.monotonic()); TimeoutError if there is none by `deadline`.

        An item may be handed back after `deadline` when it arrived in the
        loop turn that the deadline passed in: the caller judges by its
        arrival time, which is the bot's, not by when the match loop got
        to it, which is the referee's.

        A future and a loop timer rather than `asyncio.Queue` under
        `asyncio.timeout`: this wait is on every decision's critical path,
        and the plain future costs a fraction of the two."""
        if not self.inbox:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            loop = asyncio.get_running_loop()
            waiter = self.waiter = loop.create_future()
            timer = loop.call_later(remaining, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self.waiter = None
            if not self.inbox:
                raise TimeoutError
        return self.inbox.popleft()

    def post(self, data: bytes) -> bool:
        """Queue one serialized RefereeMessage for this seat without waiting
        for gRPC to take it; False if the seat's stream is gone.

        Messages to one seat are written in the order posted, by one drain
        task at a time (a gRPC stream takes one write at a time). The match
        loop does not wait on these writes: a deal result to two seats does
        not hold up the next request to the third. (A decision request is
        written with `send_now`.) A write failure surfaces as DISCONNECTED in
        the inbox, where the match loop looks."""
        if not self.alive or self.writer is None:
            return False
        self.outbox.append(data)
        if self.drainer is None or self.drainer.done():
            self.drainer = asyncio.get_running_loop().create_task(self._drain())
        return True

    async def send_now(self, data: bytes) -> bool:
        """Write `data` on the caller's task, unless messages posted before it
        are still queued (then it is posted behind them, in order); False if
        the seat's stream is gone.

        For a decision request: the match loop waits for the reply next in
        any case, and a write that gRPC takes at once costs less awaited here
        than handed to a drain task (a task created and run per request: about
        a tenth of the stream handling's cost per decision, docs/performance.md,
        tenth round). A write that stalls is bounded as in `_write`, so a bot
        that stops reading holds the match no longer than that bound."""
        if self.outbox or (self.drainer is not None and not self.drainer.done()):
            return self.post(data)
        return await self._write(data)

    async def flush(self) -> bool:
        """Wait until everything posted is written (or the seat is gone)."""
        while self.drainer is not None and not self.drainer.done():
            await asyncio.wait((self.drainer,))
        return self.alive

    async def send(self, data: bytes) -> bool:
        """Post `data` and wait until it (and all before it) is written."""
        return self.post(data) and await self.flush()

    async def _drain(self) -> None:
        while self.outbox:
            if not await self._write(self.outbox.popleft()):
                self.outbox.clear()

    async def _write(self, data: bytes) -> bool:
        """Write one message; False (and the seat marked gone) if the stream
        is no longer writable. Never raises.

        A write completes as soon as gRPC has taken the message, unless the
        bot stopped reading and flow control is exhausted: then it would wait
        forever, so it is bounded, and a bot that does not read is gone."""
        if not self.alive or self.writer is None:
            return False
        # A loop timer that cancels this task, as asyncio.timeout would, at a
        # fraction of its cost: the write is on every decision's critical path.
        task = asyncio.current_task()
        assert task is not None
        stalled: list[bool] = []

        def stall() -> None:
            stalled.append(True)
            task.cancel()

        limit = WRITE_TIMEOUT + self.time_control.per_move
        timer = asyncio.get_running_loop().call_later(limit, stall)
        try:
            await self.writer.write(data)
            return True
        except asyncio.CancelledError:
            if not stalled:
                raise
            # Our own timer cancelled the task; whoever runs on it (the match
            # loop, through `send_now`) goes on as if nothing was cancelled.
            task.uncancel()
            why = f"{GONE_STALLED} (a write waited {limit:g}s)"
        except Exception as exc:  # noqa: BLE001 - any transport failure is a disconnect
            why = f"{GONE_WRITE_FAILED}: {exc}"
        finally:
            timer.cancel()
        log.info("seat %d: %s", self.index, why)
        self.gone_why = why
        self.alive = False
        self.deliver(DISCONNECTED)
        return False

    def add_time(self, elapsed: float) -> None:
        """Book one answered decision on the clock (Fischer bank) and the stats.

        The count of messages that answered nothing starts again: flooding is
        many of them between two answers, not a few (a bot that sends each
        reply twice) summed over a long match."""
        self.stale = 0
        tc = self.time_control
        if elapsed > tc.per_move:
            self.bank = max(0.0, self.bank - (elapsed - tc.per_move))
        self.bank += tc.increment
        self.decisions += 1
        self.moves += 1
        self.time_total += elapsed
        self.time_max = max(self.time_max, elapsed)

    def fault_counts(self) -> tuple[tuple[str, int], ...]:
        return tuple((k, self.faults.get(k, 0)) for k in FAULT_KINDS)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
