"""`arena submit URL BOT_FOLDER`: a bot author's upload to a ladder
(docs/ladder.md), then its state until it is on the table or refused."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

POLL_SECONDS = 1.0


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def submit(
    url: Annotated[str, typer.Argument(help="the ladder's address (its table's URL will do)")],
    folder: Annotated[Path, typer.Argument(help="the bot's folder (bot.toml at its top)")],
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", help="a file holding your token (default: $ARENA_TOKEN_FILE, "
        "$ARENA_TOKEN, then ~/.config/arena/token)")] = None,
    token: Annotated[str | None, typer.Option(
        "--token", help="the token itself (others on this machine can read a command line: "
        "prefer a file)")] = None,
    wait: Annotated[bool, typer.Option(
        "--wait/--no-wait", help="follow the submission until it is active or refused")] = True,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=1, help="seconds to follow it (then the page's address is printed)")] = 900,
    insecure: Annotated[bool, typer.Option(
        "--insecure", help="allow plain http:// to another machine (the token crosses "
        "the network readable)")] = False,
) -> None:
    """Upload a bot to a ladder with your API token; print the submission's
    page; follow it through validation (exit 0 once active, 1 if refused)."""
    from arena.ladder import client
    from arena.ladder.errors import LadderError

    try:
        base = client.base_url(url, insecure)
        secret = client.find_token(token, token_file)
        archive = client.pack(folder)
        made = client.submit(base, secret, archive)
    except LadderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"submission {made['id']}: {made['bot']} {made['version']}, {len(archive)} bytes "
               f"sent: {made['url']}")
    if not wait:
        return
    shown = ""
    end = time.monotonic() + timeout
    try:
        while True:
            try:
                now = client.status(base, secret, int(made["id"]))
            except LadderError as exc:
                raise _fail(str(exc)) from None
            state = str(now.get("state", "?"))
            if state != shown:
                shown = state
                reason = f": {now['reason']}" if state == "refused" and now.get("reason") else ""
                typer.echo(f"  {state}{reason}")
            if state in client.SETTLED:
                break
            if time.monotonic() > end:
                typer.echo(f"still {state} after {timeout:g} s; follow it at {made['url']}")
                return
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        typer.echo(f"stopped following it (the ladder goes on): {made['url']}", err=True)
        raise typer.Exit(130) from None
    if shown == "refused":
        raise typer.Exit(1)
    if shown == "active":
        typer.echo(f"on the ladder: {base}/ladder/bot/{made['bot']}")


def register(app: typer.Typer) -> None:
    app.command("submit")(submit)
