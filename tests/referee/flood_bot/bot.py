"""Sends 300 replies for seq 0 right after its Hello, then plays properly."""

import os
import queue

import grpc

from arena.wire.codec import pb

out: "queue.SimpleQueue[pb.BotMessage | None]" = queue.SimpleQueue()
out.put(pb.BotMessage(hello=pb.Hello(token=os.environ["ARENA_TOKEN"], bot_name="flood")))
for _ in range(300):
    out.put(pb.BotMessage(reply=pb.Reply(seq=0, text="pass")))


def requests():
    while (msg := out.get()) is not None:
        yield msg


with grpc.insecure_channel(os.environ["ARENA_ADDRESS"]) as channel:
    play = channel.stream_stream("/arena.v1.Referee/Play",
                                 request_serializer=pb.BotMessage.SerializeToString,
                                 response_deserializer=pb.RefereeMessage.FromString)
    for msg in play(requests()):
        if msg.WhichOneof("body") == "decision":
            out.put(pb.BotMessage(reply=pb.Reply(seq=msg.decision.seq, text=msg.decision.legal_texts[0])))
        elif msg.WhichOneof("body") == "match_end":
            break
    out.put(None)
