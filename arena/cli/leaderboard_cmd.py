"""`arena leaderboard show|publish`: the rating table of a tournament."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from arena.tournament import Table

leaderboard_app = typer.Typer(help="Rating tables: show, publish.", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _table(folder: Path, reveal: bool = False) -> tuple[Table, int]:
    """The rating table, and the id of the newest bot version stored when it
    was built (the versions up to it were registered before its seed, if it
    shows it, is published)."""
    from arena.tournament import Store, TournamentConfigError, TournamentError, load_config
    from arena.tournament import build_table as build

    try:
        # Reads stored results only: the bots' source folders are not needed.
        config = load_config(folder, check_bots=False)
        if not config.store_path.exists():
            raise TournamentConfigError(
                f"{config.store_path}: no results yet (run `arena tournament run {folder}`)")
        with Store(config.store_path) as store:
            return build(config, store, reveal), max((b.id for b in store.bots()), default=0)
    except TournamentError as exc:
        raise _fail(str(exc)) from None


def _mark_published(folder: Path, last_bot_id: int) -> None:
    """The seed is out (a file to show it is open): versions registered from
    here on may know it (arena/tournament/plan/secrecy.py). Marked then, never
    before: a publish that cannot open its first file (a bad --out) shows
    the seed to no one and changes nothing stored."""
    from arena.tournament import Store, StoreError, load_config, mark_revealed

    try:
        with Store(load_config(folder, check_bots=False).store_path) as store:
            mark_revealed(store, last_bot_id)
    except StoreError as exc:
        raise _fail(str(exc)) from None


@leaderboard_app.command("show")
def show(folder: Annotated[Path, typer.Argument(help="tournament folder")]) -> None:
    """Print the rating table as Markdown."""
    from arena.tournament import to_markdown

    # `show` prints the seed to the organiser, who knows it anyway: nothing is marked.
    typer.echo(to_markdown(_table(folder)[0]), nl=False)


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
    bundle: Annotated[bool, typer.Option(
        "--bundle/--no-bundle", help="also write the results bundle into OUT/bundle/ "
        "(what `arena verify` checks the table with)")] = True,
) -> None:
    """Write leaderboard.md, .json, .csv and index.html, with the tournament
    seed's commitment (the seed itself once every planned match is finished),
    and the static site in site/ (tournament page, match list, head-to-head,
    per-bot pages, a replay player per match), and the results bundle in
    bundle/ (settings, bots, results, replays, a hash-chained manifest)."""
    from arena.tournament import publish_table as write

    table, last_bot_id = _table(folder, reveal)
    target = out if out is not None else Path("leaderboards") / table.name
    shown = table.seed is not None and table.seed.seed is not None
    marked = [False]

    def opened(_path: Path) -> None:
        if shown and not marked[0]:
            _mark_published(folder, last_bot_id)
            marked[0] = True

    if site:
        from arena.web.export import foreign_entry

        # Found before the four files are written (and the seed, if they
        # show it, is out): the site's folder is replaced whole.
        foreign = foreign_entry(target / "site")
        if foreign is not None:
            raise _fail(f"{target / 'site'}: holds {foreign!r}, which no published site has: "
                        "not replaced (give another --out, or --no-site)")
    if bundle:
        from arena.tournament import bundle_format
        from arena.tournament import foreign_bundle_entry as foreign_in_bundle

        foreign = foreign_in_bundle(target / bundle_format.FOLDER)
        if foreign is not None:
            raise _fail(f"{target / bundle_format.FOLDER}: holds {foreign!r}, which no results "
                        "bundle has: not replaced (give another --out, or --no-bundle)")
    try:
        paths = write(table, target, opened)
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
    if bundle:
        _write_bundle(folder, table, target)


def _write_bundle(folder: Path, table: Table, target: Path) -> None:
    """The results bundle beside the four files (arena/tournament/results/bundle.py)."""
    from arena.tournament import Store, StoreError, bundle_format, load_config, to_json
    from arena.tournament import write_bundle as write

    out = target / bundle_format.FOLDER
    try:
        config = load_config(folder, check_bots=False)
        with Store(config.store_path) as store:
            done = write(config, store, table, to_json(table), out)
    except StoreError as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"{out}: cannot write the results bundle there: "
                    f"{exc.strerror or exc}") from None
    typer.echo(f"wrote {done.folder} ({done.matches} matches, {done.replays} replays); "
               f"manifest head {done.head} (`arena verify {done.folder}` checks it)")


def register(app: typer.Typer) -> None:
    app.add_typer(leaderboard_app, name="leaderboard")
