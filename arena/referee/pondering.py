"""Fair clocks: who may use the CPU while a seat decides, and what each decision cost in CPU.

`TimeControl.pondering = False` (the default): from the first decision
request of a match on, every playing bot but the one deciding is paused
(arena.sandbox.freezer: its cgroup frozen, or SIGSTOP), so a bot that burns
CPU between its turns takes nothing from the seat on the clock (the seats of
a match share the cores of its CPU slot). `turn(seat)` runs before the
seat's request is written: the others frozen first, then the seat thawed,
so some group stays frozen throughout (a cgroup v1 freezer is only cheap
that way, see freezer.py) and the clock starts with the bot already running.
A seat that decides again is not touched; the seat that just answered keeps
running until the next seat's turn, which is the referee's own work of a
few hundred µs.

What a frozen bot is sent (deal results) waits in its socket, in order, and
is read when it is thawed, before its next request: nothing is lost, the
stream stays up (the referee sends no keepalive pings, and a message this
small never fills HTTP/2 flow control), and frozen time is on nobody's
clock. Work a bot does on such a message is done on its next turn, so it
counts toward that decision. Before the match start is sent and from the
match end on, every bot runs: start-up, and the match-end hook and exit.

`pondering = True` keeps the bots running throughout (mechanism "off").

The CPU clock is read on every decision where the bot's cgroup has one
(v2 `cpu.stat`, v1 `cpuacct.usage`): CPU seconds the bot used from its turn
to the arrival of the reply being processed, beside the wall time. With
pondering off that is the decision's own CPU; with it on, it also holds
whatever the bot computes meanwhile for itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from arena.referee.seats import Seat
from arena.sandbox import freezer

OFF = "off"  # recorded as the mechanism when pondering is allowed


@dataclass
class CpuStats:
    decisions: int = 0     # decisions whose CPU time was read
    total: float = 0.0
    worst: float = 0.0


class Pacer:
    """The pondering policy of one match, over its seats."""

    def __init__(self, seats: Sequence[Seat], pondering: bool) -> None:
        self.seats = list(seats)
        self.pondering = pondering
        self.cpu = [CpuStats() for _ in self.seats]
        self._running: Seat | None = None   # the seat thawed last (None: all run)
        self._active = False                # between the first turn and `release`

    def mechanism(self, seat: Seat) -> str:
        """How `seat` is paused while others decide ("off": it is not)."""
        if self.pondering:
            return OFF
        return seat.handle.pauser.mechanism if seat.handle is not None else freezer.NONE

    async def turn(self, seat: Seat) -> float | None:
        """Before `seat`'s request: the other playing seats frozen, `seat`
        thawed. Returns the seat's CPU clock now (None where it has none)."""
        if not self.pondering and (self._running is not seat or not self._active):
            others = [s.handle.pauser for s in self.seats
                      if s is not seat and s.handle is not None and s.playing]
            me = seat.handle.pauser if seat.handle is not None else None
            if any(p.mechanism == freezer.DOCKER_PAUSE for p in [*others, *([me] if me else [])]):
                await asyncio.to_thread(_switch, others, me)  # a call to the engine: ~17 ms
            else:
                _switch(others, me)
            self._running = seat
            self._active = True
        return seat.handle.pauser.cpu_seconds() if seat.handle is not None else None

    def used(self, seat: Seat, since: float | None) -> float | None:
        """CPU seconds `seat` used since `turn` returned `since`; booked in its stats."""
        if since is None or seat.handle is None:
            return None
        now = seat.handle.pauser.cpu_seconds()
        if now is None:
            return None
        spent = max(0.0, now - since)
        stats = self.cpu[seat.index]
        stats.decisions += 1
        stats.total += spent
        stats.worst = max(stats.worst, spent)
        return spent

    async def release(self) -> None:
        """Every bot thawed: the match is over (or failed); they must read
        the match end, run their hooks and exit, or be stopped."""
        self._active = False
        self._running = None
        pausers = [s.handle.pauser for s in self.seats if s.handle is not None]
        if any(p.mechanism == freezer.DOCKER_PAUSE and p.frozen for p in pausers):
            await asyncio.to_thread(_thaw_all, pausers)
        else:
            _thaw_all(pausers)

    def totals(self, seat: Seat) -> tuple[float | None, float | None]:
        """(CPU seconds over the seat's decisions, its worst decision), None if never read."""
        stats = self.cpu[seat.index]
        if not stats.decisions:
            return None, None
        return round(stats.total, 6), round(stats.worst, 6)


def _switch(others: Sequence[freezer.Pauser], me: freezer.Pauser | None) -> None:
    for p in others:
        p.freeze()
    if me is not None:
        me.thaw()


def _thaw_all(pausers: Sequence[freezer.Pauser]) -> None:
    for p in pausers:
        p.thaw()
