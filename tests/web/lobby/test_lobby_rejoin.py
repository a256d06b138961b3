"""The lobby keeps a person's join link on the creator's game page while the
game waits or is played (marked taken once used), the browser that took
the seat comes back by it, the seat page's end links the game's page (its
result, the replay player), and its creator may ask for a rematch (the same
options and seats). Real `arena serve --lobby`, real bots, Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ..human.seat_driver import step
from .lobby_pages import _create, _lobby, reopen

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_a_taken_link_stays_listed_and_brings_its_browser_back(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    creator = context.new_page()
    links = _create(creator, base, [("person", "eve"), ("random", ""), ("greedy", "")], "max_deals=1")
    game_url = creator.url
    seat = context.new_page()
    seat.goto(links[0])  # the creator sits in its own game
    seat.wait_for_selector("#table .seat", timeout=60_000)
    seat_url = seat.url
    creator = reopen(creator, game_url)
    taken = creator.locator('#links li[data-taken="yes"] a.join')
    assert taken.count() == 1 and taken.get_attribute("href") == links[0]
    assert "taken" in creator.locator("#links").inner_text()
    # The tab closed, the link opened again: the same seat, where it was.
    step(seat)  # one action if one is waiting (the bots may act first)
    seat.close()
    again = context.new_page()
    response = again.goto(links[0])
    assert response is not None and response.status == 200
    assert again.url == seat_url
    # Another browser is still refused.
    other = browser.new_context().new_page()
    response = other.goto(links[0])
    assert response is not None and response.status == 403
    for _ in range(400):
        if again.locator("#result:not([hidden])").count():
            break
        if not step(again):
            again.wait_for_timeout(50)
    again.wait_for_selector("#end-links a", timeout=60_000)
    href = again.locator("#end-links a").get_attribute("href")
    assert href and re.fullmatch(r"/lobby/game/[0-9a-f]+", href) and game_url.endswith(href)
    again.locator("#end-links a").click()
    again.wait_for_selector("#player", timeout=60_000)  # the finished game links the player
    # A rematch: the same options and seats, new join links, by the creator only.
    options = again.locator("main > p").nth(1).inner_text()
    again.click("#rematch")
    again.wait_for_selector("#links a.join")
    assert again.url != game_url and re.search(r"/lobby/game/[0-9a-f]+$", again.url)
    assert again.locator("main > p").nth(1).inner_text() == options
    assert again.locator("#seats tr[data-seat]").all_inner_texts()[0].startswith("0\teve")
    assert again.locator("#links li").count() == 1 and again.locator("#links a.join").get_attribute("href") != links[0]
    response = other.request.post(game_url + "/rematch")
    assert response.status == 403
    proc.stop()


def test_a_waiting_game_can_be_cancelled_by_its_creator(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    creator = browser.new_context().new_page()
    links = _create(creator, base, [("person", "fay"), ("person", "gus"), ("random", "")], "")
    game_url = creator.url
    other = browser.new_context().new_page()
    assert other.request.post(game_url + "/cancel").status == 403  # not its creator
    creator.click("#cancel")
    creator.wait_for_selector('#game-status[data-status="failed"]')
    assert "cancelled by its creator" in creator.locator("#game-status").inner_text()
    assert creator.locator("#links").count() == 0
    response = other.goto(links[0])
    assert response is not None and response.status == 404  # the link opens no seat now
    proc.stop()
    assert "cancelled by its creator" in "".join(proc.out) + (proc.proc.stderr.read() if proc.proc.stderr else "")
