"""Seats whose bots answer in this process: the referee without gRPC or bot
processes, for tests and for measuring the referee's own work.

    loop = in_memory(spec)                    # every seat plays first_legal
    final = asyncio.run(loop.play())          # the real game loop (loop.py)

A stand-in bot (`StandIn`) is a function from one serialized RefereeMessage
to the serialized BotMessage it answers with, or None for a message that
asks for nothing (a match start, a deal result, a turn notice). It gets
every message the loop sends its seat, in order, as a bot reading its
stream would; the messages are the referee's own bytes, the same as over
gRPC.

Two ways in, for two jobs:

- `MemorySeat`: the seat hands each message to its stand-in as it is
  posted and keeps the answer for the next `receive`. No drain task, no
  write timer, no waiting: what is left of a decision is the referee's game
  work (benchmarks/referee_work.py measures exactly that).
- `MemoryWriter`: a stream writer for an ordinary `Seat`, which keeps its
  own stream handling (the drain task, the write bound, the inbox and its
  deadline); the writer runs a callback on each written message. For tests
  of that handling, e.g. a reply that arrives late (tests/referee/test_decide.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

from arena.referee.loop import GameLoop
from arena.referee.pondering import Pacer
from arena.referee.replay import ReplayWriter
from arena.referee.rulechoice import build_rules
from arena.referee.seats import Inbound, Seat
from arena.referee.spec import MatchSpec
from arena.wire.codec import pb

StandIn: TypeAlias = Callable[[bytes], bytes | None]
# What a memory seat was sent: (seat, serialized RefereeMessage, it asked for a decision).
Posted: TypeAlias = tuple[int, bytes, bool]


def first_legal(data: bytes) -> bytes | None:
    """A stand-in bot that plays the first legal action it is offered: the
    message parsed as a bot would parse it; for a decision request, the
    serialized reply (else None)."""
    msg = pb.RefereeMessage.FromString(data)
    if msg.WhichOneof("body") != "decision":
        return None
    d = msg.decision
    return pb.BotMessage(reply=pb.Reply(seq=d.seq, action=d.legal_actions[0])).SerializeToString()


class _Unwritable:
    """A memory seat's writer: the seat never writes (its `post` hands the
    message over), but a seat with no writer counts as gone."""

    async def write(self, message: bytes) -> None:
        raise AssertionError("a memory seat never writes to a stream")


@dataclass(eq=False)
class MemorySeat(Seat):
    """A seat whose bot is `stand_in`, connected from the start. With
    `record`, every message posted to it is appended there (`Posted`), in
    the order of the whole match when the seats share one list."""

    stand_in: StandIn = first_legal
    record: list[Posted] | None = None
    _answer: bytes | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.alive = True
        self.claimed = True
        self.writer = _Unwritable()

    def post(self, data: bytes) -> bool:
        answer = self.stand_in(data)
        if answer is not None:
            self._answer = answer
        if self.record is not None:
            self.record.append((self.index, data, answer is not None))
        return True

    async def send_now(self, data: bytes) -> bool:
        return self.post(data)

    async def receive(self, deadline: float) -> tuple[float, Inbound]:
        """The stand-in's answer to the last request, at once (its time:
        the referee's clock now). A seat asked without having answered is a
        bug of the caller, not a timeout: it raises."""
        answer, self._answer = self._answer, None
        if answer is None:
            raise AssertionError(f"seat {self.index}: its stand-in has not answered")
        return time.monotonic(), answer


def memory_seats(spec: MatchSpec, stand_in: StandIn = first_legal,
                 record: list[Posted] | None = None) -> list[MemorySeat]:
    """One memory seat per bot of `spec`, each on its own time control."""
    return [MemorySeat(i, bot, "", spec.seat_time_control(i), stand_in=stand_in, record=record)
            for i, bot in enumerate(spec.bots)]


def in_memory(spec: MatchSpec, stand_in: StandIn = first_legal,
              record: list[Posted] | None = None) -> GameLoop:
    """The game loop of `spec` (its rules, seed, fault policy and pondering)
    over memory seats; no replay is kept."""
    seats = memory_seats(spec, stand_in, record)
    return GameLoop(build_rules(spec), spec.seed, seats, policy=spec.fault_policy,
                    pacer=Pacer(seats, spec.time_control.pondering), replay=ReplayWriter(""))


class MemoryWriter:
    """A stream writer that runs `on_write(message)` for each message the
    seat writes (seats.StreamWriter); give it to an ordinary Seat as its
    `writer` (and mark the seat `alive`) to drive the seat's own stream
    handling without gRPC."""

    def __init__(self, on_write: Callable[[bytes], None]) -> None:
        self.on_write = on_write

    async def write(self, message: bytes) -> None:
        self.on_write(message)
