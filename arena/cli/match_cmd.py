"""`arena play` (one match between bots) and `arena replay show`."""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.checks import SEED_MAX, seconds_problem
from arena.cli.stopping import OneMatchStop
from arena.referee.rulechoice import rules_overrides

if TYPE_CHECKING:  # imported lazily at run time: the CLI starts often
    from arena.referee.spec import MatchResult, MatchSpec

replay_app = typer.Typer(help="Replays of matches (JSON Lines).", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def play(
    bots: Annotated[list[Path], typer.Argument(
        help="bot folders (with bot.toml), in seat order; `human` or `human:NAME` for a person")],
    rules: Annotated[
        str, typer.Option("--rules", help="rules preset (see `arena rules list`)")] = "standard",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="rules option override NAME=VALUE (repeatable)")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=SEED_MAX, help="deal seed (default: a random one, printed)")] = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="secret the bots' ARENA_SEED is made from (default: a random one, "
        "printed; with the same --seed it repeats the match exactly)")] = None,
    time_per_move: Annotated[float, typer.Option(
        "--time-per-move", help="seconds per decision (plus the bank)")] = 1.0,
    bank: Annotated[float, typer.Option("--bank", help="time bank in seconds")] = 10.0,
    pondering: Annotated[bool, typer.Option(
        "--pondering", help="let bots use the CPU while another seat decides "
        "(default: each is paused meanwhile, docs/protocol.md)")] = False,
    startup: Annotated[float, typer.Option(
        "--startup", help="seconds each bot has to connect and say hello")] = 15.0,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="write the replay (JSON Lines) here")] = None,
    sandbox: Annotated[
        str, typer.Option("--sandbox", help="auto | docker | bwrap | process")] = "auto",
    transport: Annotated[
        str, typer.Option("--transport", help="unix (socket file) | tcp (127.0.0.1)")] = "unix",
    logs: Annotated[
        Path | None, typer.Option("--logs", help="keep the bots' logs in this folder, each with its decision marks")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    human_time: Annotated[float, typer.Option(
        "--human-time", help="a person's seconds per decision (plus --human-bank)")] = 60.0,
    human_bank: Annotated[float, typer.Option("--human-bank", help="a person's time bank")] = 120.0,
    grace: Annotated[float, typer.Option(
        "--grace", help="seconds a person who closed the page has to come back")] = 60.0,
    host: Annotated[str, typer.Option(
        "--host", help="address the human seats' pages are served on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        "--port", min=0, max=65535, help="port of those pages (0: any free one)")] = 0,
    open_page: Annotated[bool, typer.Option(
        "--open/--no-open", help="open a person's page in the browser, where there is one")] = True,
    rematch: Annotated[bool, typer.Option(
        "--rematch", help="at the match's end a person's page offers a rematch (same options, "
        "new cards); the server waits --grace seconds for one")] = False,
    review: Annotated[bool, typer.Option(
        "--review", help="at the match's end a person's page offers \"Review this game\" (where "
        "that seat lost points: docs/analysis.md); needs --replay; the server waits --grace "
        "seconds for one and serves until its page is read")] = False,
) -> None:
    """Run one match between bots and print the deal-by-deal summary and the result."""
    from arena.cli.safelog import escape_controls
    from arena.referee.bot_seed import new_key, public_id
    from arena.referee.match import MatchSetupError, RulesChoiceError, build_rules
    from arena.referee.spec import MatchSpec, TimeControl
    from arena.referee.transcript import result_lines
    from arena.sandbox.botfile import BotFileError, inside_bot_problem, load_bot

    if sandbox not in ("auto", "docker", "bwrap", "process"):
        raise _fail(f"--sandbox {sandbox!r}: expected auto, docker, bwrap or process")
    if transport not in ("unix", "tcp"):
        raise _fail(f"--transport {transport!r}: expected unix or tcp")
    overrides, problem = rules_overrides(option)
    if problem:
        raise _fail(problem)
    problem = (seconds_problem("--time-per-move", time_per_move)
               or seconds_problem("--startup", startup)
               or seconds_problem("--bank", bank, zero_ok=True)
               or seconds_problem("--human-time", human_time)
               or seconds_problem("--human-bank", human_bank, zero_ok=True)
               or seconds_problem("--grace", grace, zero_ok=True))
    if problem:
        raise _fail(problem)
    if review and replay is None:
        raise _fail("--review: reviews a kept replay; give --replay FILE as well")
    if transport == "tcp" and sandbox != "process":
        raise _fail(f"--transport tcp needs --sandbox process: bots at the bwrap and docker levels "
                    f"have no network (--sandbox is {sandbox!r})")
    from arena.cli.people import human_seats
    from arena.referee.hosted import hosted_bot

    people, problem = human_seats([str(b) for b in bots])
    if problem:
        raise _fail(problem)
    if not people:
        # A person's options in a match of bots only: dropped without a word
        # (`--port 8000` served nothing; the seat meant for a person was a typo).
        given = [name for name, value, default in (
            ("--human-time", human_time, 60.0), ("--human-bank", human_bank, 120.0),
            ("--grace", grace, 60.0), ("--host", host, "127.0.0.1"), ("--port", port, 0),
            ("--rematch", rematch, False), ("--review", review, False))
            if value != default]
        if given:
            raise _fail(f"{given[0]}: an option of a person's seat, and no seat is `human` "
                        "(`arena play human BOT BOT`: docs/people.md)")
    try:
        # A person's seat is filled by its bridge when the match starts (arena.web.human).
        specs = tuple(hosted_bot(people[i], "") if i in people else load_bot(b)
                      for i, b in enumerate(bots))
    except BotFileError as exc:
        raise _fail(str(exc)) from None
    if seed is None:
        # 63 bits: a bot cannot find the deal seed by trying seeds against its hand.
        seed = secrets.randbelow(2**63)
    if key is not None and not key.strip():
        raise _fail("--key: must not be empty")
    key = key if key is not None else new_key()
    spec = MatchSpec(
        # A random id: the bots are told it (MatchStart), so it must not be the seed.
        match_id=public_id("play"), bots=specs, seed=seed, key=key, rules_preset=rules,
        rules_options=tuple(overrides),
        time_control=TimeControl(per_move=time_per_move, bank=bank, startup=startup,
                                 pondering=pondering),
        sandbox=sandbox, transport="tcp" if transport == "tcp" else "unix",
        replay_path=str(replay.resolve()) if replay else "",
        work_dir=str(logs.resolve()) if logs else "",
    )
    # The rules before anything is created on disk, named by the flag that chose them.
    try:
        build_rules(spec)
    except RulesChoiceError as exc:
        flag = {"preset": "--rules: ", "option": "--option: "}.get(exc.part, "")
        raise _fail(f"{flag}{exc}") from None
    for named, where in (("--logs", logs), ("--replay", replay)):
        # A replay's part file is written as the match is played: in a bot's
        # folder, that bot (which reads its folder at every level) would see it.
        problem = inside_bot_problem(named, where) if where is not None else ""
        if problem:
            raise _fail(problem)
    if logs is not None:
        if logs.exists() and not logs.is_dir():
            raise _fail(f"--logs {logs}: not a folder")
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(f"--logs {logs}: cannot create the folder: {exc.strerror}") from None
    if replay is not None:
        if replay.is_dir():
            raise _fail(f"--replay {replay}: is a folder; give a file name")
        try:
            replay.parent.mkdir(parents=True, exist_ok=True)
            # The match writes a part file in that folder and moves it over
            # the replay once it has a result: the folder must take files.
            with tempfile.NamedTemporaryFile(dir=replay.parent, prefix=f"{replay.name}.", suffix=".part"):
                pass
        except OSError as exc:
            raise _fail(f"--replay {replay}: cannot write there: {exc.strerror}") from None
    from arena.referee.match import play_match

    match: Callable[[MatchSpec], Awaitable[MatchResult]] = play_match
    if people:
        from arena.cli.people import play_people

        human_tc = TimeControl(per_move=human_time, bank=human_bank, increment=0.0)

        def match(s: MatchSpec) -> Awaitable[MatchResult]:
            return play_people(s, people, host, port, human_tc, grace, open_page, rematch, review)
    stop = OneMatchStop()
    done: list[MatchResult] = []
    try:
        with _told_warnings():
            asyncio.run(stop.run(match(spec), done))
    except (MatchSetupError, ValueError, OSError) as exc:
        raise _fail(str(exc)) from None
    except (KeyboardInterrupt, asyncio.CancelledError):
        if not done:
            stop.hold(signal.SIGINT)  # asyncio.run's Ctrl-C, if SIGTERM did not
            what, code = stop.words()
            typer.echo(f"{what}: the match was stopped; it has no result", err=True)
            raise typer.Exit(code) from None
        stop.hold(signal.SIGINT)  # a Ctrl-C as the match ended: its result stands
    result = done[0]
    if as_json:
        typer.echo(json.dumps(asdict(result) | {"key": key}, indent=2))
    else:
        for line in result_lines(result):
            typer.echo(escape_controls(line))  # `human:NAME` is free text too
        typer.echo(f"repeat with: --seed {seed} --key {key}")
    if stop.signal is not None:
        # Held while the result was printed (the match had finished, its
        # replay written): said after it, and the status tells it too.
        what, code = stop.words()
        typer.echo(f"{what}: the match had finished; its result is above", err=True)
        raise typer.Exit(code)


@contextmanager
def _told_warnings() -> Iterator[None]:
    """The match's warnings (the referee refusing a stream: "unknown token")
    as the command's own lines, each one printable line, instead of Python's
    last-resort handler printing the bare message. Only while the match is
    played: the logging setup is left as it was found."""
    import logging

    from arena.cli.safelog import terminal_handler

    logger = logging.getLogger("arena")
    handler = terminal_handler("arena play: warning: %(message)s")
    handler.setLevel(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


@replay_app.command("show")
def show(
    file: Annotated[Path, typer.Argument(help="a replay file written by `arena play --replay`")],
    seat: Annotated[str, typer.Option(
        "--seat", help="a seat number, or 'all' to show every hand")] = "all",
) -> None:
    """Tell a recorded match deal by deal, from one seat's view or all."""
    from arena.cli.safelog import escape_controls
    from arena.referee.replay import ReplayError, read_replay
    from arena.referee.transcript import replay_lines

    try:
        rep = read_replay(file)
        n = len(rep.header.get("bots", ()))
        if seat == "all":
            viewer = None
        elif seat.isdigit() and int(seat) < n:
            viewer = int(seat)
        else:
            raise ReplayError(f"--seat {seat!r}: expected 'all' or a seat number 0..{n - 1}")
        for line in replay_lines(rep, viewer):
            # A replay's names are free text (a person's, typed into the
            # lobby by anyone who reaches it): its control characters, escape
            # sequences that would clear or retitle this terminal, as \xNN.
            typer.echo(escape_controls(line))
    except ReplayError as exc:
        raise _fail(str(exc)) from None


@replay_app.command("html")
def html(
    file: Annotated[Path, typer.Argument(help="a replay file (JSON Lines)")],
    out: Annotated[Path, typer.Option("-o", "--out", help="the HTML file to write")],
) -> None:
    """Write the replay player as one self-contained HTML file (opens from
    file://, no server, no network)."""
    from arena.referee.replay import ReplayError
    from arena.web.export import replay_html

    try:
        page = replay_html(file)
    except ReplayError as exc:
        raise _fail(str(exc)) from None
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{out}: cannot write: {exc.strerror or exc}") from None
    typer.echo(f"wrote {out}")


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.add_typer(replay_app, name="replay")
