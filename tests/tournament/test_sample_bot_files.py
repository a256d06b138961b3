"""The sample bots are self-contained folders: a tournament plays a copy of
each, and the bwrap/docker sandboxes mount only the bot's own folder."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_javascript_bot_carries_an_identical_copy_of_the_protocol() -> None:
    copy = ROOT / "sample_bots" / "javascript" / "arena.proto"
    assert copy.read_bytes() == (ROOT / "protocol" / "arena" / "v1" / "arena.proto").read_bytes(), \
        "sample_bots/javascript/arena.proto is stale: copy protocol/arena/v1/arena.proto over it"


def test_cpp_bot_carries_an_identical_copy_of_the_protocol() -> None:
    copy = ROOT / "sample_bots" / "cpp" / "proto" / "arena" / "v1" / "arena.proto"
    assert copy.read_bytes() == (ROOT / "protocol" / "arena" / "v1" / "arena.proto").read_bytes(), \
        "sample_bots/cpp/proto/arena/v1/arena.proto is stale: copy protocol/arena/v1/arena.proto over it"
