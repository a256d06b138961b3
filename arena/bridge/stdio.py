"""The stdio bridge: the gRPC side of a bot that speaks JSON lines.

    python3 -m arena.bridge.stdio [--name NAME --version VERSION] -- COMMAND...

A bot with `protocol = "stdio"` in its bot.toml is started through this
program, inside the bot's own sandbox (the same process group, rlimits,
namespaces or container): the bridge starts COMMAND with pipes for its
stdin and stdout, and relays the match between it and the referee:

- every `RefereeMessage` from the referee is written to the bot's stdin as
  one line of JSON (the protobuf JSON mapping, with the `.proto`'s field
  names), in the order received;
- every line the bot writes to its stdout is read as one `BotMessage` in
  the same mapping and sent to the referee as it comes. The bot's first
  line is its Hello; the bridge fills in the seat's token, which the bot
  never sees (ARENA_TOKEN and ARENA_ADDRESS are not passed on).

The bridge keeps no clock and makes no decision: time limits, faults and
what a seat may see stay the referee's. A line that is not a BotMessage in
JSON (not JSON, an unknown field, a wrong type, not UTF-8, longer than the
referee's message limit) is sent on as bytes that are no BotMessage at all,
which the referee counts as `malformed` like any garbage; the bridge says
why on stderr (the bot's log). Blank lines are skipped. When the referee
ends the stream the bot's stdin is closed; when the bot's stdout ends (it
exited), the bridge ends the stream, which the referee sees as the bot's
crash, and exits with the bot's exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import IO

import grpc
from google.protobuf import json_format

from arena.wire.gen.arena.v1 import arena_pb2 as pb

# The referee's limit for one message (docs/protocol.md, "Faults"): a longer
# line could not be a well-formed message, so it is not read into memory whole.
MAX_LINE = 64 * 1024
# Bytes that do not parse as a BotMessage: a length-delimited field that
# claims more bytes than follow. What a malformed line is sent on as.
NOT_A_MESSAGE = b"\x12\xff\xff\xff\xff\x0f"
AFTER_END_S = 2.0  # for the bot to exit once its stdin is closed (the referee allows 3)
PLAY = "/arena.v1.Referee/Play"


def to_line(data: bytes) -> bytes:
    """One RefereeMessage as the bot reads it: a line of JSON."""
    msg = pb.RefereeMessage.FromString(data)
    mapped = json_format.MessageToDict(msg, preserving_proto_field_name=True)
    # ASCII only: a name's letters come as \uXXXX escapes, so no reader splits
    # a line inside one (U+2028 and U+2029 end a line for Python's
    # splitlines and for some JSON-line readers), and a bot need not decode UTF-8.
    return json.dumps(mapped, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


def from_line(line: bytes, token: str) -> tuple[bytes, str]:
    """What a line of the bot's is sent on as, and why it is malformed ("" if
    it is not). A Hello gets the seat's token."""
    if len(line) > MAX_LINE:
        return NOT_A_MESSAGE, f"a line over {MAX_LINE} bytes"
    try:
        msg = json_format.Parse(line.decode("utf-8"), pb.BotMessage())
    except (UnicodeDecodeError, json_format.ParseError) as exc:
        return NOT_A_MESSAGE, " ".join(str(exc).split())[:300]
    if msg.WhichOneof("body") == "hello":
        msg.hello.token = token
    return msg.SerializeToString(), ""


class Outgoing:
    """The stream of messages to the referee: a queue-backed iterator. The
    gRPC call takes it and sends each item as the bot's reader puts it in;
    `close` ends the stream."""

    _END = object()

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()

    def put(self, data: bytes) -> None:
        self._queue.put(data)

    def close(self) -> None:
        self._queue.put(self._END)

    def __iter__(self) -> Iterator[bytes]:
        while True:
            item = self._queue.get()
            if item is self._END:
                return
            assert isinstance(item, bytes)
            yield item


def read_bot(stdout: IO[bytes], outgoing: Outgoing, token: str) -> None:
    """The bot's lines, in order, onto the outgoing stream; ends it at EOF."""
    number = 0
    try:
        while True:
            line = stdout.readline(MAX_LINE + 2)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE + 1 or (not line.endswith(b"\n") and len(line) > MAX_LINE):
                while line and not line.endswith(b"\n"):  # the rest of the long line
                    line = stdout.readline(MAX_LINE)
                data, why = NOT_A_MESSAGE, f"a line over {MAX_LINE} bytes"
            elif not line.strip():
                continue
            else:
                data, why = from_line(line.strip(), token)
            if why:
                print(f"arena stdio bridge: line {number} of the bot's output is not a "
                      f"BotMessage in JSON ({why}); sent on as a malformed message",
                      file=sys.stderr, flush=True)
            outgoing.put(data)
    finally:
        outgoing.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m arena.bridge.stdio")
    parser.add_argument("--name", default="")
    parser.add_argument("--version", default="")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    address, token = os.environ.get("ARENA_ADDRESS"), os.environ.get("ARENA_TOKEN")
    if not command or not address or not token:
        print("usage: python3 -m arena.bridge.stdio -- COMMAND... (started by the referee, "
              "with ARENA_ADDRESS and ARENA_TOKEN set)", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items() if k not in ("ARENA_TOKEN", "ARENA_ADDRESS")}
    try:
        bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    except OSError as exc:
        print(f"arena stdio bridge: cannot start {command[0]!r}: {exc}", file=sys.stderr)
        return 1
    assert bot.stdin is not None and bot.stdout is not None
    outgoing = Outgoing()
    reader = threading.Thread(target=read_bot, args=(bot.stdout, outgoing, token), daemon=True)
    reader.start()
    ended = False
    with grpc.insecure_channel(address) as channel:
        play = channel.stream_stream(PLAY, request_serializer=bytes,
                                     response_deserializer=bytes)
        try:
            for data in play(iter(outgoing)):
                body = pb.RefereeMessage.FromString(data).WhichOneof("body")
                ended = ended or body in ("match_end", "refused")
                try:
                    bot.stdin.write(to_line(data))
                    bot.stdin.flush()
                except (BrokenPipeError, ValueError):
                    pass  # it exited: its reader ends the stream
        except grpc.RpcError as exc:
            # After match_end the referee closes the seat's listener, and the
            # call may end UNAVAILABLE: the match is over, nothing to tell.
            if not ended:
                print(f"arena stdio bridge: the stream ended: {exc.code().name}", file=sys.stderr)
    with contextlib.suppress(BrokenPipeError):
        bot.stdin.close()
    try:
        status = bot.wait(AFTER_END_S)
    except subprocess.TimeoutExpired:
        bot.kill()
        status = bot.wait()
    if status < 0:  # killed by a signal
        return 128 - status
    return status if status or not ended else 0


if __name__ == "__main__":
    sys.exit(main())
