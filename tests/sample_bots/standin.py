"""A stand-in referee for testing a bot in another language on its own: a
real grpc.aio server on a unix socket that sends a match start, the given
decision requests one by one (each after the bot's previous message), and
the match end, and keeps everything the bot sent. Other endings: `refused`
(refused right after the hello) and `cut` (the stream ends after the
requests, with no match end). Also: a whole match of a bot through the
real referee, checked the same way for every language."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import grpc

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.replay import check
from arena.sandbox.botfile import load_bot
from arena.wire.gen.arena.v1 import arena_pb2 as pb
from arena.wire.gen.arena.v1 import arena_pb2_grpc as pb_grpc


class StandIn(pb_grpc.RefereeServicer):
    def __init__(self, requests: Sequence[pb.DecisionRequest], ending: str = "match_end") -> None:
        self.requests = list(requests)
        self.ending = ending
        self.received: list[pb.BotMessage] = []

    async def Play(
        self, request_iterator: AsyncIterator[pb.BotMessage], context: object
    ) -> AsyncIterator[pb.RefereeMessage]:
        incoming = request_iterator.__aiter__()
        self.received.append(await incoming.__anext__())
        if self.ending == "refused":
            yield pb.RefereeMessage(refused="seat 2 is already taken")
            return
        yield pb.RefereeMessage(match_start=pb.MatchStart(protocol_version=2, match_id="t", seat=2))
        for request in self.requests:
            yield pb.RefereeMessage(decision=request)
            self.received.append(await incoming.__anext__())
        if self.ending == "match_end":
            yield pb.RefereeMessage(match_end=pb.MatchEnd(totals=[0, 0, 0], reason="complete"))


Talk = tuple[int, list[pb.BotMessage], str]  # exit status, messages sent (hello first), stderr


def talk(argv: Sequence[str], cwd: Path, requests: Sequence[pb.DecisionRequest],
         env: dict[str, str] | None = None, ending: str = "match_end") -> Talk:
    """Run the bot `argv` in `cwd` against a StandIn with `requests`."""
    return asyncio.run(_talk(argv, cwd, requests, env or {}, ending))


async def _talk(argv: Sequence[str], cwd: Path, requests: Sequence[pb.DecisionRequest],
                extra_env: dict[str, str], ending: str) -> Talk:
    server = grpc.aio.server()
    stand_in = StandIn(requests, ending)
    pb_grpc.add_RefereeServicer_to_server(stand_in, server)
    with tempfile.TemporaryDirectory() as tmp:
        address = f"unix:{tmp}/referee.sock"
        server.add_insecure_port(address)
        await server.start()
        env = {**os.environ, "ARENA_ADDRESS": address, "ARENA_TOKEN": "secret-token", **extra_env}
        bot = await asyncio.create_subprocess_exec(*argv, cwd=cwd, env=env,
                                                   stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(bot.communicate(), timeout=60)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
            await server.stop(grace=0.5)
    assert bot.returncode is not None
    return bot.returncode, stand_in.received, err.decode(errors="replace")


def assert_plays_a_whole_match(folder: Path, tmp: Path) -> None:
    """The bot in `folder` plays a whole Czech match against the greedy and
    random sample bots through the real referee, with no fault, and the
    replay re-plays to the same totals."""
    samples = Path(__file__).resolve().parents[2] / "sample_bots"
    bot = load_bot(folder)
    result = run_match(MatchSpec(
        match_id=bot.name, bots=(bot, load_bot(samples / "greedy"), load_bot(samples / "random")),
        seed=8, rules_preset="czech", rules_options=(("target", 500),), sandbox="process",
        work_dir=str(tmp), replay_path=str(tmp / f"{bot.name}.jsonl"),
        time_control=TimeControl(per_move=5.0, bank=20.0, startup=30.0),
    ))
    assert result.reason == "complete"
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    assert result.seats[0].bot == bot.name and result.seats[0].decisions > 0
    assert check(result.replay_path) == tuple(s.total for s in result.seats)
