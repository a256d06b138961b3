"""The JavaScript sample bot: protocol handling against a stand-in referee,
and a whole match through the real one.

Needs Node.js and the bot's node_modules (`npm ci` in sample_bots/javascript,
which scripts/setup.sh runs); skipped, saying so, without them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.replay import check
from arena.sandbox.botfile import load_bot
from arena.wire.gen.arena.v1 import arena_pb2 as pb
from arena.wire.gen.arena.v1 import arena_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "sample_bots" / "javascript"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(not (JS / "node_modules" / "@grpc" / "grpc-js").is_dir(),
                       reason="run `npm ci` in sample_bots/javascript (scripts/setup.sh does)"),
]


class StandIn(pb_grpc.RefereeServicer):
    """Sends a match start, two decision requests and the match end."""

    def __init__(self) -> None:
        self.received: list[pb.BotMessage] = []

    async def Play(
        self, request_iterator: AsyncIterator[pb.BotMessage], context: object
    ) -> AsyncIterator[pb.RefereeMessage]:
        incoming = request_iterator.__aiter__()
        self.received.append(await incoming.__anext__())
        yield pb.RefereeMessage(match_start=pb.MatchStart(protocol_version=1, match_id="t", seat=2))
        asks = [
            (7, pb.Observation(seat=2, phase="bidding", hand=["AS", "9C"]), ["bid 110", "pass"]),
            (8, pb.Observation(seat=2, phase="play", hand=["AS", "9C"],
                               trick=[pb.TrickCard(seat=1, card="TS")]), ["play AS"]),
        ]
        for seq, obs, texts in asks:
            yield pb.RefereeMessage(decision=pb.DecisionRequest(
                seq=seq, observation=obs, legal_texts=texts, time_limit_s=5.0))
            self.received.append(await incoming.__anext__())
        yield pb.RefereeMessage(match_end=pb.MatchEnd(totals=[0, 0, 0], reason="complete"))


async def _talk_to_js_bot(proto_override: str | None) -> tuple[int, list[pb.BotMessage]]:
    server = grpc.aio.server()
    stand_in = StandIn()
    pb_grpc.add_RefereeServicer_to_server(stand_in, server)
    with tempfile.TemporaryDirectory() as tmp:
        address = f"unix:{tmp}/referee.sock"
        server.add_insecure_port(address)
        await server.start()
        env = {**os.environ, "ARENA_ADDRESS": address, "ARENA_TOKEN": "secret-token"}
        if proto_override:
            env["ARENA_PROTO"] = proto_override
        bot = await asyncio.create_subprocess_exec("node", "bot.js", cwd=JS, env=env)
        try:
            code = await asyncio.wait_for(bot.wait(), timeout=60)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
            await server.stop(grace=0.5)
    return code, stand_in.received


@pytest.mark.parametrize("override", [False, True], ids=["repo-proto", "ARENA_PROTO"])
def test_hello_replies_with_seq_and_clean_exit(override: bool, tmp_path: Path) -> None:
    proto = None
    if override:
        # As in a container: the .proto somewhere else, named by ARENA_PROTO.
        copy = tmp_path / "elsewhere" / "arena.proto"
        copy.parent.mkdir()
        shutil.copy(ROOT / "protocol" / "arena" / "v1" / "arena.proto", copy)
        proto = str(copy)
    code, received = asyncio.run(_talk_to_js_bot(proto))
    assert code == 0
    hello, first, second = received
    assert hello.WhichOneof("body") == "hello"
    assert hello.hello.token == "secret-token" and hello.hello.protocol_version == 2
    assert (first.reply.seq, first.reply.text) == (7, "pass")
    assert (second.reply.seq, second.reply.text) == (8, "play AS")


def test_javascript_plays_a_whole_match_through_the_referee(tmp_path: Path) -> None:
    bots = (load_bot(JS), load_bot(ROOT / "sample_bots" / "greedy"),
            load_bot(ROOT / "sample_bots" / "random"))
    result = run_match(MatchSpec(
        match_id="js", bots=bots, seed=8, rules_preset="czech", rules_options=(("target", 500),),
        sandbox="process", work_dir=str(tmp_path), replay_path=str(tmp_path / "js.jsonl"),
        time_control=TimeControl(per_move=5.0, bank=20.0, startup=30.0),
    ))
    assert result.reason == "complete"
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    assert result.seats[0].bot == "javascript" and result.seats[0].decisions > 0
    assert check(result.replay_path) == tuple(s.total for s in result.seats)
