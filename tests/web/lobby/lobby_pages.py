"""The lobby in a browser: `arena serve --lobby` started, a game created
from its form, a page reopened. Shared by the lobby browser tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from clihelp import ROOT


def _lobby(run_arena: Any, tmp_path: Path) -> tuple[Any, str]:
    proc = run_arena("serve", "--lobby", *BOTS, "--data", str(tmp_path / "lobby"), "--port", "0",
                     "--sandbox", "process", "--grace", "60")
    url = re.search(r"lobby: (http://127\.0\.0\.1:\d+)/lobby", proc.wait_line("lobby: "))
    assert url, "arena serve --lobby printed no address"
    return proc, url.group(1)


def reopen(page: Any, url: str) -> Any:
    """`url` in a new tab of `page`'s browser context, `page` closed. A game's
    page refreshes itself every 3 s until the game ends (a meta refresh), and
    a goto on that tab can collide with its refresh: chromium then aborts the
    goto (net::ERR_ABORTED, seen in CI). A new tab has no refresh pending."""
    fresh = page.context.new_page()
    fresh.goto(url)
    page.close()
    return fresh


def _create(page: Any, base: str, seats: list[tuple[str, str]], options: str) -> list[str]:
    """Create a game from the lobby's form; the creator's join links, in seat order."""
    page.goto(f"{base}/lobby")
    for i, (choice, name) in enumerate(seats):
        page.select_option(f"select[name=seat{i}]", choice)
        page.fill(f"input[name=name{i}]", name)
    if options:
        page.click("#create details summary")  # the advanced text field
        page.fill("input[name=options]", options)
    page.click("#create-go")
    page.wait_for_selector("#links a.join")  # the game's page, loaded
    assert re.search(r"/lobby/game/[0-9a-f]+$", page.url)
    return page.locator("#links a.join").evaluate_all("els => els.map(e => e.href)")


BOTS = ["--bot", str(ROOT / "sample_bots" / "random"), "--bot", str(ROOT / "sample_bots" / "greedy")]


