"""`arena play human --rematch`: at the match's end the person's panel offers
a rematch; pressing it in Chromium plays a new match with the same options
and new cards through the same real `arena play` process (real bot
processes), its replay beside the first's; a rematch is refused to another
browser and to a post from another site. Screenshots at 1280 and 390 px go
to test-artefacts/screenshots/."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from arena.game import new_game
from arena.referee.replay import check, read_replay

from .seat_driver import play_to_the_end

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
GREEDY, RANDOM = str(ROOT / "sample_bots" / "greedy"), str(ROOT / "sample_bots" / "random")
URL = re.compile(r"open (http://127\.0\.0\.1:\d+)(/join/\S+)")
SHOTS = ROOT / "test-artefacts" / "screenshots"


def test_a_rematch_from_the_end_of_match_panel(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    proc = run_arena("play", "human:ann", GREEDY, RANDOM, "--no-open", "--seed", "7", "--key", "k3y",
                     "--option", "max_deals=1", "--sandbox", "process", "--replay", str(replay),
                     "--rematch", "--grace", "4")
    url = URL.search(proc.wait_line("open http"))
    assert url, "arena play printed no join link"
    base = url.group(1)
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base + url.group(2))
    play_to_the_end(page)
    button = page.locator("#result #rematch")
    assert button.is_visible() and "new cards" in page.locator("#rematch-form").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"human-rematch-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert button.bounding_box()["height"] >= 44  # a phone: a button a finger can press

    # Refused: another browser (no seat cookie), and the seat's own browser posting from another site.
    other = browser.new_context()
    got = other.request.post(f"{base}/game/play/seat/0/rematch", headers={"Origin": base}, max_redirects=0)
    assert got.status == 403 and "held this seat" in got.text()
    got = ctx.request.post(f"{base}/game/play/seat/0/rematch", headers={"Origin": "http://evil.example"},
                           max_redirects=0)
    assert got.status == 403 and "another site" in got.text()
    other.close()

    button.click()
    page.wait_for_url(re.compile(r"/game/play/seat/0$"))
    # The rematch's bots start now: under a loaded CI machine that took over 30 s.
    page.wait_for_selector("#hand .card", timeout=120_000)
    assert page.locator("#result:not([hidden])").count() == 0  # a new match, not the old panel
    play_to_the_end(page)
    code, out, err = proc.finish()
    assert code == 0, err

    again = replay.with_name("game-rematch1.jsonl")
    first, second = read_replay(replay), read_replay(again)
    assert check(again) == tuple(second.result["totals"])
    assert first.header["rules"] == second.header["rules"]          # the same options
    assert [b["name"] for b in second.header["bots"]] == ["ann", "greedy", "random"]
    assert second.header["seed"] != first.header["seed"]              # new cards
    assert new_game(first.rules, seed=first.seed).hand(0) != new_game(second.rules, seed=second.seed).hand(0)
    from arena.web.human.play import rematch_spec

    spec = dataclasses.make_dataclass("S", [("key", str), ("seed", int), ("match_id", str),
                                            ("replay_path", str)])("k3y", 7, "m", "")
    assert second.header["seed"] == rematch_spec(spec, 1).seed  # type: ignore[arg-type]
    assert out.count("seat 0 ann@human:") == 2                   # both results printed
    assert f"rematch 1: --seed {second.header['seed']}" in out
    assert "refused a rematch posted from another site" in err and "without the seat's cookie" in err
