"""The `arena` command line: the only place that prints or calls asyncio.run.

Each sub-module owns one group of commands and exposes `register(app)`, so
the groups can grow independently without touching this file.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
from typing import Any


def _stopped_while_starting(signum: int, frame: Any) -> None:
    raise SystemExit(130)


# Ctrl-C while the command's modules load (half a second) exits 130 without a
# traceback from the middle of an import; main() handles it from then on.
_STARTING = (threading.current_thread() is threading.main_thread()
             and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
if _STARTING:
    signal.signal(signal.SIGINT, _stopped_while_starting)

# The command line is an extra (`thousand-arena[cli]`): with the base
# package alone (a bot author's SDK) `arena` says so in one line (main).
_MISSING: ModuleNotFoundError | None = None
try:
    import typer

    from arena.cli import (
        analyze_cmd,
        bot_cmd,
        gauntlet_cmd,
        ladder_cmd,
        leaderboard_cmd,
        match_cmd,
        rules_cmd,
        sandbox_cmd,
        serve_cmd,
        submit_cmd,
        tournament_cmd,
        verify_cmd,
        worker_cmd,
    )
except ModuleNotFoundError as exc:
    if (exc.name or "arena").split(".")[0] == "arena":
        raise
    _MISSING = exc

if _STARTING:
    signal.signal(signal.SIGINT, signal.default_int_handler)

if _MISSING is None:
    app = typer.Typer(
        name="arena",
        help="Tournament engine for bots that play the card game 1000.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    for _module in (rules_cmd, match_cmd, bot_cmd, tournament_cmd, gauntlet_cmd, leaderboard_cmd,
                    sandbox_cmd, serve_cmd, verify_cmd, ladder_cmd, submit_cmd, analyze_cmd,
                    worker_cmd):
        _module.register(app)


def main() -> None:
    from arena.cli.extras import missing_line

    if _MISSING is not None:
        sys.stderr.write(missing_line(_MISSING.name or "typer") + "\n")
        raise SystemExit(2)
    from arena.cli.stopping import exiting, last_words

    try:
        os.getcwd()
    except FileNotFoundError:
        # Every relative path (and a default folder) would fail, each its own way.
        typer.echo("error: the current folder no longer exists (removed while this shell was "
                   "in it): cd to another one", err=True)
        raise SystemExit(2) from None
    try:
        # Not standalone: usage errors come here instead of being drawn in a box.
        code = app(standalone_mode=False, prog_name="arena")
    except (typer.Abort, KeyboardInterrupt) as exc:
        # Ctrl-C (SIGTERM) that no command turned into its own exit, wherever
        # it was raised: a run's one line if not said yet, and 130 (143).
        raise SystemExit(last_words(exc)) from None
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if not missing or missing == "arena":
            raise
        # Commands import their libraries lazily: an extra not installed
        # (extras.py names it), or a dependency added since this virtualenv
        # was set up (a `git pull` without `make setup`).
        typer.echo(missing_line(missing), err=True)
        raise SystemExit(2) from None
    except Exception as exc:
        if not _is_usage_error(exc):
            raise
        # One line, as every other bad input: a value out of range or of the
        # wrong type, an unknown option, a missing argument.
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.command_path}: " if ctx is not None else ""
        message = exc.format_message()  # type: ignore[attr-defined]
        grouped = _in_a_group(ctx, message)
        if grouped:  # ours names the command; click's guess by spelling ('ladder' for 'add') not
            message = message.split(" Did you mean")[0] + grouped
        typer.echo(f"error: {where}{message} (see --help)", err=True)
        raise SystemExit(2) from None
    exiting()
    raise SystemExit(code if isinstance(code, int) else 0)


def _in_a_group(ctx: Any, message: str) -> str:
    """For `arena status` (`arena run`, `arena add`, ...): the commands of that
    name in a group, which click's "Did you mean" (spelling only) never names."""
    found = re.match(r"No such command '([^']+)'\.", message)
    group = getattr(ctx, "command", None)
    if found is None or ctx.parent is not None or group is None:
        return ""
    name = found.group(1)
    matches = [f"'{ctx.command_path} {sub} {name}'"
               for sub, cmd in sorted(getattr(group, "commands", {}).items())
               if name in getattr(cmd, "commands", {})]
    return f" Did you mean {' or '.join(matches)}?" if matches else ""


def _is_usage_error(exc: BaseException) -> bool:
    # By name: typer ships click under a private module path (typer._click in
    # recent versions, click itself in older ones); both name it UsageError.
    return any(cls.__name__ == "UsageError" for cls in type(exc).__mro__) and hasattr(exc, "format_message")
