"""Following a game at the table, in a real browser against real bot
processes (`arena play human`): the trick just taken stays shown when the
person leads, the talon is not drawn again once the declarer holds it, each
deal's end is drawn (the declarer's deal score against the contract), the
end of the match shows a score sheet, the places and where the replay is,
the hand record panel follows the deal, and the join link brings back the
browser that took the seat (and no other). Screenshots at 1280 and 390 px
go to test-artefacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena.referee.replay import read_replay

from .seat_driver import ANY_CONTROL, step

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
GREEDY, RANDOM = str(ROOT / "sample_bots" / "greedy"), str(ROOT / "sample_bots" / "random")
URL = re.compile(r"open (http://127\.0\.0\.1:\d+/join/\S+)")
SHOTS = ROOT / "test-artefacts" / "screenshots"

# What the page holds and draws at one moment (window.arenaSeat is the page's
# own state: the frames it was sent).
LOOK = """() => {
  const st = window.arenaSeat.state;
  const v = st.view;
  const up = [...document.querySelectorAll('#table .card[data-card]')].map(c => c.dataset.card).filter(c => c);
  const taken = document.querySelector('#table .trick.taken');
  return {
    waiting: document.getElementById('seat-page').dataset.seq !== '',
    view: v ? {phase: v.phase, trick: v.trick, tricks: v.tricks, talon: v.talon, talon_size: v.talon_size,
               deal: v.deal_number} : null,
    up,
    taken: taken ? [...taken.querySelectorAll('.slot')].map(s => [Number(s.dataset.seat), s.querySelector('.card').dataset.card]) : null,
    talonCards: [...document.querySelectorAll('#table .talon .card[data-card]')].map(c => c.dataset.card).filter(c => c),
    talonTaken: document.querySelector('#table [data-talon-taken]')?.dataset.talonTaken ?? null,
    dealEnd: document.querySelector('#deal-end:not([hidden]) .deal-end h3')?.textContent ?? null,
    dealEndNo: document.querySelector('#deal-end:not([hidden]) .deal-end')?.dataset.deal ?? null,
    result: !!document.querySelector('#result:not([hidden])'),
  };
}"""


def _start(run_arena: Any, tmp_path: Path, *extra: str) -> tuple[Any, str, Path]:
    replay = tmp_path / "follow.jsonl"
    proc = run_arena("play", "human:ann", GREEDY, RANDOM, "--no-open", "--sandbox", "process",
                     "--replay", str(replay), *extra)
    url = URL.search(proc.wait_line("open http"))
    assert url, "arena play printed no join link"
    return proc, url.group(1), replay


def test_a_whole_match_is_followed_at_the_table(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    # A fixed key too: the random bot plays the same, so the person wins a trick and leads.
    proc, link, replay = _start(run_arena, tmp_path, "--seed", "11", "--key", "follow", "--option", "max_deals=3")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link)
    seen = {"taken_checked": 0, "talon_checked": 0, "deal_ends": {}, "shot": False}
    for _ in range(800):
        page.wait_for_selector(ANY_CONTROL, timeout=60_000)
        look = page.evaluate(LOOK)
        if look["dealEnd"] is not None:
            seen["deal_ends"][int(look["dealEndNo"])] = look["dealEnd"]
            if not seen["shot"]:
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "seat-deal-end-1280.png"), full_page=True)
                seen["shot"] = True
        if look["result"]:
            break
        v = look["view"]
        # No card is drawn twice (the talon in the declarer's hand, say).
        assert len(look["up"]) == len(set(look["up"])), " ".join(look["up"])
        if v and v["talon"] and not v["talon_size"]:
            # Taken: named once, as text, not drawn as cards beside the hand.
            assert look["talonCards"] == [] and look["talonTaken"] == " ".join(v["talon"]), look
            seen["talon_checked"] += 1
        if look["waiting"] and v and v["phase"] == "play" and not v["trick"] and v["tricks"]:
            # The person leads: the trick just taken is still on the table.
            last = v["tricks"][-1]
            assert look["taken"] == [[c["seat"], c["card"]] for c in last["cards"]], look
            seen["taken_checked"] += 1
        if not step(page):
            page.wait_for_timeout(50)
    else:
        raise AssertionError("no result after 800 clicks")
    page.wait_for_selector("#score-sheet")
    # The hand record of the last deal: its auction and tricks, as the page's view holds them.
    page.locator("#record-box > summary").click()
    v = page.evaluate("window.arenaSeat.state.view")
    grid = page.locator("#record table.tricks-grid tbody tr")
    assert grid.count() == len(v["tricks"])
    for i, t in enumerate(v["tricks"]):
        cells = grid.nth(i).locator("td").all_inner_texts()
        assert cells[1] == f"seat {t['leader']}" and cells[-1] == f"seat {t['winner']}"
    bids = page.locator("#record table.auction-grid td").all_inner_texts()
    assert sorted(b for b in bids if b) == sorted(a["action"] for a in v["auction"])
    code, _out, err = proc.finish()
    assert code == 0, err
    assert not errors, errors
    rep = read_replay(replay)
    assert seen["taken_checked"] > 0 and seen["talon_checked"] > 0, seen
    # Each deal's end as the referee scored it: the declarer's deal score
    # against the contract, made or failed.
    assert seen["deal_ends"], seen
    for number, headline in seen["deal_ends"].items():
        d = rep.deals[number - 1]
        if d["declarer"] is None:
            assert "nobody played it" in headline
        else:
            assert f"seat {d['declarer']}" in headline and f"played {d['contract']}" in headline, headline
            assert ("made" if d["made"] else "failed") in headline or "conceded" in headline, headline
            if "conceded" not in headline:
                assert f"took {d['deal_scores'][d['declarer']]}" in headline, headline
    # The end: places, a score sheet with every deal, where the replay is.
    result = page.locator("#result").inner_text()
    assert "you finished" in result
    rows = page.locator("#score-sheet tbody tr")
    assert rows.count() == len(rep.deals)
    for i, d in enumerate(rep.deals):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(d["deal_number"])
        assert cells[4:] == [f"{'+' if c > 0 else ''}{c} / {t}" for c, t in zip(d["changes"], d["totals"], strict=True)]
    assert "follow.jsonl" in result and "arena replay show" in result
    page.screenshot(path=str(SHOTS / "seat-end-1280.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "seat-end-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_the_join_link_brings_back_the_browser_that_took_the_seat(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    proc, link, replay = _start(run_arena, tmp_path, "--seed", "6", "--option", "max_deals=1",
                                "--grace", "120")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#status.turn", timeout=60_000)
    seat_url = page.url
    assert step(page)
    page.close()  # the tab is closed; the person has only the link they were sent
    again = context.new_page()
    response = again.goto(link)
    assert response is not None and response.status == 200, response.status if response else None
    assert again.url == seat_url
    again.wait_for_selector("#table .seat", timeout=60_000)
    # Another browser with the same link is still refused.
    other = browser.new_context().new_page()
    response = other.goto(link)
    assert response is not None and response.status == 403
    # Buttons are big enough to touch on a phone.
    again.wait_for_selector(ANY_CONTROL, timeout=60_000)
    heights = again.locator("#actions button").evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert all(h >= 40 for h in heights), heights
    for _ in range(400):
        if again.locator("#result:not([hidden])").count():
            break
        if not step(again):
            again.wait_for_timeout(50)
    code, _out, err = proc.finish()
    assert code == 0, err
    rep = read_replay(replay)
    assert rep.result["statuses"][0] == "ok" and not any(rep.result["faults"][0].values())
    assert "came back by its join link" in err
