"""`arena bot ...`: bot commands (`add` submits a bot to a tournament, `check` tries one)."""

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


@bot_app.command("check")
def check(
    bot_path: Path = typer.Argument(..., help="bot folder (with bot.toml)"),
    rules: str = typer.Option("standard", "--rules", help="rules preset (see `arena rules list`)"),
    deals: int = typer.Option(3, "--deals", min=1, help="deals to play"),
    seed: int = typer.Option(1, "--seed", help="deal seed"),
    time_per_move: float = typer.Option(1.0, "--time-per-move", help="seconds per decision"),
    bank: float = typer.Option(10.0, "--bank", help="time bank in seconds"),
    startup: float = typer.Option(15.0, "--startup", help="seconds to connect and say hello"),
    sandbox: str = typer.Option("auto", "--sandbox", help="auto | docker | bwrap | process"),
) -> None:
    """Play a short match against two random bots and report, line by line,
    whether the bot starts, connects, answers in time, plays legally and
    finishes. Exit status 0 when all is well, 1 otherwise."""
    from arena.cli.bot_check import CheckOptions, check_bot

    if sandbox not in ("auto", "docker", "bwrap", "process"):
        typer.echo(f"error: --sandbox {sandbox!r}: expected auto, docker, bwrap or process", err=True)
        raise typer.Exit(2)
    typer.echo(f"checking {bot_path} ({deals} deals of {rules} against two random bots)")
    report = check_bot(bot_path, CheckOptions(
        rules=rules, deals=deals, seed=seed, per_move=time_per_move, bank=bank,
        startup=startup, sandbox=sandbox,
    ))
    for line in report.lines:
        typer.echo(line)
    if report.log_tail:
        typer.echo("last lines of the bot's output:")
        for line in report.log_tail:
            typer.echo(f"  | {line}")
    typer.echo("result: ok" if report.ok else "result: FAILED")
    raise typer.Exit(0 if report.ok else 1)


def register(app: typer.Typer) -> None:
    app.add_typer(bot_app, name="bot")
