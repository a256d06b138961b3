"""`arena verify BUNDLE`: re-check a published table from its bundle alone."""

from __future__ import annotations

from typing import Annotated

import typer


def verify(
    bundle: Annotated[str, typer.Argument(
        help="the bundle: its folder (OUT/bundle of `leaderboard publish`, or OUT itself), "
        "or an http(s) URL of either")],
    head: Annotated[str | None, typer.Option(
        "--head", help="the manifest head the organiser published: refuse any other bundle")
    ] = None,
) -> None:
    """Check a published table from its results bundle alone (no store, no
    bots): the seed commitment, the schedule, every deal seed, every replay
    re-played with the engine, and the table recomputed. Exit 0 when all
    agree, 1 at the first difference (named), 2 when the bundle cannot be read."""
    from arena.verify.errors import Mismatch, VerifyError
    from arena.verify.run import lines
    from arena.verify.source import opened

    try:
        with opened(bundle) as folder:
            for line in lines(folder, head):
                typer.echo(line)
    except Mismatch as exc:
        typer.echo(f"DIFFERENCE: {exc}")
        typer.echo("not verified: the table is not what the published games give", err=True)
        raise typer.Exit(1) from None
    except VerifyError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
