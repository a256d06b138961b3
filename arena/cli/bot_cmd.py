"""`arena bot ...`: bot commands (`add` submits a bot to a tournament, `check` tries one)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.checks import SEED_MAX
from arena.cli.stopping import OneMatchStop, Terminated

if TYPE_CHECKING:
    from collections.abc import Callable

    from arena.cli.bot_check import CheckOptions
    from arena.manifest import BotSpec
    from arena.tournament import BotRow, TournamentConfig

# The validation match of `bot add`: long enough to see a bot start,
# connect, answer in time and play legally (bot check plays 3 by default).
VALIDATION_DEALS = 2

bot_app = typer.Typer(help="Bots: submit to a tournament, check.", no_args_is_help=True)


@bot_app.command("add")
def add(
    tournament_dir: Annotated[
        Path, typer.Argument(help="tournament folder (with tournament.toml)")],
    bot_path: Annotated[Path, typer.Argument(help="bot folder (with bot.toml)")],
    deals: Annotated[int, typer.Option(
        "--deals", min=1, max=100, help="deals of the validation match")] = VALIDATION_DEALS,
) -> None:
    """Validate a bot (bot.toml, then a short validation match under the
    tournament's rules, time control and sandbox, as `bot check` plays),
    copy it into the tournament and record its version. A bot that fails
    the match is refused with the reason, and nothing stored changes."""
    from arena.tournament import TournamentError, add_bot, load_config

    stop = OneMatchStop()
    try:
        config = load_config(tournament_dir)
        row, created = add_bot(config, bot_path, _validation(config, deals, stop))
    except TournamentError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt as exc:
        # Ctrl-C or SIGTERM is acted on during the validation match, its one
        # long part (the store is written only after it): nothing was added.
        stop.hold(signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
        what, code = stop.words()
        typer.echo(f"\n{what}: the bot was not added", err=True)
        raise typer.Exit(code) from None
    state = (_added(config, row) if created else "unchanged (this content is already known)")
    typer.echo(f"{row.name} {row.version} [{row.content_hash[:12]}]: {state}; snapshot {row.path}")
    if stop.signal is not None:
        # Held while the bot was stored (after its check): it is added, whole.
        what, code = stop.words()
        typer.echo(f"{what}: after the bot was added", err=True)
        raise typer.Exit(code)


def _added(config: TournamentConfig, row: BotRow) -> str:
    """What `bot add` stored: a bot new to the tournament, or a new version
    of one (naming the one before, which the leaderboard ranks apart)."""
    from arena.tournament import Store

    with Store(config.store_path, readonly=True) as store:
        earlier = [b for b in store.bots() if b.name == row.name and b.id != row.id]
    if not earlier:
        return "added (its first version)"
    last = earlier[-1]
    return f"added as a new version (earlier: {last.version} [{last.content_hash[:12]}])"


def _validation(config: TournamentConfig, deals: int,
                stop: OneMatchStop) -> Callable[[BotSpec], str]:
    """The validation match of `bot add`: `bot check`'s match, under the
    tournament's rules, time control and sandbox; the first failed check."""
    from arena.cli.bot_check import CheckOptions, check_bot

    def validate(spec: BotSpec) -> str:
        tc = config.match.time_control
        options = CheckOptions(
            # A random seed (seed=None): a bot must not recognise its validation by the deals.
            rules=config.match.rules_preset, deals=deals, seed=None, per_move=tc.per_move, bank=tc.bank,
            startup=tc.startup, sandbox=config.match.sandbox,
            # The check's own length replaces the tournament's.
            options=tuple((k, v) for k, v in config.match.rules_options if k != "max_deals"))
        report = check_bot(Path(spec.path), options, stop)
        if stop.signal is not None:
            raise stop.exception()  # came as the match ended: still nothing stored
        if report.ok:
            return ""
        failed = [line.strip().removeprefix("FAIL").strip() for line in report.lines
                  if line.strip().startswith("FAIL")]
        return (failed[0] if failed else "the match did not finish") + \
            f" (details: arena bot check {spec.path})"

    return validate


@bot_app.command("check")
def check(
    bot_path: Annotated[Path, typer.Argument(help="bot folder (with bot.toml)")],
    rules: Annotated[
        str, typer.Option("--rules", help="rules preset (see `arena rules list`)")] = "standard",
    deals: Annotated[int, typer.Option("--deals", min=1, help="deals to play")] = 3,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=SEED_MAX, help="deal seed (default: a random one, printed)")] = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="secret the bots' ARENA_SEED is made from (default: random, printed)")] = None,
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", help="seconds per decision")] = 1.0,
    bank: Annotated[float, typer.Option("--bank", help="time bank in seconds")] = 10.0,
    startup: Annotated[
        float, typer.Option("--startup", help="seconds to connect and say hello")] = 15.0,
    sandbox: Annotated[
        str, typer.Option("--sandbox", help="auto | docker | bwrap | process")] = "auto",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="rules option override NAME=VALUE (repeatable), e.g. a tournament's")] = None,
    pondering: Annotated[bool, typer.Option(
        "--pondering", help="let the bots use the CPU while another seat decides "
        "(default: paused meanwhile, as in tournaments)")] = False,
) -> None:
    """Play a short match against random bots and report, line by line,
    whether the bot starts, connects, answers in time, plays legally and
    finishes. Exit status 0 when all is well, 1 otherwise."""
    from arena.cli.bot_check import CheckOptions, check_bot
    from arena.referee.rulechoice import rules_overrides

    overrides, problem = rules_overrides(option)
    options = CheckOptions(
        rules=rules, deals=deals, seed=seed, key=key, per_move=time_per_move, bank=bank,
        startup=startup, sandbox=sandbox, options=tuple(overrides), pondering=pondering,
    )
    players = 0
    if not problem:
        players, problem = _check_options(options)
    if problem:
        # The user's mistake, not the bot's: a usage error before anything runs.
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    shown = "".join(f" {k}={v}" for k, v in overrides)
    stop = OneMatchStop()
    try:
        typer.echo(f"checking {bot_path} ({deals} deals of {rules}{shown} against "
                   f"{players - 1} random bots)")
        report = check_bot(bot_path, options, stop)
    except KeyboardInterrupt as exc:
        stop.hold(signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
        what, code = stop.words()
        typer.echo(f"\n{what}: the check was stopped; the bot was not judged", err=True)
        raise typer.Exit(code) from None
    for line in report.lines:
        typer.echo(line)
    if report.log_tail:
        typer.echo("last lines of the bot's output:")
        for line in report.log_tail:
            typer.echo(f"  | {line}")
    typer.echo("result: ok" if report.ok else "result: FAILED")
    if stop.signal is not None:
        # Held while the report was printed (the match had finished).
        what, code = stop.words()
        typer.echo(f"{what}: after the check had finished; its report is above", err=True)
        raise typer.Exit(code)
    raise typer.Exit(0 if report.ok else 1)


def _check_options(options: CheckOptions) -> tuple[int, str]:
    """The number of seats, and what is wrong with `bot check`'s own options
    ("" if nothing)."""
    from arena.cli.bot_check import check_rules
    from arena.cli.checks import seconds_problem
    from arena.sandbox import SandboxError, resolve_level

    if options.key is not None and not options.key.strip():
        return 0, "--key: must not be empty"
    if options.sandbox not in ("auto", "docker", "bwrap", "process"):
        return 0, f"--sandbox {options.sandbox!r}: expected auto, docker, bwrap or process"
    problem = (seconds_problem("--time-per-move", options.per_move)
               or seconds_problem("--startup", options.startup)
               or seconds_problem("--bank", options.bank, zero_ok=True))
    if problem:
        return 0, problem
    try:
        players = check_rules(options).players
    except ValueError as exc:
        return 0, str(exc)
    if options.sandbox != "auto":
        try:
            resolve_level(options.sandbox)
        except SandboxError as exc:
            return 0, f"--sandbox: {exc}"
    return players, ""


def register(app: typer.Typer) -> None:
    app.add_typer(bot_app, name="bot")
