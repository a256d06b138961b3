"""The web servers' listening socket (arena/web/listen.py): asyncio turns
Nagle's algorithm off on the connections it accepts, which it does only for
a socket made with the TCP protocol named (on one made by
socket.create_server every kept-alive answer waited for a delayed ACK)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from arena.web.listen import listen


async def _nodelay_of_accepted(sock: socket.socket) -> int:
    seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted = transport.get_extra_info("socket")
            seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
    host, port = sock.getsockname()[:2]
    _reader, writer = await asyncio.open_connection(host, port)
    try:
        return await asyncio.wait_for(seen, 10)
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_accepted_connections_have_nagle_off(host: str) -> None:
    try:
        sock = listen(host, 0)
    except OSError:
        pytest.skip(f"no {host} here")
    assert sock.proto == socket.IPPROTO_TCP
    assert asyncio.run(_nodelay_of_accepted(sock)) != 0


def test_the_old_way_left_nagle_on() -> None:
    # Why listen() exists: the accepted socket of create_server's listener
    # keeps Nagle on under asyncio. If Python changes that, listen() may go.
    sock = socket.create_server(("127.0.0.1", 0))
    assert asyncio.run(_nodelay_of_accepted(sock)) == 0


def test_a_taken_port_is_an_oserror() -> None:
    first = listen("127.0.0.1", 0)
    try:
        with pytest.raises(OSError):
            listen("127.0.0.1", first.getsockname()[1])
    finally:
        first.close()
