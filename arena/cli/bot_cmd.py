"""`arena bot ...`: bot commands (`add` submits a bot to a tournament)."""

from __future__ import annotations

from pathlib import Path

import typer

bot_app = typer.Typer(help="Bots: submit to a tournament, check.", no_args_is_help=True)


@bot_app.command("add")
def add(
    tournament_dir: Path = typer.Argument(..., help="tournament folder (with tournament.toml)"),
    bot_path: Path = typer.Argument(..., help="bot folder (with bot.toml)"),
) -> None:
    """Validate a bot, copy it into the tournament and record its version."""
    from arena.tournament.config import TournamentConfigError, load_config
    from arena.tournament.registry import RegistryError, add_bot

    try:
        config = load_config(tournament_dir)
        row, created = add_bot(config, bot_path)
    except (TournamentConfigError, RegistryError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    state = "added as a new version" if created else "unchanged (this content is already known)"
    typer.echo(f"{row.name} {row.version} [{row.content_hash[:12]}]: {state}; snapshot {row.path}")


def register(app: typer.Typer) -> None:
    app.add_typer(bot_app, name="bot")
