"""A page closed while another seat thinks, opened again within the grace:
it shows that seat to act and its per-move countdown where it stands (the
bridge's `turn_clock` frame), not restarted. Real browser, real `arena play`,
a real bot that thinks until the test lets it go."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from arena.referee.replay import read_replay

from .seat_driver import play_to_the_end, step

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
RANDOM = str(ROOT / "sample_bots" / "random")
URL = re.compile(r"open (http://127\.0\.0\.1:\d+/join/\S+)")
PER_MOVE = 60

# Thinks on its first decision until the file "go" is in its folder (which a
# sandboxed bot sees, read-only; at most 50 s, under its per-move time): the
# test, not the clock, decides when the turn ends.
WAITING_BOT = """import os, time
from arena.sdk import Bot, run


class Waiting(Bot):
    name = "slow"
    decisions = 0

    def act(self, obs):
        self.decisions += 1
        end = time.monotonic() + 50
        while self.decisions == 1 and not os.path.exists("go") and time.monotonic() < end:
            time.sleep(0.05)
        return obs.legal_actions[0]


raise SystemExit(run(Waiting()))
"""


def waiting_bot(folder: Path) -> Path:
    folder.mkdir()
    (folder / "bot.py").write_text(WAITING_BOT)
    (folder / "bot.toml").write_text('name = "slow"\nversion = "1"\nlanguage = "python"\nrun = "python3 bot.py"\n')
    return folder


def _seconds(text: str) -> int:
    m = re.fullmatch(r"seat 1 \(slow\): (\d+):(\d\d) left", text)
    assert m, text
    return 60 * int(m.group(1)) + int(m.group(2))


def test_a_page_reopened_during_another_seats_turn_shows_its_turn_and_clock(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    slow = waiting_bot(tmp_path / "slow")
    go = slow / "go"
    replay = tmp_path / "rejoin-turn.jsonl"
    proc = run_arena("play", "human", str(slow), RANDOM, "--no-open", "--seed", "4", "--option", "max_deals=1",
                     "--sandbox", "process", "--time-per-move", str(PER_MOVE), "--grace", "120",
                     "--replay", str(replay))
    url = URL.search(proc.wait_line("open http"))
    assert url
    context = browser.new_context()
    page = context.new_page()
    page.goto(url.group(1))
    other_clock = '#clock.other[data-seat="1"]:not([hidden])'
    end = time.monotonic() + 90
    while not page.locator(other_clock).count():  # the person answers until the slow seat thinks
        assert time.monotonic() < end, "the page never showed seat 1's turn"
        if not step(page):
            page.wait_for_timeout(50)
    before = _seconds(page.locator("#clock").inner_text())
    assert 0 < before <= PER_MOVE
    seat_url = page.url
    page.close()
    time.sleep(2)  # the seat's clock runs on meanwhile (the bot still thinks: no GO yet)

    again = context.new_page()  # the same browser: its cookie takes the seat back
    errors: list[str] = []
    again.on("pageerror", lambda e: errors.append(str(e)))
    received: list[dict[str, Any]] = []
    again.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(json.loads(f))))
    again.goto(seat_url)
    again.wait_for_selector(other_clock, timeout=30_000)
    status = again.locator("#status").inner_text()
    assert re.match(r"seat 1 \(slow\) to act \(bidding\)", status), status
    assert again.locator("#seat-page").get_attribute("data-to-act") == "1"
    assert not again.locator("#status.turn").count()  # not the person's turn
    after = _seconds(again.locator("#clock").inner_text())
    # Where it stands: below what the closed page showed 2 s earlier. A page
    # that only re-read the Turn notice would count from the full 60 s again.
    assert 0 < after < before, (before, after)
    clocks = [f for f in received if f["type"] == "turn_clock"]
    assert len(clocks) == 1 and clocks[0]["seat"] == 1 and 0 < clocks[0]["left_s"] < PER_MOVE - 2
    # It came after every frame of the match so far, the last being seat 1's Turn notice.
    referee = [f for f in received[:received.index(clocks[0])] if f["type"] == "referee"]
    assert "turn" in referee[-1]["message"] and int(referee[-1]["message"]["turn"]["seat"]) == 1

    go.touch()  # the bot answers; the page goes on from there
    play_to_the_end(again)
    code, _out, err = proc.finish()
    assert code == 0, err
    assert "back at the table" in err
    assert not errors
    rep = read_replay(replay)
    assert rep.result["statuses"] == ["ok"] * 3
    first = next(a for a in rep.actions if a["seat"] == 1)
    assert first["time"] < 45  # it answered at "go", not at its own limit
    assert not any(rep.result["faults"][0].values()) and not any(rep.result["faults"][1].values())
