"""`arena leaderboard show|publish`: the rating table of a tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

leaderboard_app = typer.Typer(help="Rating tables: show, publish.", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _table(folder: Path, reveal: bool = False, publishing: bool = False) -> object:
    from arena.tournament.config import TournamentConfigError, load_config
    from arena.tournament.fingerprint import FingerprintError
    from arena.tournament.registry import RegistryError
    from arena.tournament.secrecy import mark_revealed
    from arena.tournament.standings import build
    from arena.tournament.store import Store, StoreError

    try:
        # Reads stored results only: the bots' source folders are not needed.
        config = load_config(folder, check_bots=False)
        if not config.store_path.exists():
            raise TournamentConfigError(
                f"{config.store_path}: no results yet (run `arena tournament run {folder}`)")
        with Store(config.store_path) as store:
            table = build(config, store, reveal)
            if publishing and table.seed is not None and table.seed.seed is not None:
                # Published now: the versions registered from here on may know
                # it. (`show` prints it to the organiser, who knows it anyway.)
                mark_revealed(store, max((b.id for b in store.bots()), default=0))
            return table
    except (TournamentConfigError, StoreError, FingerprintError, RegistryError) as exc:
        raise _fail(str(exc)) from None


@leaderboard_app.command("show")
def show(folder: Annotated[Path, typer.Argument(help="tournament folder")]) -> None:
    """Print the rating table as Markdown."""
    from arena.tournament.publish import to_markdown

    typer.echo(to_markdown(_table(folder)), nl=False)  # type: ignore[arg-type]


@leaderboard_app.command("publish")
def publish(
    folder: Annotated[Path, typer.Argument(help="tournament folder")],
    out: Annotated[Path | None, typer.Option(
        "--out", help="output folder (default: leaderboards/<tournament name>)")] = None,
    reveal: Annotated[bool, typer.Option(
        "--reveal", help="publish the tournament seed (and salt) now, before every planned "
        "match is finished")] = False,
    site: Annotated[bool, typer.Option(
        "--site/--no-site", help="also write the browsable site into OUT/site/")] = True,
) -> None:
    """Write leaderboard.md, .json, .csv and index.html, with the tournament
    seed's commitment (the seed itself once every planned match is finished),
    and the static site in site/ (tournament page, match list, head-to-head,
    per-bot pages, a replay player per match)."""
    from arena.tournament.publish import publish as write
    from arena.tournament.standings import Table

    table = _table(folder, reveal, publishing=True)
    assert isinstance(table, Table)
    target = out if out is not None else Path("leaderboards") / table.name
    try:
        paths = write(table, target)
    except OSError as exc:
        raise _fail(f"{target}: cannot write the leaderboard there: "
                    f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")
                    ) from None
    for path in paths:
        typer.echo(f"wrote {path}")
    if table.seed is not None:
        typer.echo(f"seed commitment: {table.seed.commitment}")
        typer.echo(f"seed revealed: {table.seed.seed} (salt {table.seed.salt})"
                   if table.seed.seed is not None else
                   f"seed kept secret: {table.finished} of {table.planned} planned matches "
                   "finished (--reveal publishes it now)")
    if site:
        from arena.web.export import publish_site

        try:
            files = publish_site(folder, target / "site")
        except OSError as exc:
            raise _fail(f"{target / 'site'}: cannot write the site there: "
                        f"{exc.strerror or exc}") from None
        typer.echo(f"wrote {target / 'site' / 'index.html'} and {len(files) - 1} more files "
                   "of the site (open index.html, or serve the folder)")


def register(app: typer.Typer) -> None:
    app.add_typer(leaderboard_app, name="leaderboard")
