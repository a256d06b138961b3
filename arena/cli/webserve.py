"""Serving a web app on a socket already listening, for the commands that
do (`arena serve`, `arena ladder serve`): one place for the first lines,
the log handler, uvicorn's settings and the event loop's end.

    serve_app(app, sock, "arena serve", lines=lambda base: [f"lobby: {base}lobby"])
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable, Coroutine
from typing import Any

import typer

from arena.cli.safelog import terminal_handler

# Seconds the requests in flight get to finish when the server is stopped.
GRACEFUL_SHUTDOWN = 5


def base_url(sock: socket.socket) -> str:
    """http://HOST:PORT/ of the socket, an IPv6 address in brackets."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def serve_app(app: Any, sock: socket.socket, prefix: str, *,
              lines: Callable[[str], list[str]] = lambda base: [],
              limits: dict[str, Any] | None = None,
              wrap: Callable[[Coroutine[Any, Any, None]], Coroutine[Any, Any, None]] | None = None,
              stopping: Callable[[], None] | None = None,
              ) -> None:
    """Print where it serves (and `lines(base_url)`), log warnings to the
    terminal as "PREFIX: message" (control characters escaped), then serve
    until uvicorn stops (Ctrl-C, SIGTERM). `limits`: further uvicorn.Config
    settings (connections at once, keep-alive); `wrap`: what runs around
    uvicorn's `serve` on the same loop (the lobby closes its games there);
    `stopping`: called as the server stops, before it waits for the requests
    in flight (the lobby ends its watch streams)."""
    import uvicorn

    base = base_url(sock)
    typer.echo(f"serving on {base}  (Ctrl-C stops)")
    for line in lines(base):
        typer.echo(line)
    logging.basicConfig(level=logging.WARNING, handlers=[terminal_handler(f"{prefix}: %(message)s")])
    # A stream never ends by itself (a live tournament page; a lobby game's
    # watchers, which `stopping` ends): at Ctrl-C or SIGTERM uvicorn waits
    # for every request in flight, so one open stream held the server up for
    # good. The requests in flight get this long, then are cancelled.
    settings: dict[str, Any] = {"timeout_graceful_shutdown": GRACEFUL_SHUTDOWN, **(limits or {})}
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", **settings)
    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Before uvicorn waits for the requests in flight: the streams end.
            flag = getattr(getattr(app, "state", None), "stopping", None)
            if flag is not None:
                flag.set()  # the web app's own streams (web/app.py)
            if stopping is not None:
                stopping()
            await super().shutdown(sockets)

    server = Server(config)
    # asyncio.run as uvicorn's own run does (the standard loop: no uvloop here).
    work = server.serve(sockets=[sock])
    if wrap is not None:
        work = wrap(work)
    try:
        asyncio.run(work)
    finally:
        # A Ctrl-C just before asyncio.run started it: closed unstarted, not
        # left to print "coroutine ... was never awaited" at exit.
        work.close()
