"""The cheapest possible bot: always the first legal action (benchmarks only).

It speaks the protocol with the generated stubs directly rather than through
`arena.sdk`, whose Observation turns every request into a Python dict: the
benchmark measures the referee, not the SDK's conveniences.
"""

import os
import queue
import sys
from collections.abc import Iterator

import grpc

from arena.wire.gen.arena.v1 import arena_pb2 as pb


def main() -> int:
    outbox: queue.SimpleQueue[pb.BotMessage | None] = queue.SimpleQueue()
    outbox.put(pb.BotMessage(hello=pb.Hello(
        token=os.environ["ARENA_TOKEN"], bot_name="first-legal", protocol_version=2)))

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
