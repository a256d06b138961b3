"""`arena ladder new|user add|serve|status`: a standing competition (docs/ladder.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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


def register(app: typer.Typer) -> None:
    app.add_typer(ladder_app, name="ladder")
