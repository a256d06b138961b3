"""`arena serve`, its player and the static export in a real browser (Debian's
chromium, driven by Playwright), checked against the engine.

Screenshots of the key pages are kept as test artefacts in
test-artefacts/screenshots/ (git ignores it), replaced by each run.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from clihelp import cli_ok, start

from arena.game import Rules
from arena.referee.replay import read_replay

from .browser import browser, engine_states, no_overflow, open_player, serve, table_cards
from .stored import ROOT, SAMPLE_BOTS, write_replay

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PRESETS = {
    "standard": ("standard", {}), "estonian": ("estonian", {}), "lithuanian": ("lithuanian", {}),
    "czech": ("czech", {}), "finnish": ("finnish", {}), "swedish": ("swedish", {}),
    "finnish-4": ("finnish", {"players": 4, "lottery": True}),
    "finnish-2": ("finnish", {"players": 2}),
    "czech-blind": ("czech", {"blind": "czech", "golden_horse": True}),
}


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One replay per preset (and the 2-, 4-player and blind variants), played
    by the golden playthroughs' seeded random policy."""
    folder = tmp_path_factory.mktemp("golden")
    for i, (name, (preset, options)) in enumerate(PRESETS.items()):
        rules = Rules.preset(preset).replace(max_deals=3, **options)
        write_replay(folder / f"{name}.jsonl", rules, seed=40 + i, policy_seed=i,
                     faults={1: "timeout"})
    return folder


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = ROOT / "test-artefacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_player_shows_the_engines_cards_in_every_preset(golden: Path, shots: Path) -> None:
    with serve([golden]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for name in PRESETS:
            states = engine_states(golden / f"{name}.jsonl")
            last = len(states) - 1
            for step in sorted({0, 3, 7, 12, last // 3, last // 2, last - 1}):
                open_player(page, f"{base}/r/{name}?view=all&step={step}")
                if page.locator("#table #deal-end").count():
                    # A deal's last card: its end is drawn (test_following_browser.py);
                    # the next deal's cards on demand, but none after the match's end.
                    if step == last:
                        continue
                    page.click("#b-next-deal")
                shown = table_cards(page)
                g = states[step]
                obs = g.observation(0).to_dict()
                for s in range(g.players):
                    assert shown["seats"][str(s)]["up"] == [str(c) for c in g.hand(s)], (name, step, s)
                assert sorted(map(tuple, shown["trick"])) == sorted((t["seat"], t["card"]) for t in obs["trick"]) \
                    or not obs["trick"], (name, step)
                assert shown["trump"] == obs["trump"]
            # Keyboard: one action forward, then one back.
            page.keyboard.press("ArrowRight")
            assert page.locator("#slider").input_value() == str(last)
            assert page.locator("#table #deal-end").count() == 1  # the match's last deal, ended
            page.keyboard.press("ArrowLeft")
            assert table_cards(page)["step"] == str(last - 1)
            if name in ("standard", "finnish-4", "finnish-2"):
                page.screenshot(path=str(shots / f"player-{name}.png"), full_page=True)
    print(f"screenshots: {shots}")


def test_a_seats_view_shows_only_what_it_knew(golden: Path) -> None:
    with serve([golden]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        checked = 0
        for name in ("standard", "czech-blind", "finnish-4", "finnish-2", "swedish"):
            states = engine_states(golden / f"{name}.jsonl")
            rep = read_replay(golden / f"{name}.jsonl")
            n = states[0].players
            for seat in range(n):
                for step in (1, 5, 9, 14, 20):
                    if step >= len(states):
                        continue
                    open_player(page, f"{base}/r/{name}?view={seat}&step={step}")
                    shown = table_cards(page)
                    k = page.evaluate("window.arenaPlayer.state.data.steps[window.arenaPlayer.state.step].a?.n ?? -1")
                    g = states[k + 1]
                    obs = g.observation(seat).to_dict()
                    knows = set(obs["hand"]) | set(obs["talon"]) | set(obs["discarded"])
                    knows |= {t["card"] for t in obs["trick"]}
                    knows |= {c["card"] for tr in obs["tricks"] for c in tr["cards"]}
                    knows |= {x["card"] for x in obs["given"] if x["card"]}
                    if k >= 0 and rep.actions[k]["action"].startswith("play "):
                        knows.add(rep.actions[k]["action"].split()[1])  # a trick just taken
                    assert set(shown["all"]) <= knows, (name, seat, step, set(shown["all"]) - knows)
                    for other in range(n):
                        if other != seat:
                            assert shown["seats"][str(other)]["up"] == [], (name, seat, other)
                    assert shown["seats"][str(seat)]["up"] == obs["hand"]
                    checked += 1
        assert checked > 50


def test_tournament_page_updates_while_a_tournament_runs(tmp_path: Path, shots: Path) -> None:
    folder = tmp_path / "live"
    folder.mkdir()
    bots = ", ".join(f'"{b}"' for b in SAMPLE_BOTS)
    (folder / "tournament.toml").write_text(
        f'name = "live"\nseed = 5\nduplicate_sets = 1\nbootstrap = 0\nsandbox = "process"\n'
        # Two deals a match: the 6 matches take seconds, not a minute, and the
        # page (its stream polls the store every 0.5 s) still counts up by itself.
        f'concurrency = 1\nbots = [{bots}]\n[rules]\npreset = "standard"\ntarget = 500\n'
        f'max_deals = 2\n',
        encoding="utf-8")
    with serve([folder]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/t/live/")
        assert "no results yet" in page.inner_text("#live")
        page.evaluate("window.__not_reloaded = true")
        run = start("tournament", "run", folder, "-q", cwd=None,
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            seen: set[str] = set()
            deadline = time.monotonic() + 300  # a bound on waiting, not a speed requirement
            while time.monotonic() < deadline:
                if page.locator("[data-count='finished']").count():
                    seen.add(page.inner_text("[data-count='finished']"))
                    if "6" in seen:
                        break
                page.wait_for_timeout(200)
            out, _ = run.communicate(timeout=300)
            assert run.returncode == 0, out
        finally:
            if run.poll() is None:
                run.kill()
        assert "6" in seen and len(seen) >= 2, seen  # it counted up, by itself
        assert page.evaluate("window.__not_reloaded") is True
        assert int(page.evaluate("document.getElementById('live').dataset.updates")) >= 2
        page.wait_for_selector("table.board")
        assert page.locator("table.board tbody tr").count() == 3
        page.screenshot(path=str(shots / "tournament-live.png"), full_page=True)


def test_static_export_opens_from_file(golden: Path, tmp_path: Path, shots: Path) -> None:
    out = tmp_path / "czech.html"
    cli_ok("replay", "html", golden / "czech.jsonl", "-o", out, cwd=None, timeout=120)
    states = engine_states(golden / "czech.jsonl")
    with browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        open_player(page, f"{out.as_uri()}?view=all&step=10")
        assert table_cards(page)["seats"]["1"]["up"] == [str(c) for c in states[10].hand(1)]
        page.select_option("#view", "2")  # another view, from the file's own data
        page.wait_for_function("window.arenaPlayer.state.data.match.viewer === 2")
        shown = table_cards(page)
        assert shown["seats"]["0"]["up"] == [] and shown["seats"]["1"]["up"] == []
        assert shown["seats"]["2"]["up"] == states[10].observation(2).to_dict()["hand"]
        assert all(u.startswith("file://") or u.startswith("data:") for u in requests), requests
        page.screenshot(path=str(shots / "export-czech.png"), full_page=True)


def test_published_site_is_browsable_from_file(stored_short: Path, tmp_path: Path) -> None:
    stored = stored_short
    out = tmp_path / "board"
    cli_ok("leaderboard", "publish", stored, "--out", out, cwd=None, timeout=300)
    assert (out / "leaderboard.md").is_file() and (out / "site" / "index.html").is_file()
    with browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        page.goto((out / "site" / "index.html").as_uri())
        page.click("table.board tbody tr:first-child td.c-bot a")
        assert "/site/bot/" in page.url and page.locator("h1").inner_text().startswith("Bot ")
        page.click("a.play >> nth=0")
        page.wait_for_selector("#player[data-ready='1']")
        assert len(table_cards(page)["all"]) > 0
        page.goto((out / "site" / "matches" / "1.html").as_uri())
        assert page.locator("tr.match").count() == 6
        page.goto((out / "site" / "h2h.html").as_uri())
        assert page.locator("table.h2h").count() == 1
        # The self-contained index.html beside leaderboard.md: its table is wider
        # than a phone (and, with the chart, than 1280 px): it scrolls in its box.
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 900})
            page.goto((out / "index.html").as_uri())
            scroll, client = no_overflow(page)
            assert scroll <= client, f"index.html at {width} px: {scroll} > {client}"


PAGES = ("/", "/t/demo/", "/t/demo/matches", "/t/demo/h2h", "/t/demo/bot/greedy",
         "/t/demo/match/{mid}?view=all&step=30", "/t/demo/match/{mid}?view=1&step=30",
         "/t/nope/")


def test_no_horizontal_overflow_at_1280_800_and_390(stored: Path, shots: Path) -> None:
    """800 px: the leaderboard's numbers do not wrap above 760 px, and needed
    986 px there: the page scrolled sideways (now the table in its box)."""
    # The shortest stored game (11 deals, not 45 to 78): its player pages
    # load in a fraction of the time, and lay out as any other.
    mid = min((stored / "replays").glob("*.jsonl"), key=lambda p: p.stat().st_size).stem
    with serve([stored]) as base, browser() as b:
        for width in (1280, 800, 390):
            page = b.new_page(viewport={"width": width, "height": 900})
            for url in PAGES:
                url = url.format(mid=mid)
                page.goto(base + url)
                if "/match/" in url:
                    page.wait_for_selector("#player[data-ready='1']")
                scroll, client = no_overflow(page)
                assert scroll <= client, f"{url} at {width} px: {scroll} > {client}"
                if url == "/t/demo/" and width == 1280:  # short bot names stay whole
                    lines = page.eval_on_selector_all(  # an inline link: a box per line
                        "table.board td.c-bot a", "as => as.map(a => a.getClientRects().length)")
                    assert lines and set(lines) == {1}, lines
                name = url.strip("/").replace("/", "_").split("?")[0] or "index"
                if "view=1" in url:
                    name += "-seat1"
                page.screenshot(path=str(shots / f"{name}-{width}.png"), full_page=True)
            page.close()
    print(f"screenshots: {shots}")


def test_a_name_that_opens_an_html_comment_does_not_break_the_player(tmp_path: Path) -> None:
    """A person's name is free text (the lobby, `arena play human:NAME`): one
    holding "<!--<script>" once put the HTML parser, inside the player's
    inline data, where its closing tag no longer closed it, and the page's
    own script was swallowed (the player never drew). Served and exported,
    the player draws, and shows the name as text."""
    name = "<!--<script>x"
    path = tmp_path / "people.jsonl"
    write_replay(path, Rules.preset("standard").replace(max_deals=1), seed=5,
                 bots=[("greedy", "1.0"), (name, "human"), ("random", "1.0")])
    out = tmp_path / "people.html"
    cli_ok("replay", "html", path, "-o", out, cwd=None, timeout=120)
    assert "<!--" not in out.read_text().split('id="data-all">', 1)[1].split("</script>")[0]
    with serve([path]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for url in (f"{base}/r/people?view=all&step=3", f"{out.as_uri()}?view=all&step=3"):
            open_player(page, url)
            names = page.locator(".seat-name").all_inner_texts()
            assert f"1: {name}" in names, (url, names)
            assert len(table_cards(page)["all"]) > 0
