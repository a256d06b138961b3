"""A match whose duplicate table is not complete shows its result, never its
cards: the other seat orders of its table will be dealt the same cards. A
real store (a SQLite file) with half a table played, served by the app and by
`arena serve` as a user runs it over real HTTP; then the table is completed
and the replays open. `arena leaderboard publish` follows the same rule
(browse.withheld)."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
from pathlib import Path

import pytest
from clihelp import ARENA
from starlette.testclient import TestClient

from arena.game import Rules
from arena.referee.replay import read_replay
from arena.tournament.plan.config import load_config
from arena.tournament.results import browse
from arena.tournament.store import Store
from arena.web.app import create_app
from arena.web.export import publish_site
from arena.web.pages import WITHHELD

from .stored import stored_tournament, write_replay


def half_played(folder: Path) -> tuple[list[str], list[str]]:
    """A 3-bot tournament (one table of six seat orders) with three orders
    played, each with a timeout of seat 0 and its kept seat log: (played ids,
    ids still to play)."""
    stored_tournament(folder, fault_every=1, finish=3)
    with Store(load_config(folder).store_path, readonly=True) as store:
        rows = browse.match_page(store, browse.MatchFilter(), 0, 50)
    played = [r.match_id for r in rows if r.status == "finished"]
    todo = [r.match_id for r in rows if r.status != "finished"]
    assert len(played) == 3 and len(todo) == 3
    assert len({browse.table_key(r.match_id, r.set_no) for r in rows}) == 1
    return played, todo


def complete(folder: Path, todo: list[str]) -> None:
    """Play the remaining seat orders (as the runner would store them)."""
    config = load_config(folder)
    rules = Rules.preset("standard").replace(target=500)
    with Store(config.store_path) as store:
        names = {b.id: (b.name, b.version) for b in store.bots()}
        for i, row in enumerate(store.matches(set(todo))):
            store.mark_running([row.match_id])
            result = write_replay(folder / "replays" / f"{row.match_id}.jsonl", rules, row.seed,
                                  match_id=row.match_id, bots=[names[b] for b in row.bot_ids],
                                  policy_seed=10 + i)
            store.finish(result)


def card_urls(folder_name: str, match_id: str) -> list[str]:
    return [f"/t/{folder_name}/match/{match_id}", f"/t/{folder_name}/match/{match_id}?view=0",
            f"/t/{folder_name}/match/{match_id}?view=all&step=5",
            f"/api/t/{folder_name}/match/{match_id}/all.json",
            f"/api/t/{folder_name}/match/{match_id}/1.json",
            f"/t/{folder_name}/log/{match_id}/0"]


@pytest.mark.slow
def test_an_incomplete_table_is_listed_but_its_cards_are_withheld(tmp_path: Path) -> None:
    folder = tmp_path / "dup"
    played, todo = half_played(folder)
    client = TestClient(create_app([folder]))
    with Store(load_config(folder).store_path, readonly=True) as store:
        assert browse.withheld(store, [(m, 0) for m in played + todo]) == set(played + todo)

    for match_id in played:
        for url in card_urls("dup", match_id):
            r = client.get(url)
            assert r.status_code == 403, url
            assert WITHHELD in r.text, url
            assert '"hands"' not in r.text and "decision 1" not in r.text, url

    listing = client.get("/t/dup/matches").text
    for match_id in played:
        assert match_id in listing                      # listed, with its result
    assert listing.count('class="place p') == 3 * 3     # three played matches, three seats each
    assert "/match/" not in listing and "watch ▶" not in listing
    assert listing.count("replay after its table") == 3

    bots = ("greedy", "random", "random_b")
    pages = "".join(client.get(f"/t/dup/bot/{name}").text for name in bots)
    assert "/match/" not in pages and "/log/" not in pages
    assert "decision 1" not in pages                    # the fault's text waits too
    assert pages.count("shown when every seat order of its table has been played") == 3
    for url in ("/t/dup/", "/t/dup/live", "/t/dup/h2h", "/t/dup/matches?table="
                + browse.table_key(played[0], 0)[1]):
        text = client.get(url).text
        assert "/match/" not in text and "/log/" not in text, url

    # The static export decides the same way: no player, no seat log yet.
    site = tmp_path / "site"
    publish_site(folder, site)
    assert not list(site.glob("match/*.html")) and not list(site.glob("log/*"))
    assert "match/" not in (site / "matches" / "1.html").read_text(encoding="utf-8")

    complete(folder, todo)
    listing = client.get("/t/dup/matches").text
    assert listing.count("watch ▶") == 6 and "replay after its table" not in listing
    for match_id in played:
        for url in card_urls("dup", match_id):
            assert client.get(url).status_code == 200, url
    assert json.loads(client.get(f"/api/t/dup/match/{played[0]}/all.json").text)
    pages = "".join(client.get(f"/t/dup/bot/{name}").text for name in bots)
    for match_id in played:
        assert f"/t/dup/match/{match_id}?fault=0" in pages
        assert f"/t/dup/log/{match_id}/0" in pages
    assert pages.count("decision 1: no reply") == 3 and "shown when every seat order" not in pages
    publish_site(folder, site)
    assert len(list(site.glob("match/*.html"))) == 6 and len(list(site.glob("log/*"))) == 3


def _get(port: int, url: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", url)
        r = conn.getresponse()
        return r.status, r.read().decode("utf-8", errors="replace")
    finally:
        conn.close()


def _first_update(port: int) -> dict[str, int]:
    """The first `update` event of the live stream: what a page learns."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/t/dup/events")
        r = conn.getresponse()
        assert r.status == 200
        event = ""
        while True:
            line = r.readline().decode("utf-8")
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "update":
                data: dict[str, int] = json.loads(line.split(":", 1)[1])
                return data
    finally:
        conn.close()


@pytest.mark.slow
def test_arena_serve_withholds_until_the_table_is_played(tmp_path: Path) -> None:
    folder = tmp_path / "dup"
    played, todo = half_played(folder)
    proc = subprocess.Popen([*ARENA, "serve", str(folder), "--port", "0"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert m
        port = int(m.group(1))
        status, text = _get(port, f"/t/dup/match/{played[0]}")
        assert status == 403 and WITHHELD in text and "<html" in text.lower()
        assert _get(port, f"/api/t/dup/match/{played[0]}/0.json")[0] == 403
        assert _get(port, f"/t/dup/log/{played[0]}/0")[0] == 403
        # The bot's-eye view of a decision waits too (whichever seat's it is).
        assert _get(port, f"/api/t/dup/match/{played[0]}/0/decision/0.json")[0] == 403
        status, text = _get(port, "/t/dup/matches")
        assert status == 200 and played[0] in text and "/match/" not in text
        # The live stream carries the counts of matches, nothing of a deal.
        assert set(_first_update(port)) <= set(browse.STATUSES)
        complete(folder, todo)
        status, text = _get(port, f"/t/dup/match/{played[0]}")
        assert status == 200 and 'id="player"' in text
        status, text = _get(port, f"/api/t/dup/match/{played[0]}/0.json")
        assert status == 200 and json.loads(text)
        actions = read_replay(folder / "replays" / f"{played[0]}.jsonl").actions
        own = next(a["n"] for a in actions if a["seat"] == 0)
        other = next(a["n"] for a in actions if a["seat"] != 0)
        status, text = _get(port, f"/api/t/dup/match/{played[0]}/0/decision/{own}.json")
        assert status == 200 and json.loads(text)["observation"]["seat"] == 0
        # Another seat's decision is never served in a seat's view, nor in all cards.
        assert _get(port, f"/api/t/dup/match/{played[0]}/0/decision/{other}.json")[0] == 404
        assert _get(port, f"/api/t/dup/match/{played[0]}/all/decision/{own}.json")[0] == 404
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_gauntlet_set_is_one_table(tmp_path: Path) -> None:
    """A gauntlet's set (its seat orders of one deal seed) waits as a whole;
    a complete set is open while the next one plays. A real store file, ids
    planned by the gauntlet itself."""
    from arena.tournament.gauntlet.sets import Settings, plan_set

    names = ("cand", "base", "other")
    settings = Settings(field=tuple(f"{x}@h{x}" for x in names), names=names, baseline=True,
                        seed=5, rules_preset="standard", rules_options=(), time_control={},
                        fault_policy={}, limits={}, stop="fixed", elo0=0.0, elo1=20.0,
                        alpha=0.05, beta=0.05)
    sets = [plan_set(settings, 0), plan_set(settings, 1)]
    with Store(tmp_path / "g.sqlite") as store:
        ids = [store.add_bot(n, "1", f"h{n}", "python", "x", "test")[0].id for n in names]
        for planned in sets:
            store.plan((m.match_id, m.set_no, 0, m.order_no, m.seed, [ids[i] for i in m.bots])
                       for m in planned)
        done = [m.match_id for m in sets[0]] + [sets[1][0].match_id]
        store._db.execute(
            f"UPDATE matches SET status='finished' WHERE match_id IN ({','.join('?' * len(done))})",
            done)
        store._db.commit()
        every = [(m.match_id, m.set_no) for planned in sets for m in planned]
        assert browse.withheld(store, every) == {m.match_id for m in sets[1]}
        assert len(sets[1]) > 1 and sets[1][0].match_id in browse.withheld(store, every)


@pytest.mark.slow
@pytest.mark.browser
def test_in_a_browser_the_replay_opens_once_the_table_is_played(tmp_path: Path) -> None:
    """Chromium over `arena serve`: a visitor finds no way to a half-played
    table's cards, and a typed player URL says why; after the table
    completes, the match list's link opens the player."""
    from .browser import browser, open_player, serve

    folder = tmp_path / "dup"
    played, todo = half_played(folder)
    with serve([folder]) as base, browser() as b:
        page = b.new_page()
        page.goto(f"{base}/t/dup/matches")
        assert page.locator("a.play").count() == 0
        assert page.locator(".withheld").count() == 3
        page.goto(f"{base}/t/dup/match/{played[0]}?view=all")
        assert WITHHELD in page.locator("#error-message").inner_text()
        assert page.locator("#player").count() == 0
        complete(folder, todo)
        page.goto(f"{base}/t/dup/matches")
        assert page.locator("a.play").count() == 6
        page.locator(f"tr[data-id='{played[0]}'] a.play").click()
        page.wait_for_url(f"**/t/dup/match/{played[0]}")
        open_player(page, page.url)
        assert page.locator(".table .seat").count() == 3
