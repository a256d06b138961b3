"""What the referee writes to every seat besides decision requests: the match
start, each deal's result and the match end, each carrying the events the
seat has pending (protocol minor version 2: events ride with the next message).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from arena.game import Rules
from arena.game.records import DealRecord
from arena.referee.seats import Seat
from arena.referee.spec import MatchResult
from arena.wire import codec
from arena.wire.codec import pb

PROTOCOL_VERSION = 2


def _with_pending(seat: Seat, msg: pb.RefereeMessage, part: pb.DealResult | pb.MatchEnd) -> bytes:
    """`msg` for this seat: `part` (inside `msg`) carries the seat's pending
    events, which happened before it (protocol minor version 2)."""
    pending, seat.pending = seat.pending, []
    if not pending:
        return msg.SerializeToString()
    del part.events[:]
    part.events.extend(codec.events_of(pending))  # once a deal: cheaper than keeping both forms
    data = msg.SerializeToString()
    del part.events[:]
    return data


def broadcast_deal(seats: Sequence[Seat], result: pb.DealResult) -> None:
    """Post a deal result to every playing seat, each with its own pending
    events. Not awaited: the seats' drain tasks write it (seats.Seat.post)."""
    msg = pb.RefereeMessage(deal_result=result)
    for seat in seats:
        if seat.playing:
            seat.post(_with_pending(seat, msg, msg.deal_result))


def send_match_start(match_id: str, rules: Rules, seats: Sequence[Seat]) -> None:
    """Post every playing seat its MatchStart: its seat, the table, the rules
    and its own time control (a person's may differ from the bots')."""
    rules_pb = codec.rules_to_pb(rules.preset, rules.options_text())
    infos = [pb.SeatInfo(seat=s.index, name=s.bot.name, version=s.bot.version) for s in seats]
    for seat in seats:
        if seat.playing:
            tc = seat.time_control
            msg = pb.RefereeMessage(match_start=pb.MatchStart(
                protocol_version=PROTOCOL_VERSION, match_id=match_id, seat=seat.index,
                seats=infos, rules=rules_pb, time_control=pb.TimeControl(
                    per_move_s=tc.per_move, bank_s=tc.bank, increment_s=tc.increment,
                    startup_s=tc.startup),
            ))
            seat.post(msg.SerializeToString())


async def send_match_end(seats: Sequence[Seat], result: MatchResult) -> None:
    """Every seat still connected gets the MatchEnd (with its pending events);
    returns when all of it is written."""
    end = pb.MatchEnd(
        totals=[s.total for s in result.seats], places=[s.place for s in result.seats],
        statuses=[s.status for s in result.seats], reason=result.reason,
    )
    msg = pb.RefereeMessage(match_end=end)
    for seat in seats:
        if seat.alive:
            seat.post(_with_pending(seat, msg, msg.match_end))
    await asyncio.gather(*(s.flush() for s in seats))


def deal_pb(d: DealRecord) -> pb.DealResult:
    msg = pb.DealResult(
        deal_number=d.deal_number, dealer=d.dealer, bid=d.bid, contract=d.contract, made=d.made,
        deal_scores=d.deal_scores, changes=d.changes, totals=d.totals, notes=d.notes,
    )
    if d.declarer is not None:
        msg.declarer = d.declarer
    return msg

