"""The `arena` command line: the only place that prints or calls asyncio.run.

Each sub-module owns one group of commands and exposes `register(app)`, so
the groups can grow independently without touching this file.
"""

from __future__ import annotations

import typer

from arena.cli import bot_cmd, leaderboard_cmd, match_cmd, rules_cmd, sandbox_cmd, tournament_cmd

app = typer.Typer(
    name="arena",
    help="Tournament engine for bots that play the card game 1000.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (rules_cmd, match_cmd, bot_cmd, tournament_cmd, leaderboard_cmd, sandbox_cmd):
    _module.register(app)


def main() -> None:
    app()
