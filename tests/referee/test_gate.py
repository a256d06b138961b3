"""The gate's HTTP/2 frame reader (arena/referee/socket_gate.py): counts what a
client sends however its bytes are cut into chunks, and the flood limits.
Real bots flooding in real matches: tests/sandbox/test_adversaries_sockets.py."""

from __future__ import annotations

import random
import struct

import pytest

from arena.referee import socket_gate as gate
from arena.referee.socket_gate import PREFACE, FrameCounter, FrameCounts


def frame(kind: int, flags: int, payload: bytes = b"", stream: int = 0) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


CLIENT = (PREFACE + frame(4, 0, b"\0\x03\0\0\0\x64") + frame(8, 0, b"\0\0\xff\xff")
          + frame(1, 4, b"h" * 40, 1) + frame(0, 0, b"d" * 70_000, 1) + frame(6, 0, b"p" * 8)
          + frame(6, 1, b"p" * 8) + frame(4, 1) + frame(0, 1, b"", 1) + frame(9, 4, b"c" * 5, 1))


@pytest.mark.parametrize("seed", range(20))
def test_frames_are_counted_whatever_the_chunks(seed: int) -> None:
    rng = random.Random(seed)
    counts = FrameCounts()
    reader = FrameCounter(counts)
    i = 0
    while i < len(CLIENT):
        step = rng.choice((1, 2, 5, 9, 10, 17, 1000, 70_000))
        reader.feed(CLIENT[i:i + step])
        i += step
    assert counts.by_type == {4: 2, 8: 1, 1: 1, 0: 2, 6: 2, 9: 1}
    # All but the DATA frame with bytes carry no message; one PING and one
    # SETTINGS are acknowledgements, which are not counted as such.
    assert (counts.control, counts.pings, counts.settings, counts.continuation) == (8, 1, 1, 1)
    assert counts.data == 1
    assert reader.skip == 0 and reader.head == b""


def test_an_honest_count_is_no_flood_and_each_limit_is_one() -> None:
    # A Python bot's whole match (measured: 235 WINDOW_UPDATE, 118 DATA, ...
    # for 141 writes); DATA is one per reply, and a 64 KiB reply is 5 frames.
    honest = FrameCounts(control=640, pings=8, settings=2, data=349, chunks_out=349)
    assert honest.flood() == ""
    assert FrameCounts(data=5 * 349, chunks_out=349).flood() == ""
    assert honest.flood() == ""
    # grpc-go pings on DATA whenever its last ping was answered: up to one
    # PING per write of the referee (the Go sample bot, 82 for 199 writes).
    grpc_go = FrameCounts(control=2 * 349 + 349, pings=349, settings=2, chunks_out=349)
    assert grpc_go.flood() == ""
    for field, value in (("control", gate.CONTROL_BASE + 1), ("pings", gate.PING_BASE + 1),
                         ("settings", gate.SETTINGS_LIMIT + 1),
                         ("continuation", gate.CONTINUATION_LIMIT + 1),
                         ("data", gate.DATA_BASE + 1)):
        counts = FrameCounts(**{field: value})
        assert counts.flood(), field
        assert not FrameCounts(**{field: value - 1}).flood(), field
    # Per write of the referee: one byte per DATA frame cannot outpace it.
    assert FrameCounts(data=gate.DATA_BASE + gate.DATA_PER_CHUNK * 100 + 1, chunks_out=100).flood()
    assert "DATA" in FrameCounts(data=gate.DATA_BASE + 1).flood()
