"""`arena play human BOT BOT`: a person plays in a real browser against two
real bot processes, by clicking the highlighted cards and buttons."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules, new_game
from arena.referee.replay import check, read_replay

from .seat_driver import marriage_pairs, play_to_the_end, step

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
GREEDY, RANDOM = str(ROOT / "sample_bots" / "greedy"), str(ROOT / "sample_bots" / "random")
URL = re.compile(r"open (http://127\.0\.0\.1:\d+/join/\S+)")


def _seed_with_a_marriage() -> int:
    """A seed whose first deal gives seat 0 a marriage (to see its gold dots)."""
    rules = Rules.preset("standard")
    return next(s for s in range(500) if marriage_pairs([str(c) for c in new_game(rules, seed=s).hand(0)]))


def test_a_person_plays_a_whole_match_by_clicking(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    seed = _seed_with_a_marriage()
    replay = tmp_path / "human.jsonl"
    proc = run_arena("play", "human:alice", GREEDY, RANDOM, "--no-open", "--seed", str(seed),
                     "--option", "max_deals=2", "--sandbox", "process", "--replay", str(replay))
    url = URL.search(proc.wait_line("open http"))
    assert url, "arena play printed no join link"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url.group(1))
    assert re.search(r"/game/play/seat/0$", page.url)  # the join link redirects to the seat's page
    page.wait_for_selector("#status.turn, #hand .card", timeout=60_000)
    seen = play_to_the_end(page)
    result = page.locator("#result").inner_text()
    code, out, err = proc.finish()
    assert code == 0, err
    page.screenshot(path=str(tmp_path / "seat-result.png"), full_page=True)
    assert not errors
    # The page names its (empty) icon: the browser asks for no /favicon.ico,
    # whose 404 was a WARNING line on the player's terminal at every page load.
    assert "favicon" not in err, err

    # The page shows the result the referee decided; the CLI prints the same.
    rep = read_replay(replay)
    places = rep.result["places"]
    assert f"you finished {['first', 'second', 'third'][places[0] - 1]}" in result
    assert "alice" in result and "greedy" in result and "random" in result
    assert re.search(r"seat 0 alice@human: -?\d+ +\[ok\] +\d+ decisions, .*no faults; sandbox human", out)
    assert "levels are mixed" not in out  # a person's seat is no less confined bot
    # Every click was a legal action (the referee counted no fault), and each one decision.
    human_actions = [a for a in rep.actions if a["seat"] == 0]
    assert len(human_actions) == seen["sent"] == seen["clicks"] > 0
    assert all(a["fault"] is None for a in human_actions)
    assert rep.header["bots"][0]["name"] == "alice" and rep.header["sandbox"][0] == "human"
    assert rep.header["seat_time_controls"]["0"]["per_move"] == 60.0
    assert check(replay) == tuple(rep.result["totals"])  # an ordinary replay: it re-plays
    # Cards were dimmed where they could not be played; marriages carried their dot.
    assert seen["dimmed"] > 0
    assert seen["pairs"] and seen["dots"] == seen["pairs"]
    assert seen["plus"] == 1  # the auction's + was used once
    # The person's own clock counts down from its limit (60 s per move + 120 s bank).
    minutes, seconds = map(int, re.fullmatch(r"(\d+):(\d\d) left", seen["clock"]).groups())  # type: ignore[union-attr]
    assert 120 < 60 * minutes + seconds <= 180


def test_an_illegal_action_sent_by_hand_is_refused_and_recorded(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    """Over the page's own socket, an action the referee did not offer: the
    referee refuses it (an illegal fault in the replay), plays the default
    action in its place, and the page says so."""
    replay = tmp_path / "illegal.jsonl"
    proc = run_arena("play", "human", GREEDY, RANDOM, "--no-open", "--seed", "4",
                     "--option", "max_deals=1", "--sandbox", "process", "--replay", str(replay))
    url = URL.search(proc.wait_line("open http"))
    assert url
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(url.group(1))
    page.wait_for_selector("#status.turn", timeout=60_000)
    # The status names the seat to act, from the observation the request carried.
    assert page.locator("#seat-page").get_attribute("data-to-act") == "0"
    status = page.locator("#status").inner_text()
    assert re.fullmatch(r"seat 0 \(\S+\) to act: your turn"
                        r"( \(last: seat [12] \((greedy|random)\) — \S.*\))?", status), status
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    seq = page.locator("#seat-page").get_attribute("data-seq")
    legal = page.locator("#seat-page").get_attribute("data-legal") or ""
    bad = "bid 995"
    assert bad not in legal.split("|")
    page.evaluate("([seq, action]) => document.getElementById('seat-page').socket.send("
                  "JSON.stringify({type: 'act', seq, action}))", [seq, bad])
    page.wait_for_selector("#notices p.error", timeout=30_000)
    assert "not one of the legal actions" in page.locator("#notices").inner_text()
    # A second answer to the same decision is not sent on at all.
    page.evaluate("([seq, action]) => document.getElementById('seat-page').socket.send("
                  "JSON.stringify({type: 'act', seq, action}))", [seq, "pass"])
    page.wait_for_function("document.querySelectorAll('#notices p.error').length >= 2")
    # (answered already, or, if the next request came first, not the one waiting)
    assert re.search(rf"decision {seq} (was answered already|is waiting)",
                     page.locator("#notices").inner_text())
    play_to_the_end(page)
    code, out, err = proc.finish()
    assert code == 0, err
    rep = read_replay(replay)
    first = next(a for a in rep.actions if a["seat"] == 0)
    assert first["fault"] == "illegal" and bad in first["note"]
    assert first["action"] != bad  # not applied: the default action was played
    assert rep.result["faults"][0]["illegal"] == 1
    assert "1 illegal" in out or "illegal" in out


def _open(browser: Any, run_arena: Any, *extra: str) -> tuple[Any, Any, str]:
    """`arena play human GREEDY RANDOM` with `extra`; a browser context on the join link."""
    proc = run_arena("play", "human", GREEDY, RANDOM, "--no-open", "--sandbox", "process", *extra)
    url = URL.search(proc.wait_line("open http"))
    assert url
    context = browser.new_context()
    page = context.new_page()
    page.goto(url.group(1))
    return proc, page, url.group(1)


def _click_once(page: Any) -> None:
    page.wait_for_selector("#status.turn", timeout=60_000)
    pas = page.locator('#actions button[data-action="pass"]')
    (pas if pas.count() else page.locator("#actions button[data-action], #hand button.card.legal")).first.click()


def test_a_join_link_admits_one_browser(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    proc, page, link = _open(browser, run_arena, "--seed", "2", "--option", "max_deals=1")
    page.wait_for_selector("#status.turn", timeout=60_000)
    other = browser.new_context().new_page()
    response = other.goto(link)
    assert response is not None and response.status == 403
    assert "used already" in other.locator("#error-message").inner_text()
    # Nor does the seat's page open without the seat's cookie.
    response = other.goto(page.url)
    assert response is not None and response.status == 403
    # A page that is not there is an error page too, not a bare text.
    response = other.goto(page.url.split("/game/")[0] + "/api/r/play/all.json")
    assert response is not None and response.status == 404
    assert "No page at /api/r/play/all.json" in other.locator("#error-message").inner_text()
    play_to_the_end(page)
    code, _out, err = proc.finish()
    assert code == 0
    assert "refused a second use of its join link" in err
    assert "refused a page without the seat's cookie" in err


def test_a_closed_tab_rejoins_within_the_grace(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    replay = tmp_path / "rejoin.jsonl"
    proc, page, _link = _open(browser, run_arena, "--seed", "6", "--option", "max_deals=1",
                              "--grace", "120", "--replay", str(replay))
    _click_once(page)
    seat_url, context = page.url, page.context
    page.close()
    again = context.new_page()  # the same browser (its cookie) opens the seat again
    again.goto(seat_url)
    seen = play_to_the_end(again)
    code, _out, err = proc.finish()
    assert code == 0, err
    rep = read_replay(replay)
    assert rep.result["statuses"][0] == "ok" and not any(rep.result["faults"][0].values())
    assert len([a for a in rep.actions if a["seat"] == 0]) == 1 + seen["sent"]
    assert "back at the table" in err


def test_after_the_grace_the_seat_plays_the_default_action_as_a_fault(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    replay = tmp_path / "left.jsonl"
    proc, page, _link = _open(browser, run_arena, "--seed", "6", "--option", "max_deals=1",
                              "--grace", "1", "--replay", str(replay))
    _click_once(page)
    seat_url, context = page.url, page.context
    page.close()
    code, out, err = proc.finish()  # the match is never stuck: it ends without the person
    assert code == 0, err
    rep = read_replay(replay)
    assert rep.result["statuses"][0] == "forfeit" and rep.result["faults"][0]["crash"] == 1
    assert "not back within 1s" in err
    later = [a for a in rep.actions if a["seat"] == 0][1:]
    assert later and later[0]["fault"] == "crash"  # the decision it missed, then default actions
    assert re.search(r"seat 0 human@human: .*\[forfeit\]", out)
    del seat_url, context


SLOW_BOT = """import sys, time
from arena.sdk import Bot, run


class Slow(Bot):
    name = "slow"
    decisions = 0

    def act(self, obs):
        # Thinks a while on its first two decisions: the person's page meanwhile
        # shows that it is this seat's turn, and its clock.
        self.decisions += 1
        if self.decisions <= 2:
            time.sleep(6)
        return obs.legal_actions[0]


raise SystemExit(run(Slow()))
"""


def _seconds(text: str, seat: int) -> int:
    m = re.fullmatch(rf"seat {seat} \(slow\): (\d+):(\d\d) left", text)
    assert m, text
    return 60 * int(m.group(1)) + int(m.group(2))


def test_the_page_shows_another_seats_turn_and_its_clock_while_it_thinks(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    """Between the person's own decisions the page says whose turn it is and
    counts down that seat's per-move time, live, from the Turn notices the
    bridge asks for (docs/protocol.md#turn-notices)."""
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "bot.py").write_text(SLOW_BOT)
    (slow / "bot.toml").write_text('name = "slow"\nversion = "1"\nlanguage = "python"\nrun = "python3 bot.py"\n')
    replay = tmp_path / "turns.jsonl"
    proc = run_arena("play", "human", str(slow), RANDOM, "--no-open", "--seed", "4", "--option", "max_deals=1",
                     "--sandbox", "process", "--time-per-move", "30", "--replay", str(replay))
    url = URL.search(proc.wait_line("open http"))
    assert url
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url.group(1))
    other_clock = '#clock.other[data-seat="1"]:not([hidden])'
    import time

    end = time.monotonic() + 90
    while not page.locator(other_clock).count():  # the person answers until the slow seat thinks
        assert time.monotonic() < end, "the page never showed seat 1's turn"
        if not step(page):
            page.wait_for_timeout(50)
    status = page.locator("#status").inner_text()
    assert re.match(r"seat 1 \(slow\) to act \((bidding|blind|exchange|play|contract)\)", status), status
    assert page.locator("#seat-page").get_attribute("data-to-act") == "1"
    assert not page.locator("#status.turn").count()  # not the person's turn
    first = page.locator("#clock").inner_text()
    assert 0 < _seconds(first, 1) <= 30  # its per-move time, counting down from 30 s
    # Live: the countdown moves while the bot thinks (the page counts on its own).
    page.wait_for_function("t => document.getElementById('clock').textContent !== t", arg=first,
                           timeout=30_000)
    later = page.locator("#clock")
    if later.get_attribute("data-seat") == "1" and "left" in later.inner_text():
        assert _seconds(later.inner_text(), 1) < _seconds(first, 1)
    page.screenshot(path=str(tmp_path / "seat-other-turn.png"), full_page=True)
    play_to_the_end(page)
    code, _out, err = proc.finish()
    assert code == 0, err
    assert not errors
    rep = read_replay(replay)
    assert rep.result["statuses"] == ["ok"] * 3 and not any(rep.result["faults"][1].values())
