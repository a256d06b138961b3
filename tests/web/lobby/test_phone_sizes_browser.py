"""The watch page and the review page at 390 px in Chromium, over a real
`arena serve --lobby`: no horizontal overflow, and every button (and link
drawn as one) at least 44 px tall, while the game is played and at its
end, before a review is asked and once it is done."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ..human.seat_driver import play_to_the_end
from .lobby_pages import _create, _lobby

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
# Every control a finger presses: buttons, submit inputs, links drawn as buttons.
CONTROLS = "button, input[type=submit], input[type=button], a.button, [role=button]"


def _phone_problems(page: Any) -> list[str]:
    """What is wrong on the page at 390 px: overflow, visible controls under 44 px."""
    problems: list[str] = page.evaluate(f"""() => {{
        const out = [];
        const d = document.documentElement;
        if (d.scrollWidth > d.clientWidth) out.push(`overflow: ${{d.scrollWidth}} > ${{d.clientWidth}}`);
        for (const el of document.querySelectorAll({CONTROLS!r})) {{
            const r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;  // not drawn (hidden)
            if (r.height < 44) out.push(`${{el.tagName}}#${{el.id}} "${{el.textContent.trim().slice(0, 30)}}": ${{r.height}} px tall`);
        }}
        return out;
    }}""")
    return problems


def test_the_watch_and_review_pages_fit_a_phone(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    _proc, base = _lobby(run_arena, tmp_path)
    ctx = browser.new_context()
    creator = ctx.new_page()
    [link] = _create(creator, base, [("person", "ann"), ("greedy", ""), ("random", "")], "max_deals=1")
    game = re.search(r"/lobby/game/([0-9a-f]+)$", creator.url)
    assert game
    seat = ctx.new_page()
    seat.goto(link)
    seat.wait_for_selector("#hand .card")

    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{base}/lobby/game/{game.group(1)}/watch")
    watcher.wait_for_selector("#table .seat")
    assert _phone_problems(watcher) == []

    play_to_the_end(seat)
    watcher.wait_for_selector("#over #player", timeout=120_000)
    assert _phone_problems(watcher) == []

    seat.set_viewport_size(PHONE)
    assert _phone_problems(seat) == []  # the end-of-game panel with its Review button
    review = seat.url + "/review"
    seat.goto(review)
    assert seat.locator("#review").get_attribute("data-state") == "none"
    assert _phone_problems(seat) == []
    seat.click("#start-review")
    seat.wait_for_selector("#review[data-state=done], #review[data-state=failed]", timeout=180_000)
    assert seat.locator("#review").get_attribute("data-state") == "done", seat.inner_text("main")
    assert _phone_problems(seat) == []
