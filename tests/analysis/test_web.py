"""The analysis in the replay player, through `arena serve` on loopback and
Chromium: the graph under the table, a click to a decision's step, the
labelled decisions marked in the hand record with the better action; a
seat's view gets that seat's own analysis only, never one with the open
hand, never another seat's."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from web.browser import browser, open_player, serve
from web.stored import stored_tournament

from arena.analysis.matches import analyse_all, plan
from arena.analysis.replay import Settings
from arena.tournament import Store

pytestmark = [pytest.mark.slow, pytest.mark.browser]
SHOTS = Path(__file__).resolve().parents[2] / "test-artefacts" / "screenshots"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int, dict[str, Any]]:
    folder = stored_tournament(tmp_path_factory.mktemp("web") / "t", rules_extra="max_deals = 2\n")
    p = plan(folder, "greedy", Settings(work=4, open_hand=False), matches=1)
    list(analyse_all(p))
    job = p.jobs[0]
    report = json.loads(Path(job.out).read_text())
    # A report of another seat made with the open hand (arena analyze REPLAY
    # writes those): the all-cards view may show it, no seat's view may.
    other = (job.seat + 1) % 3
    with Store(folder / "tournament.sqlite", readonly=True) as store:
        assert any(m.match_id == job.match_id for m in store.matches())
    cache = Path(job.out).parent
    (cache / f"{job.match_id}-s{other}.json").write_text(json.dumps(
        {**report, "seat": other, "settings": {**report["settings"], "open_hand": True}}))
    return folder, job.match_id, job.seat, report


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def _page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as r:
        text: str = r.read().decode()
        return text


def test_the_player_draws_the_analysis_of_the_view(analysed: tuple[Path, str, int, dict[str, Any]]) -> None:
    folder, match_id, seat, report = analysed
    other = (seat + 1) % 3
    with serve([folder]) as base:
        api = f"{base}/api/t/t/match/{match_id}"
        everyone = _get(f"{api}/all/analysis.json")["seats"]
        assert [s["seat"] for s in everyone] == sorted([seat, other])
        own = _get(f"{api}/{seat}/analysis.json")["seats"]
        assert [s["seat"] for s in own] == [seat]
        assert [d["taken"] for d in own[0]["decisions"]] == [d["taken"] for d in report["decisions"]]
        assert _get(f"{api}/{other}/analysis.json")["seats"] == []   # only an open-hand report
        third = 3 - seat - other
        assert _get(f"{api}/{third}/analysis.json")["seats"] == []
        flagged = [d for d in report["decisions"] if d["label"]]
        assert flagged, "random play gives the analysis something to flag"
        with browser() as b:
            page = b.new_page(viewport={"width": 1280, "height": 900})
            open_player(page, f"{base}/t/t/match/{match_id}?view={seat}")
            assert page.locator("#analysis").is_visible()
            assert page.locator("#analysis-graph circle").count() == len(report["decisions"])
            assert f"seat {seat} greedy: accuracy" in page.locator("#analysis-legend").inner_text()
            target = flagged[0]
            page.locator(f"#analysis-graph circle[data-n='{target['n']}']").click()
            page.wait_for_function(
                f"() => window.arenaPlayer.state.data.steps[window.arenaPlayer.state.step].a?.n === {target['n']}")
            note = page.locator(f"#record li[data-n='{target['n']}'] .flag")
            assert note.count() == 1
            text = note.inner_text()
            assert target["label"] in text and target["best"].replace("play ", "") in text
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "player-analysis-1280.png"), full_page=True)
            # The bot page: where it loses points, and a link to its costliest decision.
            page.goto(f"{base}/t/t/bot/greedy")
            section = page.locator("#bot-analysis")
            assert "Where it loses points" in section.inner_text()
            worst = max(flagged, key=lambda d: d["loss"])
            assert section.locator("table").count() == 2
            page.locator("#bot-analysis ol.worst a").first.click()
            page.wait_for_selector("#player[data-ready='1']", timeout=60_000)
            page.wait_for_function(
                f"() => window.arenaPlayer.state.data.steps[window.arenaPlayer.state.step].a?.n === {worst['n']}")
            # Another seat's view: no analysis drawn, none of this seat's marks.
            open_player(page, f"{base}/t/t/match/{match_id}?view={third}")
            assert page.locator("#analysis").is_hidden()
            assert page.locator("#record .flag").count() == 0


def test_a_withheld_match_is_left_out_of_the_bot_page(tmp_path: Path) -> None:
    # One match of the table stored: its other seat orders are still to play.
    folder = stored_tournament(tmp_path / "w", rules_extra="max_deals = 1\n", finish=1)
    p = plan(folder, "greedy", Settings(work=2, open_hand=False), matches=1)
    list(analyse_all(p))
    with serve([folder]) as base:
        html = _page(f"{base}/t/w/bot/greedy")
        section = html.split('id="bot-analysis"', 1)[1].split("</section>", 1)[0]
        assert "1 analysed matches are shown once their tables are complete" in section
        assert p.jobs[0].match_id not in section and "<table" not in section
        try:
            _get(f"{base}/api/t/w/match/{p.jobs[0].match_id}/{p.jobs[0].seat}/analysis.json")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        else:
            raise AssertionError("a withheld match's analysis was served")
