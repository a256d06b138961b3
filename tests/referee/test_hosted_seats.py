"""Hosted seats (arena.referee.hosted) and per-seat time controls.

A hosted seat is started by the referee like a bot (ARENA_ADDRESS and
ARENA_TOKEN), connects over real gRPC, and plays under its own time control
while the bot processes beside it keep the match's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import grpc
import pytest

from arena.referee import MatchResult, MatchSpec, TimeControl, play_match
from arena.referee.hosted import hosted_bot, register_host, unregister_host
from arena.referee.replay import check, read_replay
from arena.sandbox.botfile import BotSpec
from arena.wire.codec import pb

pytestmark = pytest.mark.slow

THINK = 1.5  # the hosted seat's first decision takes this long


class SlowFirst:
    """A hosted seat that thinks THINK seconds on its first decision, then plays the first legal action."""

    def __init__(self) -> None:
        self.start: pb.MatchStart | None = None
        self.decisions = 0
        self.env: dict[str, str] = {}

    async def play(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        async with grpc.aio.insecure_channel(env["ARENA_ADDRESS"]) as channel:
            call = channel.stream_stream(
                "/arena.v1.Referee/Play", request_serializer=pb.BotMessage.SerializeToString,
                response_deserializer=pb.RefereeMessage.FromString)()
            await call.write(pb.BotMessage(hello=pb.Hello(token=env["ARENA_TOKEN"], bot_name="slow")))
            async for msg in call:
                body = msg.WhichOneof("body")
                if body == "match_start":
                    self.start = msg.match_start
                elif body == "decision":
                    self.decisions += 1
                    if self.decisions == 1:
                        await asyncio.sleep(THINK)
                    await call.write(pb.BotMessage(reply=pb.Reply(
                        seq=msg.decision.seq, text=msg.decision.legal_texts[0])))
                elif body == "match_end":
                    return


async def _play(bots: tuple[BotSpec, ...], tmp_path: Path, own: TimeControl | None,
                seat_bot: SlowFirst) -> MatchResult:
    key = register_host(seat_bot.play, asyncio.get_running_loop())
    try:
        spec = MatchSpec(
            match_id="hosted", bots=(hosted_bot("slow", key), *bots), seed=3,
            rules_options=(("max_deals", 1),), sandbox="process", work_dir=str(tmp_path),
            replay_path=str(tmp_path / "m.jsonl"),
            time_control=TimeControl(per_move=1.0, bank=0.0),
            seat_time=((0, own),) if own else (),
        )
        return await play_match(spec)
    finally:
        unregister_host(key)


def test_a_hosted_seat_plays_under_its_own_time_control(random_bot: BotSpec, tmp_path: Path) -> None:
    seat = SlowFirst()
    own = TimeControl(per_move=THINK + 8.0, bank=0.0, increment=0.0)
    result = asyncio.run(_play((random_bot, random_bot), tmp_path, own, seat))
    hosted = result.seats[0]
    assert hosted.status == "ok" and dict(hosted.faults) == dict.fromkeys(dict(hosted.faults), 0)
    assert hosted.sandbox == "human" and hosted.bot == "slow" and hosted.time_max >= THINK
    assert seat.decisions == hosted.decisions > 0
    # It was started like a bot: the referee's address and its own token.
    assert seat.env["ARENA_ADDRESS"].startswith("unix:") and len(seat.env["ARENA_TOKEN"]) >= 24
    # Its match start carries its own time control; the bots keep the match's.
    assert seat.start is not None and seat.start.time_control.per_move_s == own.per_move
    rep = read_replay(tmp_path / "m.jsonl")
    assert rep.header["time_control"]["per_move"] == 1.0
    assert rep.header["seat_time_controls"]["0"]["per_move"] == own.per_move
    assert rep.header["sandbox"][0] == "human"
    assert check(tmp_path / "m.jsonl") == tuple(s.total for s in result.seats)


def test_without_its_own_control_the_same_seat_times_out(random_bot: BotSpec, tmp_path: Path) -> None:
    """The control above has teeth: under the match's 1 s the long think is a timeout."""
    result = asyncio.run(_play((random_bot, random_bot), tmp_path, None, SlowFirst()))
    assert dict(result.seats[0].faults)["timeout"] == 1


def test_a_hosted_seat_with_no_host_is_a_crash_not_an_error(random_bot: BotSpec, tmp_path: Path) -> None:
    spec = MatchSpec(match_id="nohost", bots=(hosted_bot("ghost", "nobody"), random_bot, random_bot),
                     seed=3, rules_options=(("max_deals", 1),), sandbox="process",
                     work_dir=str(tmp_path))
    result = asyncio.run(play_match(spec))
    ghost = result.seats[0]
    assert ghost.status == "forfeit" and dict(ghost.faults)["crash"] == 1
    assert "no seat host 'nobody'" in ghost.fault_log[0]
