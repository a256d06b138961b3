"""The gate in front of each seat's gRPC server: who connects, and how much.

gRPC Python gives a handler neither the connection's file descriptor nor the
peer's credentials, and sees nothing of a connection that opens no stream or
of the HTTP/2 frames below the streams. So the referee does not let bots
reach its gRPC servers directly. Each seat's public socket (the one its
sandbox mounts) is the gate's; the seat's gRPC server listens on an inner
socket in a folder only the referee can enter (0700, mounted nowhere). For
every connection the gate:

1. asks the kernel who connected (SO_PEERCRED: pid and uid at connect time)
   and the match whose bot that process is (`identify`). Only the seat's own
   bot passes; a process of another seat is that seat's fault (`intruder`:
   it tried to take or spy on another seat's stream) and is cut off at once;
   a process of no seat is refused and counted (`stranger`).
2. admits at most CONNECTIONS_AT_ONCE connections at a time and
   CONNECTIONS_LIMIT over the match (an honest bot needs one): more is
   flooding, and the seat's bot is known to be the flooder (`flooded`).
3. relays bytes both ways unchanged, reading the 9-byte header of every
   HTTP/2 frame the bot sends (RFC 9113 4.1: length, type, flags, stream).
   Frames that carry no message (PING, SETTINGS, CONTINUATION, RST_STREAM,
   WINDOW_UPDATE, PRIORITY, HEADERS, empty DATA) are what an honest client
   sends in answer to what the referee sends; a bot that sends more than
   CONTROL_BASE + CONTROL_PER_CHUNK per chunk the referee wrote to it (an
   honest gRPC client sends about two, mostly WINDOW_UPDATE), more PINGs
   than PING_BASE + PING_PER_CHUNK per chunk (honest: under ten a match
   from gRPC's C core; grpc-go's flow-control estimate sends one on DATA
   whenever the last one was answered, so up to one per chunk),
   or more than CONTINUATION_LIMIT CONTINUATION or SETTINGS_LIMIT SETTINGS
   frames (honest: none, and one or two), over all its connections, floods the referee's transport (each such frame costs the
   referee CPU that the other seats' clocks pay for): `flooded`. DATA
   frames with bytes are counted too: a message can be cut into frames of
   one byte each (ten bytes on the wire, the gate's and gRPC's work per
   frame), so more than DATA_BASE + DATA_PER_CHUNK per chunk is a flood as
   well (honest: one per reply, under one per chunk; a 64 KiB message is
   five frames of 16 KiB).

The relay costs one more hop per message each way (measured in
docs/performance.md and docs/sandbox.md); it runs on the match's event
loop, as asyncio protocols (no task per message).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("arena.referee")

CONNECTIONS_AT_ONCE = 2
CONNECTIONS_LIMIT = 8
# Connections of no seat's process told to the match and looked up; beyond
# this they are cut at once, unasked (each look-up reads /proc).
STRANGERS_LIMIT = 64
CONTROL_BASE = 256
CONTROL_PER_CHUNK = 4
DATA_BASE = 256
DATA_PER_CHUNK = 8
CONTINUATION_LIMIT = 16
SETTINGS_LIMIT = 16
PING_BASE = 32
# One per chunk, not fewer: grpc-go (the Go sample bot) pings on every DATA
# frame it reads while no ping of its is unanswered (its BDP estimate), and
# an answer comes in a later chunk than the DATA that prompted the ping.
PING_PER_CHUNK = 1.0
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _SETTINGS, _PING, _CONTINUATION = 0x0, 0x4, 0x6, 0x9
_ACK = 0x1
_PEERCRED = struct.Struct("3i")

# (the socket's seat, pid, uid of a peer) -> the seat whose bot that process
# is (the socket's own seat first), or None.
Identify = Callable[[int, int, int], int | None]


def _ignore(*_args: Any) -> None:
    return None


@dataclass
class GateEvents:
    """What the gate tells the match. `flooded(seat, why)` and
    `intruder(seat, victim, why)` expel a seat; `stranger(victim, why)` only
    records a refusal on `victim`'s socket."""

    identify: Identify
    flooded: Callable[[int, str], None] = _ignore
    intruder: Callable[[int, int, str], None] = _ignore
    stranger: Callable[[int, str], None] = _ignore


def peer_credentials(sock: socket.socket) -> tuple[int, int]:
    """(pid, uid) of the process that connected `sock` (a unix socket)."""
    pid, uid, _gid = _PEERCRED.unpack(
        sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size))
    return pid, uid


@dataclass
class FrameCounts:
    """What one seat's bot sent and got, over all its connections (a bot
    that reconnects starts no count again)."""

    control: int = 0              # frames that carry no message bytes
    settings: int = 0             # SETTINGS frames that are not ACKs
    pings: int = 0                # PING frames that are not ACKs
    continuation: int = 0
    data: int = 0                 # DATA frames with bytes (parts of messages)
    chunks_out: int = 0           # chunks the referee wrote to the bot
    by_type: dict[int, int] = field(default_factory=dict)

    def flood(self) -> str:
        """Why these counts are a flood ("" if they are not)."""
        if self.control > CONTROL_BASE + CONTROL_PER_CHUNK * self.chunks_out:
            return (f"sent {self.control} HTTP/2 frames that carry no message "
                    f"({_kinds(self.by_type)}) for {self.chunks_out} writes of the referee")
        if self.pings > PING_BASE + PING_PER_CHUNK * self.chunks_out:
            return f"sent {self.pings} HTTP/2 PING frames for {self.chunks_out} writes of the referee"
        if self.data > DATA_BASE + DATA_PER_CHUNK * self.chunks_out:
            return (f"sent {self.data} HTTP/2 DATA frames (parts of messages) for "
                    f"{self.chunks_out} writes of the referee")
        if self.continuation > CONTINUATION_LIMIT:
            return f"sent {self.continuation} HTTP/2 CONTINUATION frames"
        if self.settings > SETTINGS_LIMIT:
            return f"sent {self.settings} HTTP/2 SETTINGS frames"
        return ""


@dataclass
class FrameCounter:
    """Reads the frame headers of one HTTP/2 client stream of bytes into `counts`."""

    counts: FrameCounts
    preface: int = len(PREFACE)   # bytes of the client preface still to skip
    skip: int = 0                 # payload bytes of the current frame still to skip
    head: bytes = b""             # a frame header split over two chunks

    def feed(self, data: bytes) -> None:
        i, n = 0, len(data)
        if self.preface:
            take = min(self.preface, n)
            self.preface -= take
            i = take
        while i < n:
            if self.skip:
                take = min(self.skip, n - i)
                self.skip -= take
                i += take
                continue
            if self.head or n - i < 9:
                take = min(9 - len(self.head), n - i)
                self.head += data[i:i + take]
                i += take
                if len(self.head) < 9:
                    return
                header, self.head = self.head, b""
            else:
                header = data[i:i + 9]
                i += 9
            length = int.from_bytes(header[:3], "big")
            kind, flags = header[3], header[4]
            self.skip = length
            counts = self.counts
            counts.by_type[kind] = counts.by_type.get(kind, 0) + 1
            if kind != _DATA or length == 0:
                counts.control += 1
                if kind == _PING and not flags & _ACK:
                    counts.pings += 1
                elif kind == _SETTINGS and not flags & _ACK:
                    counts.settings += 1
                elif kind == _CONTINUATION:
                    counts.continuation += 1
            else:
                counts.data += 1


class _Relay(asyncio.Protocol):
    """One side of a relayed connection; `other` is the opposite side's transport."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.other: asyncio.Transport | None = None
        self.pending: list[bytes] = []   # received before `other` existed
        self.closed = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        if self.other is not None:
            self.other.close()

    def pause_writing(self) -> None:   # our transport is full: stop reading the other side
        if self.other is not None:
            self.other.pause_reading()

    def resume_writing(self) -> None:
        if self.other is not None:
            self.other.resume_reading()

    def send(self, data: bytes) -> None:
        if self.other is not None:
            self.other.write(data)
        else:
            self.pending.append(data)

    def attach(self, other: asyncio.Transport) -> None:
        self.other = other
        for data in self.pending:
            other.write(data)
        self.pending.clear()


class _BotSide(_Relay):
    def __init__(self, gate: Gate) -> None:
        super().__init__()
        self.gate = gate
        self.counts = gate.counts
        self.frames = FrameCounter(gate.counts)
        self.cut = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert self.transport is not None
        self.transport.pause_reading()  # nothing reaches the referee before the peer is known
        self.gate.admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.gate.gone(self)
        log.debug("seat %d: a connection closed; so far %d writes of the referee, its frames: %s",
                  self.gate.seat, self.counts.chunks_out, _kinds(self.counts.by_type, 10))

    def data_received(self, data: bytes) -> None:
        self.frames.feed(data)
        why = self.counts.flood()
        if why:
            self.gate.flood(self, why)
        else:
            self.send(data)

    def abort(self) -> None:
        self.cut = True
        if self.transport is not None:
            self.transport.abort()
        if self.other is not None:
            self.other.abort()


class _CoreSide(_Relay):
    def __init__(self, bot: _BotSide) -> None:
        super().__init__()
        self.counts = bot.counts
        self.other = bot.transport

    def data_received(self, data: bytes) -> None:
        self.counts.chunks_out += 1
        if self.other is not None:
            self.other.write(data)


_NAMES = {0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 5: "PUSH_PROMISE",
          6: "PING", 7: "GOAWAY", 8: "WINDOW_UPDATE", 9: "CONTINUATION"}


def _kinds(by_type: dict[int, int], most: int = 3) -> str:
    top = sorted(by_type.items(), key=lambda kv: -kv[1])[:most]
    return ", ".join(f"{n} {_NAMES.get(k, f'type {k}')}" for k, n in top)


class Gate:
    """One seat's public socket (see the module docstring)."""

    def __init__(self, seat: int, public_path: str, inner_path: str, events: GateEvents,
                 ready: asyncio.Event) -> None:
        self.seat = seat
        self.public_path = public_path
        self.inner_path = inner_path
        self.events = events
        self.ready = ready                 # set once every bot of the match is launched
        self.server: asyncio.Server | None = None
        self.open: set[_BotSide] = set()   # admitted, not yet closed
        self.admitted = 0                  # over the match
        self.counts = FrameCounts()
        self.strangers = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    async def start(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(self.public_path)
            sock.listen(16)
        except OSError:
            sock.close()
            raise
        self.server = await asyncio.get_running_loop().create_unix_server(
            lambda: _BotSide(self), sock=sock)

    def admit(self, conn: _BotSide) -> None:
        task = asyncio.get_running_loop().create_task(self._admit(conn))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _admit(self, conn: _BotSide) -> None:
        assert conn.transport is not None
        sock = conn.transport.get_extra_info("socket")
        try:
            pid, uid = peer_credentials(sock)
        except OSError:
            conn.abort()
            return
        # A bot may connect while another seat's container is still starting:
        # its owner is known only once every launch has returned.
        await self.ready.wait()
        if self.closed or conn.cut or self.strangers >= STRANGERS_LIMIT:
            conn.abort()
            return
        owner = await asyncio.to_thread(self.events.identify, self.seat, pid, uid)
        if self.closed or conn.cut:
            conn.abort()
            return
        if owner is None:
            conn.abort()
            self.strangers += 1
            self.events.stranger(self.seat, f"a process of no seat (pid {pid}, uid {uid}) connected")
            return
        if owner != self.seat:
            conn.abort()
            self.events.intruder(owner, self.seat, f"connected to seat {self.seat}'s socket")
            return
        if len(self.open) >= CONNECTIONS_AT_ONCE or self.admitted >= CONNECTIONS_LIMIT:
            conn.abort()
            if self.admitted >= CONNECTIONS_LIMIT:
                self.events.flooded(self.seat, f"opened more than {CONNECTIONS_LIMIT} connections "
                                               "to the referee")
            else:
                self.events.stranger(self.seat, f"more than {CONNECTIONS_AT_ONCE} connections at once")
            self.admitted += 1
            return
        self.admitted += 1
        self.open.add(conn)
        try:
            transport, _ = await asyncio.get_running_loop().create_unix_connection(
                lambda: _CoreSide(conn), self.inner_path)
        except OSError as exc:
            log.warning("seat %d: cannot reach its gRPC server: %s", self.seat, exc)
            conn.abort()
            return
        if conn.cut or self.closed:
            transport.abort()
            conn.abort()
            return
        conn.attach(transport)
        assert conn.transport is not None
        conn.transport.resume_reading()

    def gone(self, conn: _BotSide) -> None:
        self.open.discard(conn)

    def flood(self, conn: _BotSide, why: str) -> None:
        conn.abort()
        self.events.flooded(self.seat, why)

    async def close(self) -> None:
        """Stop accepting, cut every connection (the seat's stream with it)."""
        if self.closed:
            return
        self.closed = True
        for conn in list(self.open):
            conn.abort()
        for task in list(self.tasks):
            task.cancel()
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
        with contextlib.suppress(OSError):
            os.unlink(self.public_path)
