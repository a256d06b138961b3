"""A long match's player data in parts (arena/web/chunks.py): the parts put
together are the whole data, view by view; the page carries only the first
deals (small, and ready before the rest is re-played); the player in
Chromium loads the next deals as it needs them: stepping on, End, a deal of
the deals table, a link to a late step, and a seat's view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.game import Rules
from arena.referee.replay import read_replay
from arena.web.app import create_app
from arena.web.chunks import FIRST, LONG, Cursor, deals_part, start_part
from arena.web.player import player_data

from .browser import browser, open_player, serve
from .stored import ROOT, write_replay

SHOTS = ROOT / "test-artefacts" / "screenshots"
# The golden random policy 1 on seed 0 plays all of max_deals (here 40).
LONG_RULES = Rules.preset("standard").replace(max_deals=40)


@pytest.fixture(scope="module")
def long_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long") / "long.jsonl"
    write_replay(path, LONG_RULES, seed=0, policy_seed=1)
    assert len(read_replay(path).deals) > LONG
    return path


def expand(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out, current = [], {}
    for s in steps:
        current = {**current, **s["v"]}
        out.append(current)
    return out


def parts(path: Path, viewer: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    cursor = Cursor(read_replay(path))
    start = start_part(cursor, viewer)
    steps = list(start["steps"])
    more = start["more"]
    while more is not None:
        part = deals_part(cursor, viewer, more)
        assert part["from"] == more
        steps += part["steps"]
        more = part["more"]
    return start, steps


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_the_parts_together_are_the_whole(long_replay: Path, viewer: int | None) -> None:
    whole = player_data(read_replay(long_replay), viewer)
    start, steps = parts(long_replay, viewer)
    assert {k: start[k] for k in ("format", "match", "deals", "result")} == \
        {k: whole[k] for k in ("format", "match", "deals", "result")}
    assert len(steps) == len(whole["steps"])
    assert expand(steps) == expand(whole["steps"])
    assert [(s["a"], s["t"], s["r"]) for s in steps] == [(s["a"], s["t"], s["r"]) for s in whole["steps"]]
    # The first part is the first FIRST deals, no more.
    assert {v["deal_number"] for v in expand(start["steps"])} <= set(range(1, FIRST + 2))


def test_the_page_of_a_long_match_is_its_start(long_replay: Path) -> None:
    client = TestClient(create_app([long_replay]))
    page = client.get("/r/long?view=all")
    whole = client.get("/api/r/long/all.json")
    assert page.status_code == 200 and whole.status_code == 200
    assert len(page.content) < len(whole.content) / 5, (len(page.content), len(whole.content))
    start = client.get("/api/r/long/1/start.json").json()
    assert start["more"] == FIRST + 1 and start["match"]["viewer"] == 1
    part = client.get(f"/api/r/long/1/deals/{start['more']}.json").json()
    assert part["from"] == FIRST + 1 and part["steps"]
    # Bad input: one line each.
    for url, status in (("/api/r/long/1/deals/1.json", 422), ("/api/r/long/1/deals/999.json", 422),
                        ("/api/r/long/7/start.json", 404), ("/api/r/long/1/nope.json", 404)):
        answer = client.get(url)
        assert answer.status_code == status, (url, answer.status_code)
        assert "\n" not in answer.text.strip() and "Traceback" not in answer.text


@pytest.mark.slow
@pytest.mark.browser
def test_the_player_loads_deals_as_it_needs_them(long_replay: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    total = len(player_data(read_replay(long_replay), None)["steps"])
    deals = len(read_replay(long_replay).deals)
    with serve([long_replay]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url))
        open_player(page, f"{base}/r/long?view=all")
        held = page.evaluate("window.arenaPlayer.state.data.steps.length")
        assert held < total / 5
        assert not any("/all.json" in u for u in asked)  # never the whole match
        # The deals table lists every deal; a late one loads what it needs.
        assert page.locator("#deals tr[data-deal]").count() == deals
        page.locator(f'#deals tr[data-deal="{deals - 5}"] td').first.click()
        page.wait_for_function(f"window.arenaPlayer.state.views[window.arenaPlayer.state.step].deal_number === {deals - 5}")
        page.screenshot(path=str(SHOTS / "player-long-1280.png"), full_page=True)
        page.keyboard.press("End")
        page.wait_for_function(f"window.arenaPlayer.state.step === {total - 1}")
        assert page.evaluate("window.arenaPlayer.state.data.more") is None
        assert any("/deals/" in u for u in asked)
        # A link to a late step of a seat's view opens there.
        view1 = player_data(read_replay(long_replay), 1)["steps"]
        k = len(view1) - 30
        open_player(page, f"{base}/r/long?view=1&step={k}")
        assert page.evaluate("window.arenaPlayer.state.step") == k
        shown = page.locator('#table .seat[data-seat="1"] .hand .card, #deal-end').count()
        assert shown > 0
        want = expand(view1)[k]
        assert page.evaluate("window.arenaPlayer.state.views[window.arenaPlayer.state.step]") == \
            json.loads(json.dumps(want))
