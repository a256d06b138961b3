"""The JavaScript sample bot: protocol handling against a stand-in referee,
and a whole match through the real one.

Needs Node.js and the bot's node_modules (`npm ci` in sample_bots/javascript,
which scripts/setup.sh runs); skipped, saying so, without them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sdk.fake_referee import run_against
from whole_match import assert_plays_a_whole_match

from arena.wire.gen.arena.v1 import arena_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "sample_bots" / "javascript"

pytestmark = [pytest.mark.toolchains,
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
    out = run_against("full", ["node", "bot.js"], tmp_path, REQUESTS, cwd=JS,
                      env={"ARENA_PROTO": proto} if proto else None)
    assert out.returncode == 0, out.stderr
    assert out.hello is not None and out.hello.token == "t" and out.hello.protocol_version == 2
    first, second = out.replies
    assert (first.seq, first.text) == (7, "pass")
    assert (second.seq, second.text) == (8, "play AS")


def test_javascript_plays_a_whole_match_through_the_referee(tmp_path: Path) -> None:
    assert_plays_a_whole_match(JS, tmp_path)
