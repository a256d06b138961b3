"""A burner for benchmarks/fairness.py and the pondering tests: it spins
several threads all the time, so also while other seats decide, and plays
the first legal action at once.

The spinning threads hash a large buffer (hashlib releases the GIL on it),
so they burn several cores' worth of CPU at once, as a searching bot that
ponders would. Its moves are those of the first-legal bots (the victim bot
without a cost file), so a match with it has the same result as one with a
first-legal bot in its seat.
"""

import hashlib
import os
import queue
import sys
import threading
from collections.abc import Iterator

import grpc

from arena.wire.gen.arena.v1 import arena_pb2 as pb

THREADS = 4


def main() -> int:
    data = bytes(64 * 1024)

    def spin() -> None:
        while True:
            hashlib.sha256(data).digest()

    for _ in range(THREADS):
        threading.Thread(target=spin, daemon=True).start()
    outbox: queue.SimpleQueue[pb.BotMessage | None] = queue.SimpleQueue()
    outbox.put(pb.BotMessage(hello=pb.Hello(
        token=os.environ["ARENA_TOKEN"], bot_name="burner", protocol_version=2)))

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
                outbox.put(pb.BotMessage(reply=pb.Reply(seq=d.seq, action=d.legal_actions[0])))
            elif body in ("match_end", "refused"):
                break
        outbox.put(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
