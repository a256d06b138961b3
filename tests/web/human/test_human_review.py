"""`arena play human --review`: at the match's end the person's panel offers
"Review this game"; pressing it in Chromium runs the analysis of the
person's seat through the same real `arena play` process, whose page shows
it and which stops once it has been read (after --grace); the report is
kept beside the replay. `--review` without `--replay` is one line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import cli_here

from arena.analysis.replay import Settings, analyse, dumps
from arena.referee.replay import read_replay
from arena.web.review import WORK, report_path

from .seat_driver import play_to_the_end

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
GREEDY, RANDOM = str(ROOT / "sample_bots" / "greedy"), str(ROOT / "sample_bots" / "random")
URL = re.compile(r"open (http://127\.0\.0\.1:\d+)(/join/\S+)")


def test_review_this_game_after_arena_play_human(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    proc = run_arena("play", "human:ann", GREEDY, RANDOM, "--no-open", "--seed", "5",
                     "--option", "max_deals=1", "--sandbox", "process", "--replay", str(replay),
                     "--review", "--grace", "3")
    url = URL.search(proc.wait_line("open http"))
    assert url, "arena play printed no join link"
    page = browser.new_context().new_page()
    page.goto(url.group(1) + url.group(2))
    play_to_the_end(page)
    page.locator("#result #review").click()
    page.wait_for_selector("#review[data-state=done], #review[data-state=failed]", timeout=180_000)
    assert page.locator("#review").get_attribute("data-state") == "done", page.inner_text("main")
    assert page.locator("#review-summary tr[data-part=all]").count() == 1
    code, _out, err = proc.finish()
    assert code == 0, err
    expected = dumps(analyse(read_replay(replay), 0, Settings(work=WORK, open_hand=False)))
    assert report_path(replay, 0).read_text(encoding="utf-8") == expected


def test_review_needs_a_replay(tmp_path: Path) -> None:
    got = cli_here("play", "human:ann", GREEDY, RANDOM, "--no-open", "--review")
    assert got.returncode == 2 and got.stderr.strip().splitlines() == [
        "error: --review: reviews a kept replay; give --replay FILE as well"]


def test_a_review_that_fails_shows_no_server_folder(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    """A 2-player game cannot be analysed: its end-of-match panel offers no
    review, and one asked all the same says so in one
    line that names the replay's file, not the folder the server keeps it
    in (it used to show the absolute path)."""
    replay = tmp_path / "two.jsonl"
    proc = run_arena("play", "human:ann", RANDOM, "--no-open", "--seed", "5",
                     "--option", "players=2", "--option", "max_deals=1", "--sandbox", "process",
                     "--replay", str(replay), "--review", "--grace", "3")
    url = URL.search(proc.wait_line("open http"))
    assert url, "arena play printed no join link"
    page = browser.new_context().new_page()
    page.goto(url.group(1) + url.group(2))
    play_to_the_end(page)
    # Not offered for a 2-player game; asked all the same (the seat's own
    # browser, from its site), it fails in one line.
    assert page.locator("#result #review").count() == 0
    review = page.url + "/review"
    got = page.context.request.post(review, headers={"Origin": url.group(1)})
    assert got.ok, got.status
    page.goto(review)
    page.wait_for_selector("#review[data-state=done], #review[data-state=failed]", timeout=180_000)
    assert page.locator("#review").get_attribute("data-state") == "failed"
    text = page.inner_text("main")
    assert "two.jsonl: the 2-player forms cannot be analysed" in text, text
    assert str(tmp_path) not in page.content()
    status = page.context.request.get(page.url + ".json").json()
    assert status["state"] == "failed" and str(tmp_path) not in status["error"], status
