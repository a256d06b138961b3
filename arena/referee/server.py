"""The per-match gRPC server: accepts bot streams and hands each to its seat.

Messages travel as raw bytes through gRPC (no generated (de)serializers) so
that a garbage or oversized message from a bot is a *fault of that bot*
(recorded, the stream stays up) rather than a transport error, and so that
one serialized event can be written to several seats without re-encoding.

Connection rules (issue 3): the first message must be a Hello whose token
belongs to a seat that has not connected yet. Anything else (wrong token,
a token used before, a second stream for a seat, no Hello) gets a
`refused` message, the stream is closed, the refusal is logged, and the
match is unchanged.

Every seat has a server and a socket of its own (`start_server` once per
seat, each socket in a folder of its own that only that seat's sandbox
mounts). A confined bot can thus reach no listener but its own: it cannot
fill another seat's Hello slots nor make the referee refuse streams on
another seat's behalf. A socket no other bot can reach is *private*; there
a bot that keeps opening streams the referee refuses, or that end before
their Hello (FLOOD_LIMIT), is known to be the one flooding, and the match
expels it (`flooded`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# Bots are started by fork+exec while gRPC threads run; gRPC's fork handlers
# are useless there (the child execs at once) and only log noise. Read by
# grpc when it is first imported, hence before the import.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

import grpc
from google.protobuf.message import DecodeError

from arena.referee.seats import DISCONNECTED, Oversized, Seat
from arena.wire.gen.arena.v1 import arena_pb2 as pb

log = logging.getLogger("arena.referee")

SERVICE = "arena.v1.Referee"
# What a bot may send in one message. Larger ones are a "malformed" fault.
MESSAGE_LIMIT = 64 * 1024
# What gRPC accepts at all; above this the transport drops the stream.
TRANSPORT_LIMIT = 1024 * 1024
# Messages a bot may send that answer nothing (stale replies, or unread ones
# beyond this many queued); more is flooding, a malformed fault. Excess
# queued messages are dropped so that no bot can grow the referee's memory.
INBOX_LIMIT = 256
SEND_LIMIT = 4 * 1024 * 1024
# Seconds a new stream has to say Hello. An honest bot sends it at once; a
# stream that stays silent would otherwise be held for the whole match.
HELLO_TIMEOUT = 10.0
# Streams at once that have not said Hello yet, per seat's socket (an honest
# bot opens one), and streams per HTTP/2 connection: a bot cannot open
# thousands of idle streams to slow the referee down.
UNCLAIMED_LIMIT = 4
STREAMS_PER_CONNECTION = 8
# Streams served for nothing (refused, or ended before their Hello) on one
# seat's private socket after which its bot is taken to be flooding the
# referee (each costs the referee CPU that the other seats' clocks pay for).
# An honest bot opens one stream and is refused at most a few times.
FLOOD_LIMIT = 32
# Refusals told in full (log, replay); beyond that they are only counted, so
# that a bot spamming bad tokens cannot flood the log or the replay.
REFUSALS_KEPT = 20


@dataclass
class Refusal:
    reason: str
    seat: int | None  # whose socket refused it


@dataclass
class Refusals:
    """The refused streams of a match, over all its seats' sockets: the
    first REFUSALS_KEPT in full, the rest only counted."""

    kept: list[Refusal] = field(default_factory=list)
    total: int = 0
    untold: Counter[int | None] = field(default_factory=Counter)  # by seat, beyond `kept`

    def add(self, reason: str, seat: int | None) -> None:
        self.total += 1
        if self.total > REFUSALS_KEPT:
            self.untold[seat] += 1
        else:
            log.warning("refused a connection on seat %s's socket: %s", seat, reason)
            self.kept.append(Refusal(reason, seat))
            if self.total == REFUSALS_KEPT:
                log.warning("further refused connections are only counted")


def _no_reason(_seat: Seat) -> str:
    return ""


def _ignore_flood(_seat: Seat, _refused: int) -> None:
    return None


@dataclass
class RefereeService:
    """One seat's listener: only that seat's token opens a stream here."""

    seat: Seat
    refusals: Refusals = field(default_factory=Refusals)  # shared by the match's services
    unclaimed: int = 0  # streams open that have not said Hello yet
    refused: int = 0    # streams this socket served for nothing (`_count`)
    # Why a Hello with the right token is refused anyway ("" to accept):
    # the match has given up on the seat.
    accepting: Callable[[Seat], str] = _no_reason
    # Called on every refusal from the FLOOD_LIMIT-th on (the match acts once).
    flooded: Callable[[Seat, int], None] = _ignore_flood

    async def play(self, _request: Any, context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        if self.unclaimed >= UNCLAIMED_LIMIT:
            await self._refuse(context, f"too many connections waiting to say Hello (limit {UNCLAIMED_LIMIT})")
            return
        self.unclaimed += 1
        try:
            # Cancelling this read is safe: the stream belongs to no seat yet,
            # and a stream that says nothing in time is closed anyway.
            first = await asyncio.wait_for(context.read(), HELLO_TIMEOUT)
        except TimeoutError:
            await self._refuse(context, f"no Hello within {HELLO_TIMEOUT:g}s")
            return
        except Exception:  # noqa: BLE001 - a broken stream before Hello (bad framing, too large)
            self._count("stream broken before its Hello")
            return
        finally:
            self.unclaimed -= 1
        if not isinstance(first, bytes):  # grpc.aio.EOF: closed before saying anything
            self._count("stream closed before its Hello")
            return
        seat, reason = self._claim(first)
        if seat is None:
            await self._refuse(context, reason)
            return
        seat.writer = context
        seat.alive = True
        seat.connected.set()
        try:
            while True:
                data = await context.read()
                if not isinstance(data, bytes):  # grpc.aio.EOF
                    break
                if len(seat.inbox) >= INBOX_LIMIT:
                    seat.stale += 1
                    continue
                seat.deliver(data if len(data) <= MESSAGE_LIMIT else Oversized(len(data)))
            # The bot closed its side: it will send nothing more.
            seat.alive = False
            seat.deliver(DISCONNECTED)
            await seat.released.wait()
        except BaseException:
            seat.alive = False
            seat.deliver(DISCONNECTED)
            raise

    def _claim(self, data: bytes) -> tuple[Seat | None, str]:
        msg = pb.BotMessage()
        try:
            msg.ParseFromString(data)
        except DecodeError:
            return None, "first message is not a BotMessage"
        if msg.WhichOneof("body") != "hello":
            return None, "first message must be a Hello"
        seat = self.seat
        if not hmac.compare_digest(seat.token.encode(), msg.hello.token.encode()):
            return None, "unknown token"
        if seat.claimed:
            return None, f"seat {seat.index} is already connected (token used before)"
        why_not = self.accepting(seat)
        if why_not:
            return None, why_not
        seat.claimed = True
        seat.turn_notices = msg.hello.turn_notices
        log.info("seat %d connected: %s %s", seat.index, msg.hello.bot_name, msg.hello.bot_version)
        return seat, ""

    def _count(self, reason: str) -> None:
        """One stream this socket served for nothing: refused, or ended before
        its Hello (streams that end at once cost the referee as much)."""
        self.refused += 1
        self.refusals.add(reason, self.seat.index)
        if self.refused >= FLOOD_LIMIT:  # told again: privacy can be known only later
            self.flooded(self.seat, self.refused)

    async def _refuse(self, context: grpc.aio.ServicerContext[bytes, bytes], reason: str) -> None:
        self._count(reason)
        try:
            await context.write(pb.RefereeMessage(refused=reason).SerializeToString())
        except Exception as exc:  # noqa: BLE001 - the refused peer may already be gone
            log.info("could not tell a refused peer why: %s", exc)
        context.set_code(grpc.StatusCode.PERMISSION_DENIED)
        context.set_details(reason)


async def start_server(
    service: RefereeService, transport: str, socket_dir: str, name: str = "referee.sock"
) -> tuple[grpc.aio.Server, str]:
    """Start one seat's server; returns it and its address ("unix:<socket_dir>/<name>"
    or "127.0.0.1:<port>"). A match puts a gate (socket_gate.py) in front of a unix one."""
    server = grpc.aio.server(options=[
        ("grpc.max_receive_message_length", TRANSPORT_LIMIT),
        ("grpc.max_send_message_length", SEND_LIMIT),
        ("grpc.so_reuseport", 0),
        ("grpc.max_concurrent_streams", STREAMS_PER_CONNECTION),
    ])
    handler = grpc.method_handlers_generic_handler(SERVICE, {
        "Play": grpc.stream_stream_rpc_method_handler(service.play),  # raw bytes both ways
    })
    server.add_generic_rpc_handlers((handler,))
    if transport == "tcp":
        port = server.add_insecure_port("127.0.0.1:0")
        if not port:
            raise OSError("cannot bind a TCP port on 127.0.0.1")
        address = f"127.0.0.1:{port}"
    elif transport == "unix":
        path = os.path.join(socket_dir, name)
        if not server.add_insecure_port(f"unix:{path}"):
            raise OSError(f"cannot bind unix socket {path}")
        address = f"unix:{path}"
    else:
        raise ValueError(f"unknown transport {transport!r}: expected 'unix' or 'tcp'")
    # Shielded: a start cancelled midway (Ctrl-C as the match sets up) leaves
    # grpc's server where its stop fails (InvalidStateError), and the caller
    # never gets it to stop: left to its __del__ after the event loop closed,
    # it printed "Exception ignored in Server.__del__ ... Event loop is
    # closed" and "coroutine 'AioServer.shutdown' was never awaited". So a
    # cancelled start is let to finish, the server stopped, then the
    # cancellation goes on.
    starting = asyncio.ensure_future(server.start())
    try:
        await asyncio.shield(starting)
    except asyncio.CancelledError:
        try:
            await starting
        finally:
            await server.stop(None)
        raise
    return server, address


async def stop_server(server: grpc.aio.Server, seats: Sequence[Seat], grace: float = 0.2) -> None:
    """Stop a server once `seats` (those it serves) are released."""
    for seat in seats:
        seat.released.set()
    await asyncio.shield(server.stop(grace=grace))
