"""The sample bots are self-contained folders: a tournament plays a copy of
each, and the bwrap/docker sandboxes mount only the bot's own folder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "protocol" / "arena" / "v1" / "arena.proto"


@pytest.mark.parametrize("copy", ["javascript/arena.proto", "cpp/proto/arena/v1/arena.proto",
                                  "go/proto/arena/v1/arena.proto"])
def test_a_bot_in_another_language_carries_an_identical_copy_of_the_protocol(copy: str) -> None:
    assert (ROOT / "sample_bots" / copy).read_bytes() == PROTOCOL.read_bytes(), \
        f"sample_bots/{copy} is stale: copy protocol/arena/v1/arena.proto over it"
