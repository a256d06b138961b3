"""Fair clocks: who may use the CPU while a seat decides, and what each decision cost in CPU.

`TimeControl.pondering = False` (the default): from the first decision
request of a match on, every playing bot but the one deciding is paused
(arena.sandbox.freezer: its cgroup frozen, or SIGSTOP), so a bot that burns
CPU between its turns takes nothing from the seat on the clock (the seats of
a match share the cores of its CPU slot). `turn(seat)` runs just before the
seat's request is written: it starts the seat's clocks, wall and CPU, and
then thaws it, so everything the bot does from its thaw on is on its own
clock. Read after the thaw, it would not be: a thawed bot runs at once, and
one that spins several threads can keep the referee from its next line for
tens of ms (a burner's four threads on two cores: 10-40 ms a turn here,
once 0.2 s) - CPU that was on no decision's clock, taken before its own
request reached it, which is pondering. (The CPU clock is read while the
bot is still frozen, so that reading is exact.) `answered(seat)` freezes it
as soon as the referee takes up its answer, before the referee's own work
on it (a few hundred µs in which the bot would otherwise run beside the
next seat's start), and only then reads its CPU clock, so the decision's
CPU holds all the bot used until it stopped. A seat that decides twice in
a row is thus frozen and thawed in between: a switch costs a few µs, and
that keeps every other seat frozen at every moment, so some group stays
frozen throughout (a cgroup v1 freezer is only cheap that way, see
freezer.py).

What a frozen bot is sent (deal results) waits in its socket, in order, and
is read when it is thawed, before its next request: nothing is lost, the
stream stays up (the referee sends no keepalive pings, and a message this
small never fills HTTP/2 flow control), and frozen time is on nobody's
clock. Work a bot does on such a message is done on its next turn, so it
counts toward that decision. Before the match start is sent and from the
match end on, every bot runs: start-up, and the match-end hook and exit.

`pondering = True` keeps the bots running throughout (mechanism "off").

The CPU clock is read on every decision where the bot's cgroup has one
(v2 `cpu.stat`, v1 `cpuacct.usage`): CPU seconds the bot used from its thaw
to its freeze after the referee took up its answer, beside the wall time. With
pondering off that is the decision's own CPU; with it on, it also holds
whatever the bot computes meanwhile for itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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
        self._since: dict[int, float | None] = {}  # seat -> its CPU clock at its turn

    def mechanism(self, seat: Seat) -> str:
        """How `seat` is paused while others decide ("off": it is not)."""
        if self.pondering:
            return OFF
        return seat.handle.pauser.mechanism if seat.handle is not None else freezer.NONE

    async def turn(self, seat: Seat) -> float:
        """Before `seat`'s request: the other playing seats frozen (they are
        already, but for the first turn), the seat's clocks started, then the
        seat thawed. Returns the moment its wall clock starts (time.monotonic()).

        The thaw is on the seat's clock: a cgroup write of µs, or SIGCONT and
        a walk of its process tree. The docker engine's pause API is the
        exception: its call (17 ms, up to its client timeout when the engine
        is slow) is the engine's time, so that seat's wall clock starts after
        it (its CPU clock still before)."""
        me = seat.handle.pauser if seat.handle is not None else None
        if not self.pondering:
            # Already frozen but for the first turn: no call at all then.
            others = [s.handle.pauser for s in self.seats
                      if s is not seat and s.handle is not None and s.playing
                      and not s.handle.pauser.frozen]
            if others:
                await _run(_switch, others, None)
        self._since[seat.index] = me.cpu_seconds() if me is not None else None
        started = time.monotonic()
        if not self.pondering and me is not None:
            await _run(_switch, [], me)
            if me.mechanism == freezer.DOCKER_PAUSE:
                started = time.monotonic()
        return started

    async def answered(self, seat: Seat) -> float | None:
        """The seat's decision is over (answered, timed out or faulty): it is
        frozen at once, before the referee's own work on the answer, and the
        CPU seconds it used since `turn` (None where there is no clock, or no
        turn: a seat that was not playing) are booked and returned."""
        if not self.pondering and seat.handle is not None and seat.playing:
            await _run(_switch, [seat.handle.pauser], None)
        since = self._since.pop(seat.index, None)
        now = seat.handle.pauser.cpu_seconds() if seat.handle is not None else None
        if since is None or now is None:
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
        await _run(_thaw_all, [s.handle.pauser for s in self.seats if s.handle is not None])

    def totals(self, seat: Seat) -> tuple[float | None, float | None]:
        """(CPU seconds over the seat's decisions, its worst decision), None if never read."""
        stats = self.cpu[seat.index]
        if not stats.decisions:
            return None, None
        return round(stats.total, 6), round(stats.worst, 6)


async def _run(fn: Callable[..., None], pausers: Sequence[freezer.Pauser], *more: Any) -> None:
    """`fn(pausers, *more)` on the loop (a cgroup write: µs), or in a thread
    where one of them is the docker engine's pause (a call of ~17 ms)."""
    if any(p.mechanism == freezer.DOCKER_PAUSE for p in [*pausers, *more] if p is not None):
        await asyncio.to_thread(fn, pausers, *more)
    else:
        fn(pausers, *more)


def _switch(others: Sequence[freezer.Pauser], me: freezer.Pauser | None) -> None:
    for p in others:
        p.freeze()
    if me is not None:
        me.thaw()


def _thaw_all(pausers: Sequence[freezer.Pauser]) -> None:
    for p in pausers:
        p.thaw()
