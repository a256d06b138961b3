"""A victim for benchmarks/fairness.py: a fixed amount of CPU work per decision.

Plays the first legal action after `loops` iterations of a pure-Python loop
(`cost.txt` beside this file, written by the benchmark after calibrating it;
0 without the file). The work is the same on every decision, so any change
in its wall time is what the other seats take from it. Stubs, not arena.sdk:
nothing but the work and the protocol runs here.
"""

import os
import queue
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc

from arena.wire.gen.arena.v1 import arena_pb2 as pb


def work(loops: int) -> int:
    x = 0
    for i in range(loops):
        x = (x * 31 + i) & 0xFFFF
    return x


def main() -> int:
    cost = Path(__file__).with_name("cost.txt")
    loops = int(cost.read_text()) if cost.exists() else 0
    outbox: queue.SimpleQueue[pb.BotMessage | None] = queue.SimpleQueue()
    outbox.put(pb.BotMessage(hello=pb.Hello(
        token=os.environ["ARENA_TOKEN"], bot_name="victim", protocol_version=2)))

    def requests() -> Iterator[pb.BotMessage]:
        while (msg := outbox.get()) is not None:
            yield msg

    with grpc.insecure_channel(os.environ["ARENA_ADDRESS"]) as channel:
        play = channel.stream_stream(
            "/arena.v1.Referee/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.RefereeMessage.FromString,
        )
        for msg in play(requests()):
            body = msg.WhichOneof("body")
            if body == "decision":
                d = msg.decision
                work(loops)
                outbox.put(pb.BotMessage(reply=pb.Reply(seq=d.seq, action=d.legal_actions[0])))
            elif body in ("match_end", "refused"):
                break
        outbox.put(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
