"""Helpers of the browser tests: Debian's chromium driven by Playwright, and
`arena serve` run as a user runs it (a real process on a loopback port)."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from clihelp import start

from arena.referee.replay import read_replay, replay_states

CHROMIUM = "/usr/bin/chromium"
# As root in a container: no sandbox; and nothing that would reach the network.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def need_chromium() -> None:
    """Skip without Debian's chromium, except in CI, where scripts/test.sh installs it."""
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (bash scripts/setup.sh installs it)")


@contextmanager
def browser() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def serve(paths: Sequence[Path]) -> Iterator[str]:
    """`arena serve PATHS --port 0`; yields its base URL."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = start("serve", *paths, "--port", "0", cwd=None,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
        assert m, f"arena serve said {line!r}; stderr: {proc.stderr.read() if proc.stderr else ''}"
        yield m.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def open_player(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#player[data-ready='1']", timeout=60_000)


def table_cards(page: Any) -> dict[str, Any]:
    """What the page shows: each seat's hand (face-up card texts, and how many
    backs), the trick, the talon, every face-up card anywhere on the table."""
    return page.evaluate("""() => {
      const seats = {};
      for (const box of document.querySelectorAll('.table .seat')) {
        const hand = [...box.querySelectorAll('.hand .card')];
        seats[box.dataset.seat] = {
          up: hand.map(c => c.dataset.card).filter(c => c),
          backs: hand.filter(c => !c.dataset.card).length,
        };
      }
      const trick = [...document.querySelectorAll('.table .trick .slot')].map(
        s => [Number(s.dataset.seat), s.querySelector('.card').dataset.card]);
      const talon = [...document.querySelectorAll('.table .talon .card')].map(c => c.dataset.card);
      const all = [...document.querySelectorAll('.table .card')].map(c => c.dataset.card).filter(c => c);
      const trump = document.querySelector('.table [data-trump]').dataset.trump;
      return {seats, trick, talon, all, trump, step: document.getElementById('slider').value};
    }""")


def no_overflow(page: Any) -> tuple[int, int]:
    return tuple(page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"))


def engine_states(path: Path) -> list[Any]:
    """The engine's game before each action of the replay at `path`, and last
    the final one: what a page must draw at each step is checked against these."""
    return [game for game, _rec in replay_states(read_replay(path))]
