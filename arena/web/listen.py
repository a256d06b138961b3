"""The listening socket the web servers are handed (uvicorn's `sockets=`).

Made with the protocol named (IPPROTO_TCP), not as socket.create_server
makes it (protocol 0): asyncio turns Nagle's algorithm off (TCP_NODELAY)
only on sockets whose protocol is TCP, and its accepted sockets inherit
the listener's. With Nagle on, every answer after the first on a kept-alive
connection waited for the client's delayed ACK: measured 44 ms per
request where a fresh connection took 7 ms (benchmarks/ladder_load.py).
"""

from __future__ import annotations

import socket


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A TCP socket bound to (host, port) and listening; OSError as bind's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        # As create_server: a restarted server can bind while old connections linger.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    return sock
