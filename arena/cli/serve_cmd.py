"""`arena serve`: the web app over tournament folders and replay files."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.stopping import Terminated


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def serve(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="tournament folders, folders of them, or replay files (default: tournaments)")] = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="port (0: any free one, printed)")] = 8000,
    lobby: Annotated[bool, typer.Option(
        "--lobby", help="also serve a lobby: games between people and bots (/lobby)")] = False,
    bot: Annotated[list[Path] | None, typer.Option(
        "--bot", help="a bot folder the lobby may seat (repeatable)")] = None,
    data: Annotated[Path, typer.Option(
        "--data", help="the lobby's folder: lobby.sqlite, replays, logs")] = Path("lobby"),
    sandbox: Annotated[str, typer.Option(
        "--sandbox", help="the lobby's bots: auto | docker | bwrap | process")] = "auto",
    grace: Annotated[float, typer.Option(
        "--grace", help="seconds a person who closed the page has to come back")] = 60.0,
    human_time: Annotated[float, typer.Option(
        "--human-time", help="a person's seconds per decision (plus --human-bank)")] = 60.0,
    human_bank: Annotated[float, typer.Option("--human-bank", help="a person's time bank")] = 120.0,
) -> None:
    """Serve the tournaments and replays as web pages (the replay player, live
    tournaments, match lists, per-bot pages, head-to-head)."""
    from arena.web.app import create_app
    from arena.web.listen import listen
    from arena.web.sources import SourceError, catalog

    if not lobby:
        # The lobby's own options, silently dropped without it: the bot given
        # never appeared anywhere (`arena serve --bot mybot`).
        given = [name for name, value, default in (
            ("--bot", bot, None), ("--data", data, Path("lobby")), ("--sandbox", sandbox, "auto"),
            ("--grace", grace, 60.0), ("--human-time", human_time, 60.0),
            ("--human-bank", human_bank, 120.0)) if value != default]
        if given:
            raise _fail(f"{given[0]}: an option of the lobby; add --lobby "
                        "(`arena serve --lobby --bot DIR`: docs/people.md)")
    try:
        # With --lobby alone, no tournaments need be there.
        sources = catalog(paths or ([] if lobby else [Path("tournaments")]))
    except SourceError as exc:
        if not paths and not lobby and not Path("tournaments").exists():
            # The default, from a folder that has none (not the repository's root).
            raise _fail(f"no tournaments folder in {Path.cwd()} (the default): give tournament "
                        "folders or replay files, e.g. `arena serve tournaments/sample`") from None
        raise _fail(str(exc)) from None
    extra: list[Any] = []
    the_lobby: Any = None
    if lobby:
        from arena.cli.checks import seconds_problem
        from arena.cli.people import lobby_routes

        problem = (seconds_problem("--grace", grace, zero_ok=True)
                   or seconds_problem("--human-time", human_time)
                   or seconds_problem("--human-bank", human_bank, zero_ok=True))
        if problem:
            raise _fail(problem)
        from arena.sandbox.botfile import inside_bot_problem

        # Its replays are written as the games are played (see `arena play --replay`).
        problem = inside_bot_problem("--data", data)
        if problem:
            raise _fail(problem)
        the_lobby, extra = lobby_routes(bot or [], data, sandbox, grace, human_time, human_bank, sources)
    app = create_app(sources=sources, extra_routes=extra, warm=True)
    try:
        sock = listen(host, port)
    except OSError as exc:
        raise _fail(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}") from None
    from arena.cli.stopping import StopSignals

    # uvicorn catches Ctrl-C and SIGTERM itself: it finishes the requests in
    # flight, closes the connections, then raises the signal again to the
    # handler it found. That handler is StopSignals', so the lobby's games
    # are stopped next (their bots with them: serve_lobby) and the command
    # ends with one line; SIGTERM left at its default killed the command
    # there, before the lobby closed, and left the games' bots running.
    # Entered before the first line: a Ctrl-C from then on gets the line.
    signals = StopSignals()
    try:
        with signals:
            _run(app, sock, the_lobby, lobby)
    except KeyboardInterrupt as exc:
        if not signals.stopped:  # raised by asyncio.run's own Ctrl-C
            signals.signal = signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT
        what, code = signals.words()
        typer.echo(f"{what}: the server was stopped", err=True)
        raise typer.Exit(code) from None
    finally:
        sock.close()


def _run(app: Any, sock: Any, the_lobby: Any, lobby: bool) -> None:
    from arena.cli.webserve import serve_app

    def wrap(work: Any) -> Any:
        from arena.cli.people import serve_lobby

        return serve_lobby(work, the_lobby)

    serve_app(app, sock, "arena serve",
              lines=lambda base: [f"lobby: {base}lobby"] if lobby else [],
              limits={"ws_max_size": 64 * 1024},  # a seat page sends short actions
              wrap=None if the_lobby is None else wrap,
              stopping=None if the_lobby is None else the_lobby.watching.close)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
