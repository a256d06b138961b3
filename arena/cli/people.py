"""Human seats of `arena play`: `human` or `human:NAME` in place of a bot folder."""

from __future__ import annotations

import logging
import os
import re
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from arena.referee.spec import MatchResult, MatchSpec, TimeControl
    from arena.web.human.seat import HumanSeat

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def human_seats(args: Sequence[str]) -> tuple[dict[int, str], str]:
    """The seats given as `human[:NAME]` -> their names, and a problem ("" if none).
    A bot folder called `human` is given as `./human`."""
    people: dict[int, str] = {}
    for i, arg in enumerate(args):
        if arg != "human" and not arg.startswith("human:"):
            continue
        name = arg.partition(":")[2] or ("human" if args.count("human") == 1 else f"human{i}")
        if not _NAME.match(name):
            return {}, (f"seat {i} {arg!r}: a person's name is 1 to 64 letters, digits, '_', '.' "
                        "or '-'")
        if name in people.values():
            return {}, f"seat {i} {arg!r}: two people are called {name!r}"
        people[i] = name
    return people, ""


def tell_seat_events() -> None:
    """The seats' joins, refusals, departures and returns on stderr, one line each."""
    logger = logging.getLogger("arena.web")
    if not logger.handlers:
        from arena.cli.safelog import terminal_handler

        logger.addHandler(terminal_handler("%(levelname)s: %(message)s"))
        logger.setLevel(logging.INFO)
        logger.propagate = False


def can_open_browser() -> bool:
    """A graphical browser can be opened here (never a text browser in this terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


async def play_people(spec: MatchSpec, people: dict[int, str], host: str, port: int,
                      time_control: TimeControl, grace: float, open_page: bool,
                      rematch: bool = False, review: bool = False) -> MatchResult:
    from arena.cli.safelog import escape_controls
    from arena.referee.transcript import result_lines
    from arena.web.human.play import play_with_people, rematch_spec

    tell_seat_events()

    def ready(links: list[tuple[HumanSeat, str]]) -> None:
        for seat, url in links:
            typer.echo(f"seat {seat.seat} ({seat.name}): open {url}")
        if host in ("0.0.0.0", "::"):
            typer.echo(f"(--host {host}: from another machine, put this machine's address in the link)")
        typer.echo("the match starts when every person has opened their link (Ctrl-C stops)")
        if open_page and len(links) == 1 and can_open_browser():
            webbrowser.open(links[0][1])

    played = [0]

    def result(done: MatchResult) -> None:
        # A match followed by a rematch: its result now, as the last one's
        # will be (`arena play` prints that one); then how to repeat the next.
        for line in result_lines(done):
            typer.echo(escape_controls(line))
        played[0] += 1
        typer.echo(f"rematch {played[0]}: --seed {rematch_spec(spec, played[0]).seed} "
                   "(with the same --key) deals its cards")

    return await play_with_people(spec, people, host=host, port=port, time_control=time_control,
                                  grace=grace, on_ready=ready, rematch=rematch, on_result=result,
                                  review=review)


def lobby_routes(bots: Sequence[Path], data: Path, sandbox: str, grace: float, human_time: float,
                 human_bank: float, sources: Any) -> tuple[Any, list[Any]]:
    """`arena serve --lobby`: the lobby's and the human seats' routes; bad input
    is one line and exit status 2 (typer.Exit)."""
    from arena.referee.spec import TimeControl
    from arena.sandbox.botfile import BotFileError, load_bot
    from arena.web.lobby.app import lobby_routes_for
    from arena.web.lobby.games import LobbyConfig
    from arena.web.sources import ReplayFile

    def fail(message: str) -> typer.Exit:
        typer.echo(f"error: {message}", err=True)
        return typer.Exit(2)

    if sandbox not in ("auto", "docker", "bwrap", "process"):
        raise fail(f"--sandbox {sandbox!r}: expected auto, docker, bwrap or process")
    specs = {}
    for b in bots:
        try:
            spec = load_bot(b)
        except BotFileError as exc:
            raise fail(f"--bot {b}: {exc}") from None
        if spec.name in specs:
            raise fail(f"--bot {b}: a second bot called {spec.name!r}")
        specs[spec.name] = spec
    if data.exists() and not data.is_dir():
        raise fail(f"--data {data}: not a folder")

    def publish(name: str, path: Path) -> str:
        sources.replays[name] = ReplayFile(name, path.resolve())
        return f"/r/{name}"

    tell_seat_events()
    config = LobbyConfig(folder=data.resolve(), bots=specs, sandbox=sandbox, grace=grace,
                         human_time=TimeControl(per_move=human_time, bank=human_bank, increment=0.0),
                         publish_replay=publish)
    try:
        return lobby_routes_for(config)
    except OSError as exc:  # "[Errno 30] Read-only file system: '...'" said less
        raise fail(f"--data {data}: cannot make the lobby's folder there: "
                   f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")) from None
    except ValueError as exc:
        raise fail(f"--data {data}: {exc}") from None


async def serve_lobby(serving: Any, lobby: Any) -> None:
    """uvicorn's `serve` (the coroutine `serving`), then the lobby's games
    stopped on the same loop (their bots stopped, their referees' servers
    closed) before the loop ends: a match cancelled only by the loop's
    teardown would leave gRPC half shut."""
    try:
        await serving
    finally:
        await lobby.close()
