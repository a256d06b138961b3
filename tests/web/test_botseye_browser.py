"""The bot's-eye view in the replay player, as an organiser opens it: a
tournament of bots that print a recognisable line at each decision, played
by `arena tournament run` with `keep_logs = "all"`, served by `arena serve`
(a real process on loopback), opened in Chromium. At a decision of the
viewed seat the panel shows the request's observation and legal actions,
the reply, the clock, and the line the bot printed at that decision (and no
other decision's). Screenshots at 1280 and 390 px go to
test-artefacts/screenshots/ (not committed)."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from builders import tournament_toml
from clihelp import cli
from testbots import fault_bot_copy

from arena.referee.replay import read_replay

from .browser import browser, no_overflow, open_player, serve
from .stored import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SHOTS = ROOT / "test-artefacts" / "screenshots"


def _chatty(parent: Path, name: str) -> Path:
    folder = fault_bot_copy("chatty", parent, name)
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "chatty"', f'name = "{name}"'))
    return folder


def test_the_panel_shows_what_the_bot_was_sent_and_printed_at_that_decision(tmp_path: Path) -> None:
    bots = [_chatty(tmp_path, n) for n in ("ca", "cb", "cc")]
    folder = tournament_toml(tmp_path / "eye", bots, name="eye", seed=8_123_456_789_012_345,
                             sandbox="process", keep_logs="all", bootstrap=0, concurrency=2,
                             rules={"target": 500, "max_deals": 1})
    done = cli("tournament", "run", folder, "-q")
    assert done.returncode == 0, done.stderr
    replay_path = sorted((folder / "replays").glob("*.jsonl"))[0]
    match_id = replay_path.stem
    actions = read_replay(replay_path).actions
    own = [a for a in actions if a["seat"] == 1]
    target = own[len(own) // 2]  # a decision mid-deal
    SHOTS.mkdir(parents=True, exist_ok=True)
    with serve([folder]) as base, browser() as b:
        # Its JSON: the seat's own decision only.
        with urllib.request.urlopen(f"{base}/api/t/eye/match/{match_id}/1/decision/{target['n']}.json") as r:
            data = json.loads(r.read())
        assert data["reply"] == target["action"] and data["observation"]["seat"] == 1
        seq = data["seq"]
        assert re.findall(r"decision seq=(\d+) ", data["lines"]) == [str(seq)]
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 900})
            open_player(page, f"{base}/t/eye/match/{match_id}?view=1")
            page.evaluate("n => window.arenaPlayer.show(window.arenaPlayer.state.data.steps"
                          ".findIndex(s => s.a && s.a.n === n))", target["n"])
            page.click("#botseye-box summary")
            page.wait_for_selector("#botseye-lines")
            lines = page.inner_text("#botseye-lines")
            assert f"chatty says: decision seq={seq} with " in lines
            assert re.findall(r"decision seq=(\d+) ", lines) == [str(seq)]  # this decision's only
            assert "--- arena decision" in lines  # the bot's forged mark, shown as its own text
            assert f"reply: {target['action']}" in page.inner_text("#botseye-reply")
            assert "of its limit" in page.inner_text("#botseye-clock")
            legal = page.locator("#botseye-legal li").all_inner_texts()
            assert target["action"] in legal and legal == data["legal"]
            assert '"seat": 1' in page.inner_text("#botseye-obs")
            assert no_overflow(page)[0] <= no_overflow(page)[1]
            page.locator("#botseye-box").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"player-botseye-{width}.png"), full_page=True)
            # The all-cards view has no bot's eye: it is no seat's.
            page.select_option("#view", "all")
            page.wait_for_function("new URL(location.href).searchParams.get('view') === 'all'")
            assert page.locator("#botseye-box").is_hidden()
            page.close()
