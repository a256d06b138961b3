"""Plumbing shared by the misbehaving test bots in this folder.

Each bot folder (`tests/bots/<name>/`) holds a `bot.toml` and a `bot.py`
that imports this module and plugs in its own misbehaviour. The tests play
a copy of the folder with this file inside it (the `fault_bot` fixture,
tests/testbots.py): a sandboxed bot sees its own folder only (at the
process level as root, /tmp is a private tmpfs: a checkout under /tmp is
out of its sight), so a test bot carries what it needs. The bots speak the protocol through the generated stubs
directly (not `arena.sdk`) so they can send what a well-behaved client
never would: raw bytes, oversized messages, second connections.

Each bot writes what happens to it on stderr, one `faultbot:` line per
event, so tests can read the bot's log from the match result.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc

from arena.wire.gen.arena.v1 import arena_pb2 as pb

METHOD = "/arena.v1.Referee/Play"

# What a bot's decide() returns: serialized bytes to send, or None to send nothing.
Decide = Callable[[int, pb.DecisionRequest], "bytes | None"]


def say(text: str) -> None:
    print(f"faultbot: {text}", file=sys.stderr, flush=True)


# Tests check after the match that this process, and anything it started
# (which inherits its environment), is gone.
say(f"pid {os.getpid()}")
say(f"address {os.environ.get('ARENA_ADDRESS', '')}")


def hello(token: str, turn_notices: bool = False) -> bytes:
    msg = pb.BotMessage(hello=pb.Hello(token=token, bot_name="faultbot", protocol_version=1,
                                       turn_notices=turn_notices))
    return msg.SerializeToString()


def reply_text(seq: int, text: str) -> bytes:
    return pb.BotMessage(reply=pb.Reply(seq=seq, text=text)).SerializeToString()


def reply_action(seq: int, action: pb.Action) -> bytes:
    return pb.BotMessage(reply=pb.Reply(seq=seq, action=action)).SerializeToString()


def first_legal(seq: int, request: pb.DecisionRequest) -> bytes:
    """The well-behaved answer: the first legal action, structured."""
    return reply_action(seq, request.legal_actions[0])


class Connection:
    """One `Play` stream whose outgoing messages are raw bytes."""

    def __init__(self, token: str | None = None, address: str | None = None,
                 raw: bool = False, options: tuple[tuple[str, Any], ...] = ()) -> None:
        """Open the stream; when `token` is given, say hello with it first.
        With `raw`, `responses` yields the received bytes undecoded.
        `options` are more gRPC channel options."""
        self.address = address or os.environ["ARENA_ADDRESS"]
        self.channel = grpc.insecure_channel(
            self.address,
            options=[("grpc.max_send_message_length", 64 * 1024 * 1024), *options],
        )
        self._out: queue.Queue[bytes | None] = queue.Queue()
        play = self.channel.stream_stream(
            METHOD,
            request_serializer=lambda b: b,
            response_deserializer=(lambda b: b) if raw else pb.RefereeMessage.FromString,
        )
        if token is not None:
            self._out.put(hello(token))
        self.responses: Iterator[Any] = play(self._requests())

    def _requests(self) -> Iterator[bytes]:
        while True:
            item = self._out.get()
            if item is None:
                return
            yield item

    def send(self, data: bytes) -> None:
        self._out.put(data)

    def close(self) -> None:
        self._out.put(None)
        self.channel.close()


def play(conn: Connection, decide: Decide = first_legal) -> str:
    """Read the stream until it ends; answer decisions with `decide`.

    Returns how it ended: "match_end", "refused: <reason>", "closed" or
    "error: <grpc status>"."""
    decisions = 0
    try:
        for msg in conn.responses:
            body = msg.WhichOneof("body")
            if body == "match_start":
                say(f"seated at seat {msg.match_start.seat}")
            elif body == "decision":
                decisions += 1
                data = decide(decisions, msg.decision)
                if data is not None:
                    conn.send(data)
            elif body == "match_end":
                say(f"match end after {decisions} decisions: {list(msg.match_end.statuses)}")
                conn.close()
                return "match_end"
            elif body == "refused":
                say(f"refused: {msg.refused}")
                conn.close()
                return f"refused: {msg.refused}"
    except grpc.RpcError as exc:
        code = exc.code() if hasattr(exc, "code") else None
        say(f"stream error after {decisions} decisions: {code}")
        return f"error: {code}"
    say(f"stream closed after {decisions} decisions")
    return "closed"


def play_in_thread(conn: Connection, decide: Decide = first_legal) -> threading.Thread:
    t = threading.Thread(target=play, args=(conn, decide), daemon=True)
    t.start()
    return t


def token() -> str:
    return os.environ["ARENA_TOKEN"]


def run(decide: Decide = first_legal) -> None:
    """Connect with the seat's token and play to the end."""
    conn = Connection(token())
    play(conn, decide)
