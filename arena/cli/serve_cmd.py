"""`arena serve`: the web app over tournament folders and replay files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def serve(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="tournament folders, folders of them, or replay files (default: tournaments)")] = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="port (0: any free one, printed)")] = 8000,
) -> None:
    """Serve the tournaments and replays as web pages (the replay player, live
    tournaments, match lists, per-bot pages, head-to-head)."""
    import logging
    import socket

    import uvicorn

    from arena.web.app import create_app
    from arena.web.sources import SourceError

    try:
        app = create_app(paths or [Path("tournaments")])
    except SourceError as exc:
        raise _fail(str(exc)) from None
    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        raise _fail(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}") from None
    bound = sock.getsockname()
    shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
    typer.echo(f"serving on http://{shown}:{bound[1]}/  (Ctrl-C stops)", err=False)
    logging.basicConfig(level=logging.WARNING, format="arena serve: %(message)s")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    finally:
        sock.close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
