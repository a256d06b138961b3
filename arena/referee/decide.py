"""One decision of one seat: the request out, the reply in, the fault if any.

`Decider.decide` sends a seat its DecisionRequest (composed from cached
serialized parts, codec.decision_message), waits for the reply on the seat's
clock, and turns whatever came back into an action: the legal one it names,
or the default action with a fault (spec.FAULT_KINDS). Faults are data, never
exceptions (match.py's docstring lists them).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf.message import DecodeError

from arena.game.actions import Action, Pass
from arena.referee.marks import Mark
from arena.referee.pondering import Pacer
from arena.referee.seats import DISCONNECTED, Oversized, Seat
from arena.referee.server import INBOX_LIMIT, MESSAGE_LIMIT
from arena.referee.spec import GONE_BEFORE, GONE_CLOSED, GONE_EXITED, FaultPolicy
from arena.wire import codec
from arena.wire.codec import pb

log = logging.getLogger("arena.referee")


def default_action(legal: Sequence[Action]) -> Action:
    """What a faulty or forfeited seat plays: pass where legal (it takes on
    nothing), else the first legal action in the engine's sorted order."""
    for a in legal:
        if isinstance(a, Pass):
            return a
    return legal[0]



def gone_why(seat: Seat) -> str:
    """Why a seat's stream ended: the bot's exit status if it has exited,
    else what the transport saw."""
    code = seat.handle.poll() if seat.handle is not None else None
    return f"{GONE_EXITED} {code}" if code is not None else seat.gone_why or GONE_CLOSED



def stop_bot(seat: Seat) -> None:
    """Stop the seat's bot now, off the event loop (a stop can wait for the
    bot's grace period); the match cleans up after it at the end. A seat
    without a process (an in-memory one, memory.py) has nothing to stop."""
    if seat.handle is not None:
        asyncio.get_running_loop().run_in_executor(None, seat.handle.stop)


class Decider:
    """One decision at a time for the seats of a match, under its fault
    policy and its pacer (pondering.py)."""

    def __init__(self, policy: FaultPolicy, pacer: Pacer) -> None:
        self.policy = policy
        self.pacer = pacer

    async def decide(
        self, seat: Seat, obs: Mapping[str, Any] | None, legal: Sequence[Action], n: int = -1,
    ) -> tuple[Action, str | None, str, float]:
        """The seat's action for this decision (action `n` of the match),
        with the fault (kind, line) if any."""
        if not seat.playing or obs is None:
            if seat.forfeited:
                return default_action(legal), None, "", 0.0
            # The stream ended between two decisions: this is the decision it
            # missed, recorded like a crash while deciding (in the replay too).
            seat.seq += 1
            line = f"decision {seat.seq}: {gone_why(seat)}"
            self.fault(seat, "crash", line)
            return default_action(legal), "crash", line, 0.0
        tc = seat.time_control
        seat.seq += 1
        seq = seat.seq
        limit = tc.per_move + seat.bank
        # Composed from cached serialized parts: the same bytes as building the
        # DecisionRequest message and serializing it (codec.decision_message).
        data = codec.decision_message(
            seq, seat.encoder.encode(obs).SerializeToString(), legal, limit, seat.bank, seat.pending,
        )
        seat.pending.clear()
        t0 = await self.pacer.turn(seat)  # its clocks started, then the seat thawed
        deadline = t0 + limit
        if seat.handle is not None and seat.handle.log is not None:
            # Where its output stands as the request goes out (marks.py).
            seat.marks.append(Mark(n=n, seq=seq, at=seat.handle.log.position(),
                                   limit=limit, bank=seat.bank))
        if not await seat.send_now(data):
            return self._faulty(seat, legal, "crash",
                                f"decision {seq}: {seat.gone_why or GONE_BEFORE}",
                                time.monotonic() - t0)
        while True:
            try:
                arrived, item = await seat.receive(deadline)
                if arrived > deadline:
                    raise TimeoutError
            except TimeoutError:
                seat.bank = 0.0
                return self._faulty(seat, legal, "timeout",
                                    f"decision {seq}: no reply within {limit:.3f}s", limit)
            elapsed = arrived - t0
            if item is DISCONNECTED and seat.forfeited:  # expelled while it decided (_flooded)
                return default_action(legal), "malformed", seat.forfeit_reason, elapsed
            if item is DISCONNECTED:
                return self._faulty(seat, legal, "crash", f"decision {seq}: {gone_why(seat)}", elapsed)
            if isinstance(item, Oversized):
                return self._faulty(seat, legal, "malformed",
                                    f"decision {seq}: message of {item.size} bytes (limit {MESSAGE_LIMIT})", elapsed)
            assert isinstance(item, bytes)
            if seat.stale > INBOX_LIMIT:
                dropped, seat.stale = seat.stale, 0
                return self._faulty(seat, legal, "malformed",
                                    f"decision {seq}: flooded the referee ({dropped} messages "
                                    "that answer nothing)", elapsed)
            try:
                msg = pb.BotMessage.FromString(item)
            except DecodeError:
                return self._faulty(seat, legal, "malformed", f"decision {seq}: not a BotMessage", elapsed)
            body = msg.WhichOneof("body")
            if body != "reply":
                return self._faulty(seat, legal, "malformed",
                                    f"decision {seq}: expected a Reply, got {body}", elapsed)
            reply = msg.reply
            reply_seq = reply.seq
            if reply_seq < seq:
                log.debug("seat %d: dropped a late reply for seq %d", seat.index, reply_seq)
                seat.stale += 1
                continue
            if reply_seq > seq:
                return self._faulty(seat, legal, "malformed",
                                    f"decision {seq}: reply names future seq {reply_seq}", elapsed)
            # The usual case: a structured action byte for byte equal to one
            # of the legal actions' messages is that action. Anything else
            # goes the general way (parse, then check it is legal).
            if reply.HasField("action"):
                found = codec.sent_action(reply.action.SerializeToString())
                if found is not None and found in legal:
                    seat.add_time(elapsed)
                    return found, None, "", elapsed
            try:
                action = codec.reply_to_action(reply)
            except ValueError as exc:
                return self._faulty(seat, legal, "malformed", f"decision {seq}: {exc}", elapsed)
            if action not in set(legal):
                return self._faulty(seat, legal, "illegal",
                                    f"decision {seq}: {action} is not legal (legal: "
                                    f"{', '.join(str(a) for a in legal[:12])}{' ...' if len(legal) > 12 else ''})",
                                    elapsed)
            seat.add_time(elapsed)
            return action, None, "", elapsed

    def _faulty(self, seat: Seat, legal: Sequence[Action], kind: str, line: str,
                elapsed: float) -> tuple[Action, str | None, str, float]:
        # A faulty answer still spent its time: overtime comes out of the bank
        # as for a good one (no increment), or a bot could think on its bank
        # for free and then send garbage.
        overtime = elapsed - seat.time_control.per_move
        if overtime > 0:
            seat.bank = max(0.0, seat.bank - overtime)
        seat.decisions += 1
        seat.time_total += elapsed
        seat.time_max = max(seat.time_max, elapsed)
        self.fault(seat, kind, line)
        return default_action(legal), kind, line, elapsed

    def fault(self, seat: Seat, kind: str, line: str) -> None:
        if seat.record_fault(kind, line, self.policy):
            seat.alive = False
            seat.released.set()
            stop_bot(seat)  # it plays no more, and must not burn CPU
