"""Duplicate comparison (travellers): a table's seat orders side by side per
deal, and where each bot gained and lost on the same cards. Over a real
store through the app, and in Chromium from the match list, the player and
head-to-head; a table still being played answers 403 and shows nothing;
no page of it names a card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.game.cards import DECK
from arena.tournament.plan.config import load_config
from arena.tournament.store import Store
from arena.web.app import create_app

from .browser import browser, open_player, serve
from .stored import ROOT, stored_tournament

SHOTS = ROOT / "test-artefacts" / "screenshots"
CARD = re.compile(r"\b(" + "|".join(str(c) for c in DECK) + r")\b|[♣♦♥♠]")


def _results(folder: Path) -> list[object]:
    with Store(load_config(folder).store_path, readonly=True) as store:
        names = {b.id: b.name for b in store.bots()}
        return [(r.match_id, [names[b] for b in r.bot_ids], r.result) for r in store.matches()
                if r.result is not None]


def test_the_table_summary_and_travellers_are_the_stored_results(stored: Path) -> None:
    rows = _results(stored)
    first_id = rows[0][0]  # type: ignore[index]
    client = TestClient(create_app([stored]))
    page = client.get(f"/t/demo/table/{first_id}")
    assert page.status_code == 200, page.text
    html = page.text
    assert not CARD.search(html.split("<main", 1)[1]), CARD.search(html.split("<main", 1)[1])
    # Each bot's sum over the six seat orders, per deal, as the results say.
    sums: dict[tuple[int, str], int] = {}
    for _mid, seats, result in rows:  # type: ignore[misc]
        for d in result.deals:
            for seat, name in enumerate(seats):
                sums[d.deal_number, name] = sums.get((d.deal_number, name), 0) + d.changes[seat]
    cells = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html, re.S)
    assert cells
    for n, row in cells:
        for name, value in re.findall(r'data-bot="([^"]+)" data-sum="(-?\d+)"', row):
            assert int(value) == sums[int(n), name], (n, name)
    # A traveller: every seat order's declarer, contract and changes of that deal.
    tr = client.get(f"/t/demo/table/{first_id}/deal/2").text
    assert not CARD.search(tr.split("<main", 1)[1])
    for mid, seats, result in rows:  # type: ignore[misc]
        d = next(x for x in result.deals if x.deal_number == 2)
        row = re.search(rf'<tr data-id="{mid}">(.*?)</tr>', tr, re.S)
        assert row, mid
        if d.declarer is not None:
            assert f"{seats[d.declarer]} <small>(seat {d.declarer})</small>" in row.group(1)
            assert f"{d.bid} → {d.contract}" in row.group(1)
            assert ("made" if d.made else "failed") in row.group(1)
    # Every call of each seat order's auction, in order, as its replay has it.
    import json as _json

    shown = 0
    for mid, seats, _result in rows:  # type: ignore[misc]
        replay = stored / "replays" / f"{mid}.jsonl"
        if not replay.is_file():
            continue
        acts = [r for r in map(_json.loads, replay.read_text().splitlines())
                if r.get("type") == "action" and r.get("deal") == 2]
        # Standard rules, no offers: a deal opens with its auction (the
        # opener's 100 is made for it), every call a bid or a pass.
        calls = []
        for r in acts:
            if not r["action"].startswith(("bid ", "pass")):
                break
            calls.append(f'<span class="call" data-seat="{r["seat"]}">{seats[r["seat"]]} '
                         f'{r["action"].removeprefix("bid ")}</span>')
        row = re.search(rf'<tr class="auction" data-auction="{mid}">(.*?)</tr>', tr, re.S)
        assert row, mid
        shown_calls = re.findall(r'<span class="call".*?</span>', row.group(1))
        # First the opener's compulsory 100 (made for it, so no action of the replay).
        assert re.fullmatch(r'<span class="call" data-seat="\d">\S+ 100</span>', shown_calls[0])
        assert shown_calls[1:] == calls
        shown += 1
    assert shown >= 1
    # Bad input: an error page each, with one line.
    assert client.get("/t/demo/table/nope").status_code == 404
    assert client.get(f"/t/demo/table/{first_id}/deal/999").status_code == 404
    assert client.get("/t/demo/table/..%2F..%2Fetc/deal/1").status_code == 404


def test_a_table_being_played_shows_no_comparison(tmp_path: Path) -> None:
    folder = stored_tournament(tmp_path / "half", finish=3)
    with Store(load_config(folder).store_path, readonly=True) as store:
        ids = [r.match_id for r in store.matches() if r.status == "finished"]
    client = TestClient(create_app([folder]))
    for mid in ids:
        for url in (f"/t/half/table/{mid}", f"/t/half/table/{mid}/deal/1"):
            page = client.get(url)
            assert page.status_code == 403, url
            assert "every seat order of its deals has been played" in page.text
            assert "data-sum" not in page.text and "→" not in page.text


@pytest.mark.slow
@pytest.mark.browser
def test_travellers_are_linked_from_the_match_list_the_player_and_head_to_head(stored: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with serve([stored]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/t/demo/h2h")
        page.locator("table.h2h td a").first.click()  # a cell: those matches
        page.locator("tr.match a.compare").first.click()  # a match: its table
        page.wait_for_selector("#table-summary")
        assert page.locator("tr.order").count() == 6
        page.screenshot(path=str(SHOTS / "table-summary-1280.png"), full_page=True)
        page.locator("#table-summary tbody tr a").first.click()  # a deal: its traveller
        page.wait_for_selector("#traveller")
        assert page.locator("#traveller tbody tr[data-id]").count() == 6
        # Each seat order's auction under its row (the matches with a replay).
        assert page.locator("#traveller tr.auction .call").count() >= 2
        page.screenshot(path=str(SHOTS / "traveller-1280.png"), full_page=True)
        # From the player: each deal row links its traveller.
        mid = page.locator("#traveller tbody tr[data-id]").first.get_attribute("data-id")
        open_player(page, f"{base}/t/demo/match/{mid}")
        page.locator("#deals a.traveller").nth(1).click()
        page.wait_for_selector("#traveller")
        assert re.search(r"/table/.+/deal/2$", page.url)
        phone = b.new_page(viewport={"width": 390, "height": 844})
        phone.goto(page.url)
        assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        phone.screenshot(path=str(SHOTS / "traveller-390.png"), full_page=True)
