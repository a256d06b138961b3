"""One decision of the game loop (`GameLoop.decide`) over a seat whose
stream is in this process (arena.referee.MemoryWriter), the seat's own
stream handling kept: the clock judges a reply by when it arrived, and a
stream that ended between two decisions is recorded like a crash while
deciding. (The same faults with real bot processes: test_faults.py.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from arena.game import new_game
from arena.referee import GameLoop, MatchSpec, MemoryWriter, Seat, TimeControl, build_rules
from arena.sandbox.botfile import BotSpec
from arena.wire.codec import pb

PER_MOVE = 0.5
# Longer than the whole limit of a decision (PER_MOVE, no bank).
PAST_THE_LIMIT = 0.8


def first_legal_reply(request: bytes) -> bytes:
    asked = pb.RefereeMessage.FromString(request).decision
    return pb.BotMessage(reply=pb.Reply(seq=asked.seq, action=asked.legal_actions[0])).SerializeToString()


def decide(bot: BotSpec, wire: Callable[[Seat], MemoryWriter] | None) -> tuple[Seat, tuple[object, ...]]:
    """Seat 0's first decision of a standard game; `wire` makes its stream
    (None: the stream is already gone, the bot never forfeited)."""
    spec = MatchSpec(match_id="decide", bots=(bot, bot, bot), seed=3,
                     time_control=TimeControl(per_move=PER_MOVE, bank=0.0, increment=0.0))
    seats = [Seat(i, b, "", spec.seat_time_control(i)) for i, b in enumerate(spec.bots)]
    loop = GameLoop(build_rules(spec), spec.seed, seats, policy=spec.fault_policy)
    game = new_game(loop.rules, seed=3)
    assert game.to_act is not None
    seat = seats[game.to_act]
    seat.claimed = True
    if wire is not None:
        seat.alive = True
        seat.writer = wire(seat)
    obs = game.observation(seat.index).as_mapping()

    async def run() -> tuple[object, ...]:
        return await loop.decide(seat, obs, game.legal_actions())

    return seat, asyncio.run(run())


def test_a_reply_that_arrived_in_time_is_on_time_however_late_the_loop_takes_it(
    random_bot: BotSpec,
) -> None:
    def answer_then_stall(seat: Seat) -> MemoryWriter:
        def on_write(request: bytes) -> None:
            seat.deliver(first_legal_reply(request))
            time.sleep(PAST_THE_LIMIT)  # the referee, not the bot, is slow now
        return MemoryWriter(on_write)

    seat, (_action, fault, line, elapsed) = decide(random_bot, answer_then_stall)
    assert (fault, line) == (None, "")
    assert isinstance(elapsed, float) and elapsed < PER_MOVE
    assert seat.faults["timeout"] == 0 and seat.decisions == 1


def test_a_reply_that_arrived_after_the_deadline_is_a_timeout_even_if_it_is_waiting(
    random_bot: BotSpec,
) -> None:
    def stall_then_answer(seat: Seat) -> MemoryWriter:
        def on_write(request: bytes) -> None:
            time.sleep(PAST_THE_LIMIT)  # the bot is slow; its reply lands in the inbox at once after
            seat.deliver(first_legal_reply(request))
        return MemoryWriter(on_write)

    seat, (_action, fault, line, _elapsed) = decide(random_bot, stall_then_answer)
    assert fault == "timeout"
    assert line == f"decision 1: no reply within {PER_MOVE:.3f}s"
    assert seat.faults["timeout"] == 1 and seat.bank == 0.0


def test_a_stream_gone_between_decisions_is_a_crash_of_the_decision_it_missed(
    random_bot: BotSpec,
) -> None:
    seat, (_action, fault, line, elapsed) = decide(random_bot, None)
    assert fault == "crash"
    # The same form as a crash while deciding: the decision's number, then why.
    assert line == "decision 1: closed the stream"
    assert elapsed == 0.0
    assert seat.forfeited and seat.fault_log == [line] and seat.faults["crash"] == 1
