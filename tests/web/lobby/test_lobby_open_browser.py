"""In Chromium, through a real `arena serve --lobby`: the create form's
options in plain words, grouped (rules, clocks, seats), each with its help;
a seat opened to anyone is taken from the lobby's open tables by a visitor
who was sent no link, and the game is played to its end. Screenshots at
1280 and 390 px go to test-artefacts/screenshots/."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules

from ..human.seat_driver import play_all_to_the_end
from .lobby_pages import _lobby

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-artefacts" / "screenshots"


def test_a_visitor_sits_at_an_open_table_and_the_form_speaks_plainly(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann_ctx, bea_ctx = browser.new_context(), browser.new_context()
    creator = ann_ctx.new_page()
    creator.goto(f"{base}/lobby")
    # The form: three groups (rules, clocks, seats); every rule option in
    # words, with a help line, under one of the rule groups.
    assert creator.locator("#create > fieldset > legend").all_inner_texts() == ["Rules", "Clocks", "Seats"]
    options = creator.locator("#rule-options .option")
    assert options.count() == len(Rules.option_names())
    helps = options.locator(".help").all_inner_texts()
    assert len(helps) == options.count() and all(len(h.split()) >= 3 for h in helps)
    assert creator.locator("#rule-options legend").all_inner_texts() == ["The table", "Bidding", "Play", "Scoring"]
    assert "Talon unseen at 100" in creator.locator('[data-option="hidden_talon_on_100"]').inner_text()
    assert creator.locator("#clocks .help").inner_text().startswith("each person's time")

    creator.fill("input[name=name0]", "ann")
    creator.select_option("select[name=seat1]", "person")
    creator.check("input[name=open1]")
    creator.select_option("select[name=seat2]", "random")
    creator.click("#create details summary")
    creator.fill("input[name=options]", "max_deals=1")
    creator.click("#create-go")
    creator.wait_for_selector("#links a.join")
    game = creator.url.rsplit("/", 1)[1]
    assert "(open to anyone)" in creator.locator('#seats tr[data-seat="1"]').inner_text()
    ann_link = creator.locator('#links li[data-seat="0"] a.join').get_attribute("href")

    # A visitor, sent no link, finds the table in the lobby and sits.
    visitor = bea_ctx.new_page()
    for width in (1280, 390):
        visitor.set_viewport_size({"width": width, "height": 900})
        visitor.goto(f"{base}/lobby")
        visitor.wait_for_selector(f'#open-tables li[data-game="{game}"]')
        visitor.screenshot(path=str(SHOTS / f"lobby-open-tables-{width}.png"), full_page=True)
        scroll, client = visitor.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, f"the lobby overflows at {width} px"
        if width == 390:  # a phone: buttons a finger can press
            heights = visitor.locator("main button").evaluate_all(
                "bs => bs.map(b => b.getBoundingClientRect().height)")
            assert heights and min(heights) >= 44, heights
    # The game's page offers the open seat too; it fits a phone.
    visitor.goto(f"{base}/lobby/game/{game}")
    assert visitor.locator("form.sit button").evaluate_all("bs => bs.map(b => b.dataset.seat)") == ["1"]
    assert visitor.locator("#links").count() == 0  # the join links are the creator's only
    visitor.screenshot(path=str(SHOTS / "lobby-game-open-seat-390.png"), full_page=True)
    assert visitor.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    # Its replay (all the cards) is not served before the game is over.
    assert visitor.request.get(f"{base}/lobby/game/{game}/replay.jsonl").status == 404
    visitor.goto(f"{base}/lobby")
    buttons = visitor.locator(f'#open-tables li[data-game="{game}"] button')
    assert buttons.evaluate_all("bs => bs.map(b => b.dataset.seat)") == ["1"]  # ann's seat is by link
    visitor.fill(f'#open-tables li[data-game="{game}"] input[name=name]', "bea")
    buttons.first.click()
    visitor.wait_for_selector("#seat-page")
    assert visitor.url.endswith(f"/game/{game}/seat/1")

    ann = ann_ctx.new_page()
    ann.goto(str(ann_link))
    play_all_to_the_end([ann, visitor])
    assert "bea" in visitor.locator("#result").inner_text()
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    assert db.execute("SELECT kind, name FROM seats WHERE game=? ORDER BY seat", (game,)).fetchall() == [
        ("person", "ann"), ("person", "bea"), ("bot", "random")]
    creator.goto(f"{base}/lobby")
    assert re.search(r"No game waits for people with an open seat", creator.content())
    proc.stop()
