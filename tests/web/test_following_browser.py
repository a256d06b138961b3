"""Following a match in the replay player and the tournament pages, in
Chromium (`arena serve` as a process): each deal's end is drawn before the
next deal's cards, the talon is not drawn again once taken, a locked seat
(barrel lock) is marked, the hand record panel follows the deal, the
rating chart says why it ends elsewhere than the leaderboard, the layout
holds at 1280 and 390 px, "running" says what it counts and the empty
tournament's suggested command names its folder as a user can type it.
Screenshots go to test-artefacts/screenshots/ (not committed)."""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules
from arena.game.scoring import locked
from arena.referee.replay import read_replay

from .browser import browser, engine_states, no_overflow, open_player, serve
from .stored import ROOT, write_replay

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SHOTS = ROOT / "test-artefacts" / "screenshots"
# A 500 game of the Estonian rules (lock at 400): by seed 0 and the golden
# random policy 1, a seat is locked from deal 6 on.
LOCK_RULES = Rules.preset("estonian").replace(target=500, max_deals=8)


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("follow")
    write_replay(folder / "std.jsonl", Rules.preset("standard").replace(max_deals=3), seed=21, policy_seed=2)
    write_replay(folder / "lock.jsonl", LOCK_RULES, seed=0, policy_seed=1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_deals_end_is_drawn_before_the_next_deal(replays: Path) -> None:
    rep = read_replay(replays / "std.jsonl")
    states = engine_states(replays / "std.jsonl")
    # The all-cards view has a step per action: step k is after action k.
    ends = [k for k in range(1, len(states)) if len(states[k].deals) > len(states[k - 1].deals)]
    assert len(ends) == len(rep.deals)
    with serve([replays]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for i, k in enumerate(ends):
            d = rep.deals[i]
            open_player(page, f"{base}/r/std?view=all&step={k}")
            frame = page.locator("#table #deal-end")
            assert frame.count() == 1, f"step {k}: no deal-end frame"
            head = frame.locator("h3").inner_text()
            if d["declarer"] is None:
                assert "nobody played it" in head
            else:
                assert f"seat {d['declarer']}" in head and f"played {d['contract']}" in head, head
                assert ("made" if d["made"] else "failed") in head or "conceded" in head, head
            # No card of the next deal is drawn at this step.
            assert page.locator("#table .seat").count() == 0
            rows = frame.locator("tbody tr")
            assert rows.count() == 3
            for s in range(3):
                cells = rows.nth(s).locator("td").all_inner_texts()
                assert cells[1:] == [str(d["deal_scores"][s]),
                                     f"{'+' if d['changes'][s] > 0 else ''}{d['changes'][s]}", str(d["totals"][s])]
            if i == 0:
                page.screenshot(path=str(SHOTS / "player-deal-end-1280.png"), full_page=True)
                # The next deal's cards on demand, at the same step.
                page.click("#b-next-deal")
                assert page.locator("#table .seat").count() == 3
                hand = page.locator('#table .seat[data-seat="0"] .hand .card').evaluate_all(
                    "els => els.map(e => e.dataset.card)")
                assert hand == [str(c) for c in states[k].hand(0)]


def test_the_talon_taken_is_named_once_not_drawn_again(replays: Path) -> None:
    states = engine_states(replays / "std.jsonl")
    taken = [k for k, g in enumerate(states)
             if not g.is_over and g.phase in ("exchange", "contract", "play") and not g.talon
             and g.observation(0).to_dict()["talon"]]
    assert taken
    with serve([replays]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for k in taken[:1] + taken[len(taken) // 2:len(taken) // 2 + 1]:
            open_player(page, f"{base}/r/std?view=all&step={k}")
            talon = states[k].observation(0).to_dict()["talon"]
            assert page.locator("#table .talon .card").count() == 0, k
            assert page.locator("#table [data-talon-taken]").get_attribute("data-talon-taken") == " ".join(talon)
            up = page.locator("#table .card[data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card).filter(c => c)")
            assert len(up) == len(set(up)), (k, up)


def test_a_locked_seat_is_marked(replays: Path) -> None:
    states = engine_states(replays / "lock.jsonl")
    marks = [[locked(LOCK_RULES, t) for t in g.totals] for g in states]
    first = next(k for k, m in enumerate(marks) if any(m))
    with serve([replays]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for k in (0, first, first + 3):
            open_player(page, f"{base}/r/lock?view=all&step={k}")
            if page.locator("#table #deal-end").count():
                continue  # a deal's end: no seats drawn
            shown = page.locator("#table .seat .badge.locked").evaluate_all(
                "els => els.map(e => Number(e.closest('.seat').dataset.seat))")
            assert shown == [s for s, m in enumerate(marks[k]) if m], (k, shown)
        assert page.locator("#table .badge.locked").first.get_attribute("title").startswith("barrel lock: at or above 400")
        page.screenshot(path=str(SHOTS / "player-locked-1280.png"), full_page=True)


def test_the_hand_record_follows_the_deal(replays: Path) -> None:
    states = engine_states(replays / "std.jsonl")
    rep = read_replay(replays / "std.jsonl")
    # A step in the play of the first deal, with some tricks taken.
    k = next(i for i, g in enumerate(states) if not g.is_over and len(g.observation(0).to_dict()["tricks"]) >= 3)
    obs = states[k].observation(0).to_dict()
    with serve([replays]) as base, browser() as b:
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 900})
            open_player(page, f"{base}/r/std?view=1&step={k}")
            record = page.locator("#record .hand-record")
            grid = record.locator("table.auction-grid tbody tr")
            flat = [c for r in range(grid.count()) for c in grid.nth(r).locator("td").all_inner_texts() if c]
            assert flat == [a["action"] for a in _in_turn(obs["auction"])], flat
            tricks = record.locator("table.tricks-grid tbody tr")
            assert tricks.count() == len(obs["tricks"])
            first = tricks.nth(0).locator("td").all_inner_texts()
            t0 = obs["tricks"][0]
            assert first[1] == f"seat {t0['leader']}" and first[-1] == f"seat {t0['winner']}"
            words = record.locator("ol.action-words li").all_inner_texts()
            assert words and words[0].startswith(f"seat {rep.actions[0]['seat']} (")
            assert any(re.search(r" plays (10|[AKQJ9])[♣♦♥♠]", w) for w in words), words
            record.locator("details.last-trick-box summary").click()
            assert "last trick:" in record.locator(".last-trick").inner_text()
            scroll, client = no_overflow(page)
            assert scroll <= client, f"{width}: {scroll} > {client}"
            page.screenshot(path=str(SHOTS / f"player-record-{width}.png"), full_page=True)
            page.close()


def _in_turn(auction: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The auction in the order the grid reads it: round by round, by seat."""
    rounds: list[dict[int, dict[str, Any]]] = []
    for a in auction:
        if not rounds or a["seat"] in rounds[-1]:
            rounds.append({})
        rounds[-1][a["seat"]] = a
    return [r[s] for r in rounds for s in sorted(r)]


def test_totals_chart_deals_table_and_touch_targets(replays: Path) -> None:
    rep = read_replay(replays / "std.jsonl")
    with serve([replays]) as base, browser() as b:
        for width in (1280, 390):
            page = b.new_page(viewport={"width": width, "height": 900})
            open_player(page, f"{base}/r/std?view=all&step=0")
            ticks = page.locator("#totals-chart svg text.tick").evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.top, r.bottom, r.left]; })")
            values = [t for t in ticks if re.fullmatch(r"-?\d+", t[0])]
            lowest = min(min(d["totals"]) for d in rep.deals)
            if lowest < 0:  # the minus sign is drawn, inside the chart
                assert any(t[0].startswith("-") for t in values), values
            assert all(t[3] >= 0 for t in values), values
            spans = sorted((t[1], t[2]) for t in values)
            assert all(a[1] <= b[0] + 0.5 for a, b in itertools.pairwise(spans)), spans
            # Every deal's row is shown, no word split inside itself.
            box = page.locator("#deals")
            assert box.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
            assert page.locator("#deals tr[data-deal]").count() == len(rep.deals)
            split = page.locator("#deals td").evaluate_all(
                "els => els.filter(e => e.textContent.split(/\\s+/).some(w => w.length > 1) && "
                "[...e.textContent.split(/\\s+/)].some(w => { const r = document.createRange(); "
                "const t = e.firstChild; if (!t) return false; const i = t.textContent.indexOf(w); "
                "if (i < 0 || !w) return false; r.setStart(t, i); r.setEnd(t, i + w.length); "
                "return r.getClientRects().length > 1; })).map(e => e.textContent)")
            assert split == [], split
            if width == 390:
                heights = page.locator(".controls button").evaluate_all(
                    "els => els.map(e => e.getBoundingClientRect().height)")
                assert heights and min(heights) >= 40, heights
            page.screenshot(path=str(SHOTS / f"player-below-{width}.png"), full_page=True)
            page.close()


def test_tournament_pages_explain_and_hold_their_layout(stored: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "tournament.toml").write_text(
        (stored / "tournament.toml").read_text().replace('name = "demo"', 'name = "empty"'))
    with serve([stored, empty]) as base, browser() as b:
        page = b.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/t/demo/")
        # The chart's diamonds are the leaderboard's ratings, and the page says why
        # the lines end elsewhere.
        board = dict(zip(page.locator("table.board td.c-bot").all_inner_texts(),
                         page.locator("table.board td.c-conservative").all_inner_texts(), strict=True))
        finals = page.locator("figure.chart path.final").evaluate_all(
            "els => els.map(e => [e.dataset.bot, Number(e.dataset.value)])")
        assert finals and {n: round(v, 2) for n, v in finals} == {n: round(float(v), 2) for n, v in board.items()}
        assert "fitted over all the matches at once" in page.locator("#chart-why").inner_text()
        assert "in play or waiting for a worker" in page.locator("#counts").inner_text()
        page.screenshot(path=str(SHOTS / "tournament-chart-1280.png"), full_page=True)
        # The empty tournament's command names its folder as typed from where
        # the server runs (tests run it from the repository's root or elsewhere).
        page.goto(f"{base}/t/empty/")
        problem = page.locator("#problem").inner_text()
        m = re.search(r"run `arena tournament run (.+?)`", problem)
        assert m, problem
        folder = Path(shlex.split(m.group(1))[0])
        assert (folder if folder.is_absolute() else Path.cwd() / folder).resolve() == empty.resolve()
        # On a phone: head-to-head names whole, the bot page's results labelled.
        phone = b.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{base}/t/demo/h2h")
        lines = phone.locator("table.h2h thead th").evaluate_all(
            "els => els.filter(e => e.textContent).map(e => { const r = document.createRange(); "
            "r.selectNodeContents(e); return r.getClientRects().length; })")
        assert lines and set(lines) == {1}, lines
        phone.screenshot(path=str(SHOTS / "h2h-390.png"), full_page=True)
        phone.goto(f"{base}/t/demo/bot/greedy")
        labels = phone.locator("table.results td").evaluate_all(
            "els => els.map(e => getComputedStyle(e, '::before').content)")
        assert labels and all(x not in ("none", '""', "") for x in labels), labels
        phone.screenshot(path=str(SHOTS / "bot-greedy-390.png"), full_page=True)
