"""The JavaScript sample bot: protocol handling against a stand-in referee,
and a whole match through the real one.

Needs Node.js and the bot's node_modules (`npm ci` in sample_bots/javascript,
which scripts/setup.sh runs); skipped, saying so, without them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from standin import talk

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.replay import check
from arena.sandbox.botfile import load_bot
from arena.wire.gen.arena.v1 import arena_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "sample_bots" / "javascript"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(not (JS / "node_modules" / "@grpc" / "grpc-js").is_dir(),
                       reason="run `npm ci` in sample_bots/javascript (scripts/setup.sh does)"),
]


# The requests the stand-in referee sends (and the texts the bot must answer).
REQUESTS = [
    pb.DecisionRequest(seq=7, observation=pb.Observation(seat=2, phase="bidding", hand=["AS", "9C"]),
                       legal_texts=["bid 110", "pass"], time_limit_s=5.0),
    pb.DecisionRequest(seq=8, observation=pb.Observation(seat=2, phase="play", hand=["AS", "9C"],
                                                         trick=[pb.TrickCard(seat=1, card="TS")]),
                       legal_texts=["play AS"], time_limit_s=5.0),
]


@pytest.mark.parametrize("override", [False, True], ids=["repo-proto", "ARENA_PROTO"])
def test_hello_replies_with_seq_and_clean_exit(override: bool, tmp_path: Path) -> None:
    proto = None
    if override:
        # As in a container: the .proto somewhere else, named by ARENA_PROTO.
        copy = tmp_path / "elsewhere" / "arena.proto"
        copy.parent.mkdir()
        shutil.copy(ROOT / "protocol" / "arena" / "v1" / "arena.proto", copy)
        proto = str(copy)
    code, received, _ = talk(["node", "bot.js"], JS, REQUESTS, {"ARENA_PROTO": proto} if proto else None)
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
