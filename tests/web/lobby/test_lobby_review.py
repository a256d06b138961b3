""""Review this game" after a lobby game, in Chromium over a real `arena
serve --lobby`: a person plays a one-deal game against two real bot
processes, presses Review this game on the end-of-game panel, watches its
progress and reads where the seat lost points; the report is `arena analyze
--seat-view` of that seat (the same bytes as the analysis run here), and the
replay player's seat view draws it. Refused: before the game is over (409),
to another browser (403), from another site (403). Screenshots at 1280 and
390 px go to test-artefacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena.analysis.replay import Settings, analyse, dumps
from arena.referee.replay import read_replay
from arena.web.review import WORK, report_path

from ..human.seat_driver import play_to_the_end
from .lobby_pages import _create, _lobby

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-artefacts" / "screenshots"


def test_a_person_reviews_their_lobby_game(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    ctx = browser.new_context()
    creator = ctx.new_page()
    [link] = _create(creator, base, [("person", "ann"), ("greedy", ""), ("random", "")], "max_deals=1")
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#hand .card")
    review = re.sub(r"$", "/review", page.url)
    game = re.search(r"/game/(\w+)/seat/0$", page.url)
    assert game, page.url

    # Refused: while the game is played, another browser, another site.
    got = ctx.request.post(review, headers={"Origin": base}, max_redirects=0)
    assert got.status == 409 and "still being played" in got.text()
    play_to_the_end(page)
    other = browser.new_context()
    got = other.request.post(review, headers={"Origin": base}, max_redirects=0)
    assert got.status == 403 and "held this seat" in got.text()
    assert other.request.get(review + ".json").status == 403
    other.close()
    got = ctx.request.post(review, headers={"Origin": "http://evil.example"}, max_redirects=0)
    assert got.status == 403 and "another site" in got.text()

    button = page.locator("#result #review")
    assert button.is_visible()
    button.click()
    page.wait_for_url(re.compile(r"/game/\w+/seat/0/review$"))
    page.wait_for_selector("#review[data-state=done], #review[data-state=failed]",
                           timeout=180_000)  # the page refreshes itself
    assert page.locator("#review").get_attribute("data-state") == "done", page.inner_text("main")
    assert page.locator("#review-summary tr[data-part=all]").count() == 1

    # The report is the seat's view analysis of the game's replay, kept beside it.
    replay = tmp_path / "lobby" / "replays" / f"{game.group(1)}.jsonl"
    expected = dumps(analyse(read_replay(replay), 0, Settings(work=WORK, open_hand=False)))
    assert report_path(replay, 0).read_text(encoding="utf-8") == expected
    status = ctx.request.get(review + ".json").json()
    assert status["state"] == "done" and status["report"]["seat"] == 0
    marked = [d for d in status["report"]["decisions"] if d["label"]]
    assert page.locator("#review-marked tr[data-n]").count() == len(marked)
    if marked:  # the actions in words, by the shared card formatting
        assert re.search(r"(plays|bids|passes|gives|discards|names) ", page.locator("#review-marked td.action").first.inner_text())

    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"lobby-review-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    # The replay player's view of seat 0 draws the review under the table.
    page.click("#review-player")
    page.wait_for_selector("#analysis:not([hidden])")
    assert "view=0" in page.url
    data = ctx.request.get(f"{base}/api/r/lobby-{game.group(1)}/1/analysis.json").json()
    assert data == {"seats": []}   # another seat's view: not this seat's review
    proc.stop()
