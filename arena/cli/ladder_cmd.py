"""`arena ladder new|user add|user list|serve|rate|freeze|finals`: a standing competition
(docs/ladder.md)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.cluster_options import InsecureOption, TlsOption

if TYPE_CHECKING:  # imported lazily at run time: the CLI starts often
    from arena.ladder.season import Season
    from arena.tournament import Executor

ladder_app = typer.Typer(help="Ladders: a standing competition authors submit to.",
                         no_args_is_help=True)
user_app = typer.Typer(help="The ladder's users (bot authors) and their API tokens.",
                       no_args_is_help=True)
ladder_app.add_typer(user_app, name="user")

# `ladder new` without --reference: the sample bots of this repository.
SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
DEFAULT_REFERENCE = ("random", "greedy")


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@ladder_app.command("new")
def new(
    folder: Annotated[Path, typer.Argument(help="folder to create (must not hold a ladder.toml)")],
    reference: Annotated[list[Path] | None, typer.Option(
        "--reference", help="a reference bot's folder, copied in (repeatable; default: the "
        "random and greedy sample bots)")] = None,
) -> None:
    """Write a commented ladder.toml into FOLDER (a random secret seed) and
    copy the reference bots into FOLDER/reference/."""
    from arena.ladder.create import new_ladder
    from arena.ladder.errors import LadderError
    from arena.sandbox.botfile import inside_bot_problem

    problem = inside_bot_problem("", folder)
    if problem:
        raise _fail(problem)
    chosen = list(reference or [SAMPLE_BOTS / name for name in DEFAULT_REFERENCE
                                if (SAMPLE_BOTS / name / "bot.toml").is_file()])
    try:
        path = new_ladder(folder, chosen)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"wrote {path} (its seed is secret: keep the folder private)")
    typer.echo(f"next: arena ladder user add {folder} NAME, then arena ladder serve {folder}")


@user_app.command("add")
def user_add(
    folder: Annotated[Path, typer.Argument(help="the ladder's folder")],
    name: Annotated[str, typer.Argument(help="the user's name (letters, digits, _ -)")],
    organiser: Annotated[bool, typer.Option(
        "--organiser", help="may read every bot's logs (the organiser's own account)")] = False,
) -> None:
    """Add a user and print their API token, once: only its hash is stored."""
    from arena.ladder.create import add_user
    from arena.ladder.errors import LadderError

    try:
        user, token = add_user(folder, name, organiser)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"user {user.name} added{' (organiser)' if user.organiser else ''}; their token "
               "(shown this once, stored hashed; hand it over privately):", err=True)
    typer.echo(token)


@user_app.command("list")
def user_list(folder: Annotated[Path, typer.Argument(help="the ladder's folder")]) -> None:
    """The users (never their tokens: only hashes are stored)."""
    from arena.ladder.config import load_config
    from arena.ladder.errors import LadderError
    from arena.ladder.store import Store

    try:
        config = load_config(folder)
        with Store(config.store_path) as store:
            users = store.users()
    except LadderError as exc:
        raise _fail(str(exc)) from None
    for u in users:
        typer.echo(f"{u.name}{'  (organiser)' if u.organiser else ''}")


@ladder_app.command("serve")
def serve(
    folder: Annotated[Path, typer.Argument(help="the ladder's folder")],
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="port (0: any free one, printed)")] = 8000,
    dask: Annotated[str, typer.Option(
        "--dask", help="play the matches on this Dask scheduler (tcp://host:port, "
        "tls://host:port, or 'local')")] = "",
    tls: TlsOption = "",
    insecure: InsecureOption = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=0, help="matches at once (default: ladder.toml's workers)")] = None,
) -> None:
    """Serve the ladder (its pages and HTTP API) and play it: submissions
    validated, blocks played and rated, in this process tree (the local
    pool of workers) or on a Dask scheduler with --dask."""
    import signal

    from arena.cli.stopping import StopSignals, Terminated
    from arena.ladder.config import load_config
    from arena.ladder.errors import LadderError
    from arena.ladder.season import Season
    from arena.ladder.store import Store
    from arena.tournament import (
        TournamentError,
        dask_address_problem,
        make_executor,
        pin_process,
        scheduler_problem,
        server_split,
    )
    from arena.web.listen import listen

    if dask and (problem := dask_address_problem(dask)):
        raise _fail(f"--dask: {problem}")
    try:
        config = load_config(folder)
        store = Store(config.store_path)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    kind = "dask" if dask else config.executor
    address = dask or config.dask_address
    if kind == "dask" and (problem := scheduler_problem(address, tls, insecure)):
        store.close()
        raise _fail(problem)  # before anything is served or played
    count = config.workers if workers is None else workers

    # The server's own CPU, the matches' slots on the others (where there
    # is one to spare): readers of the pages never slow a bot's clock.
    server_cpus, slots = server_split(count) if config.cpu_slots and kind == "local" and count \
        else ((), None)

    def executor() -> Executor:
        return make_executor(kind, count, address, quiet=True, pin_cpus=config.cpu_slots,
                             slots=slots if server_cpus else None,
                             sandbox=config.match.sandbox, tls=tls, insecure=insecure)

    try:
        sock = listen(host, port)
    except OSError as exc:
        store.close()
        raise _fail(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}") from None
    season = Season(config, store, executor)
    signals = StopSignals()
    try:
        with signals:
            try:
                season.start()
            except (LadderError, TournamentError) as exc:
                raise _fail(str(exc)) from None
            note = ""
            if server_cpus and pin_process(server_cpus):  # after the pool took its slots
                note = (f"web server on CPU {','.join(map(str, server_cpus))}, matches on "
                        f"CPUs {' | '.join(','.join(map(str, s)) for s in slots or [])}")
            _serve(season, sock, config.quotas.connections, note)
    except KeyboardInterrupt as exc:
        if not signals.stopped:
            signals.signal = signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT
        what, code = signals.words()
        typer.echo(f"{what}: the ladder server was stopped", err=True)
        raise typer.Exit(code) from None
    finally:
        season.stop()
        store.close()
        sock.close()


@ladder_app.command("rate")
def rate(folder: Annotated[Path, typer.Argument(help="the ladder's folder")]) -> None:
    """Print the season's batch rating: TrueSkill fitted over every rated
    block at once (order-free, no drift), beside the live table's."""
    from arena.ladder.config import load_config
    from arena.ladder.errors import LadderError
    from arena.ladder.finals import batch_table
    from arena.ladder.store import Store

    try:
        config = load_config(folder)
        with Store(config.store_path) as store:
            table = batch_table(store)
            live = {s.id: s for s in store.submissions(state="active")}
    except LadderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"ladder {config.name}: batch rating of every rated block (live table beside)")
    typer.echo("| # | bot | version | author | rating | mu | sigma | matches | live rating |")
    typer.echo("|---|---|---|---|---|---|---|---|---|")
    for rank, st in enumerate(table, 1):
        s, r = st.submission, st.rating
        held = live[s.id]
        now = (f"{held.mu - 3 * held.sigma:.2f}" if held.mu is not None and held.sigma is not None
               else "-")
        typer.echo(f"| {rank} | {s.bot} | {s.version} | {s.author or '(reference)'} | "
                   f"{r.conservative:.2f} | {r.mu:.2f} | {r.sigma:.2f} | {st.matches} | {now} |")


@ladder_app.command("freeze")
def freeze(
    folder: Annotated[Path, typer.Argument(help="the ladder's folder")],
    undo: Annotated[bool, typer.Option("--undo", help="unfreeze: the season goes on")] = False,
) -> None:
    """Freeze the ladder for its finals: no submission is taken and no new
    block planned (a running `arena ladder serve` sees it at once; blocks
    in play finish and are rated). --undo lets the season go on."""
    from arena.ladder.config import load_config
    from arena.ladder.errors import LadderError
    from arena.ladder.finals import freeze as do_freeze
    from arena.ladder.finals import unfreeze
    from arena.ladder.store import Store

    try:
        config = load_config(folder)
        with Store(config.store_path) as store:
            changed = unfreeze(store) if undo else do_freeze(store)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    if undo:
        typer.echo(f"ladder {config.name}: " + ("unfrozen, the season goes on" if changed
                                                 else "was not frozen"))
    else:
        typer.echo(f"ladder {config.name}: " + ("frozen" if changed else "already frozen")
                   + f"; next: arena ladder finals {folder}")


@ladder_app.command("finals")
def finals(
    folder: Annotated[Path, typer.Argument(help="the ladder's folder (frozen)")],
    top: Annotated[int, typer.Option("--top", min=3, max=64,
                                     help="finalists: the best bot of each of the top N authors")] = 6,
    sets: Annotated[int, typer.Option("--sets", min=1, max=100,
                                      help="duplicate sets: each triple's deals, all 6 seat orders")] = 1,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-j", min=0, max=1024, help="matches at once (default: ladder.toml's)")] = None,
    dask: Annotated[str | None, typer.Option(
        "--dask", help="play on Dask: 'local', tcp://host:port or tls://host:port")] = None,
    tls: TlsOption = "",
    insecure: InsecureOption = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="publish here (default: leaderboards/<ladder>-finals)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress output")] = False,
) -> None:
    """Play the finals of a frozen ladder and publish them: the top N
    authors' best bots, every triple in all six seat orders (a full
    duplicate round robin), rated with tau 0; the seed committed to before
    the first match and revealed after the last, with the results bundle
    `arena verify` re-checks. Resumes a stopped finals run."""
    from arena.cli import leaderboard_cmd, tournament_cmd
    from arena.ladder.config import load_config
    from arena.ladder.errors import LadderError
    from arena.ladder.finals import prepare
    from arena.ladder.store import Store

    try:
        config = load_config(folder)
        with Store(config.store_path) as store:
            place = prepare(config, store, top, sets)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"finals of ladder {config.name}: {place / 'tournament.toml'}")
    tournament_cmd.run(place, quiet=quiet, concurrency=workers, dask=dask, tls=tls,
                       insecure=insecure, cpu_slots=None, stop="fixed")
    leaderboard_cmd.publish(place, out=out or Path("leaderboards") / f"{config.name}-finals",
                            reveal=False, site=True, bundle=True)


def _serve(season: Season, sock: socket.socket, connections: int, note: str = "") -> None:
    import logging

    from arena.cli.webserve import serve_app
    from arena.web.app import create_app
    from arena.web.ladder.routes import Ladder, ladder_routes
    from arena.web.sources import Catalog

    app = create_app(sources=Catalog({}, {}), extra_routes=ladder_routes(Ladder(season.intake)),
                     home="/ladder/")
    workers = f"{season.workers} worker{'s' if season.workers != 1 else ''}"
    logging.getLogger("arena.ladder").setLevel(logging.INFO)
    # Bounded: connections at once (past it: 503), request bodies (the
    # routes read no further than their caps), idle keep-alive.
    serve_app(app, sock, "arena ladder",
              lines=lambda base: [f"ladder {season.config.name}: {base}ladder/ "
                                  f"({workers}{'; ' + note if note else ''})"],
              limits={"limit_concurrency": connections, "timeout_keep_alive": 5,
                      "h11_max_incomplete_event_size": 64 * 1024})


def register(app: typer.Typer) -> None:
    app.add_typer(ladder_app, name="ladder")
