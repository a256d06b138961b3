"""The cheapest possible bot on a grpc.aio stream, as `arena.sdk` plays
(benchmarks only): always the first legal action, raw generated stubs.
Its twin `first_legal_bot` does the same with gRPC's threaded sync API."""

import asyncio
import os
import sys

import grpc

from arena.wire.gen.arena.v1 import arena_pb2 as pb


async def main() -> int:
    async with grpc.aio.insecure_channel(os.environ["ARENA_ADDRESS"]) as channel:
        call = channel.stream_stream(
            "/arena.v1.Referee/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.RefereeMessage.FromString,
        )()
        await call.write(pb.BotMessage(hello=pb.Hello(
            token=os.environ["ARENA_TOKEN"], bot_name="first-legal-aio", protocol_version=2)))
        while isinstance(msg := await call.read(), pb.RefereeMessage):
            body = msg.WhichOneof("body")
            if body == "decision":
                d = msg.decision
                await call.write(pb.BotMessage(reply=pb.Reply(seq=d.seq, action=d.legal_actions[0])))
            elif body in ("match_end", "refused"):
                break
        await call.done_writing()
        call.cancel()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
