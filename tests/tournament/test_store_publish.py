from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arena.referee.spec import MatchSpec
from arena.sandbox.botfile import load_bot
from arena.tournament.results.publish import FILES, publish, to_html, to_markdown
from arena.tournament.results.standings import Row, Table
from arena.tournament.run.progress import format_duration, render
from arena.tournament.store import Store, StoreError, result_from_json, result_to_json
from tournament.tournament_fakes import fake_run_match


def result(make_bot, match_id: str = "m1"):
    bots = tuple(load_bot(make_bot(n, f"strength {i}")) for i, n in enumerate("abc"))
    return fake_run_match(MatchSpec(match_id=match_id, bots=bots, seed=9))


def test_result_json_round_trip(make_bot) -> None:
    r = result(make_bot)
    assert result_from_json(result_to_json(r)) == r


def test_finish_is_idempotent_and_running_resets(tmp_path: Path, make_bot) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        assert store.plan([("m1", 0, 0, 0, 9, [1, 2, 3]), ("m2", 0, 0, 1, 9, [1, 3, 2])]) == 2
        assert store.plan([("m1", 0, 0, 0, 9, [1, 2, 3])]) == 0
        store.mark_running(["m1", "m2"])
        assert store.finish(result(make_bot, "m1")) is True
        assert store.finish(result(make_bot, "m1")) is False  # a second result is ignored
        assert store.counts() == {"finished": 1, "running": 1}
        assert store.reset_running() == 1
        assert store.counts() == {"finished": 1, "planned": 1}
        with pytest.raises(StoreError, match="unknown match 'zz'"):
            store.finish(result(make_bot, "zz"))
        store.fail("m2", "boom")
        assert [(m.match_id, m.status, m.attempts) for m in store.matches()] == [
            ("m1", "finished", 1), ("m2", "failed", 1)]
    with Store(tmp_path / "s.sqlite") as again:  # survives reopening
        assert again.matches(["m1"])[0].result == result(make_bot, "m1")


def test_bot_versions(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        a, new = store.add_bot("x", "1", "h1", "python", "bots/x/h1", "config")
        assert new
        b, new = store.add_bot("x", "1", "h2", "python", "bots/x/h2", "config")
        assert new and store.latest_versions()["x"].id == b.id
        again, new = store.add_bot("x", "1", "h1", "python", "bots/x/h1", "config")
        assert not new and again.id == a.id
        assert store.latest_versions()["x"].id == a.id  # back to the old content: current again


def test_not_a_store_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"bad\.sqlite: not a usable tournament store"):
        Store(bad)


def test_a_locked_store_is_said_to_be_locked(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holding a write lock past the wait: "locked by another
    process", not "not a usable tournament store" (which reads as damage)."""
    import sqlite3

    from arena.tournament import store as store_module

    path = tmp_path / "tournament.sqlite"
    Store(path).close()
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        for readonly in (False, True):
            with pytest.raises(StoreError, match="locked by another process") as refused:
                Store(path, readonly=readonly)
            assert "not a usable" not in str(refused.value) and str(path) in str(refused.value)
    finally:
        holder.close()
    Store(path).close()


def row(rank: int, bot: str) -> Row:
    return Row(rank=rank, bot=bot, version="1", content_hash="h", language="python",
               conservative=1.5, mu=10.0, sigma=2.8, rank_low=1, rank_high=2, matches=6, wins=2,
               average_place=1.8, average_deal_score=55.5, auctions_won=4, made_percent=75.0,
               timeouts=1, crashes=0, illegal=2, malformed=1, sandbox="bwrap",
               history=((1, -3.0), (2, 1.5)))


def test_publish_writes_four_formats(tmp_path: Path) -> None:
    table = Table(name="t<x>", rules={"preset": "standard", "target": 500}, duplicate_sets=1,
                  planned=6, finished=6, rows=(row(1, "a|b"), row(2, "c")),
                  retired=(("c", "0.9", 3),))
    paths = publish(table, tmp_path / "out")
    assert [p.name for p in paths] == list(FILES)
    md = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "| 1 | a\\|b | 1 | 1.50 | 10.00 | 2.80 | 1–2 | 6 | 2 | 1.80 | 55.50 | 4 | 75.0 | 1/0/3 | bwrap |" in md
    assert "c 0.9: 3 matches" in md
    data = json.loads((tmp_path / "out" / "leaderboard.json").read_text())
    assert data["rows"][0]["bot"] == "a|b" and data["trueskill"]["tau"] == 0
    assert data["rows"][0]["history"] == [[1, -3.0], [2, 1.5]]
    csv = (tmp_path / "out" / "leaderboard.csv").read_text().splitlines()
    assert csv[0].startswith("rank,bot,version,content_hash") and len(csv) == 3
    html = to_html(table)
    assert "t&lt;x&gt;" in html and "<polyline" in html and html.count("<tr>") == 3
    assert "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")  # self-contained
    assert publish(table, tmp_path / "again") and all(
        (tmp_path / "out" / f).read_bytes() == (tmp_path / "again" / f).read_bytes() for f in FILES)


def test_a_publication_that_fails_half_way_leaves_the_earlier_four(tmp_path: Path) -> None:
    """The four files agree: a write that fails (a full disk; here the
    part file's name taken) or a name taken by a folder replaces none of them
    (leaderboard.md and .json were new beside the old .csv and index.html)."""
    import os
    from dataclasses import replace

    out = tmp_path / "out"
    old = Table(name="t", rules={"preset": "standard"}, duplicate_sets=1, planned=6, finished=6,
                rows=(row(1, "a"),), retired=())
    publish(old, out)
    before = {f: (out / f).read_bytes() for f in FILES}
    new = replace(old, finished=5, rows=(row(1, "b"),))
    blocker = out / f".leaderboard.csv.{os.getpid()}.part"
    blocker.mkdir()
    with pytest.raises(OSError):
        publish(new, out)
    blocker.rmdir()
    assert {f: (out / f).read_bytes() for f in FILES} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)  # no part file left
    (out / "leaderboard.csv").unlink()
    (out / "leaderboard.csv").mkdir()
    before.pop("leaderboard.csv")
    with pytest.raises(OSError):
        publish(new, out)
    assert {f: (out / f).read_bytes() for f in before} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)


def test_bot_supplied_text_is_inert_in_markdown_and_csv(tmp_path: Path) -> None:
    """Stores written before bot.toml limited `version` may hold anything: no
    raw HTML, no broken table row, no spreadsheet formula."""
    from dataclasses import replace

    evil = replace(row(1, "x"), version="=1+2|a\n<script>x</script>")
    table = Table(name="t", rules={"preset": "standard"}, duplicate_sets=1, planned=6, finished=6,
                  rows=(evil,), retired=(("y", "<b>2</b>\n# x", 3),))
    publish(table, tmp_path / "out")
    md = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "<script>" not in md and "<b>" not in md
    assert "| =1+2\\|a &lt;script&gt;x&lt;/script&gt; |" in md
    assert "- y &lt;b&gt;2&lt;/b&gt; # x: 3 matches" in md
    rows = [line for line in md.splitlines() if line.startswith("| 1 |")]
    assert len(rows) == 1 and rows[0].endswith("| bwrap |")
    import csv
    cells = list(csv.reader((tmp_path / "out" / "leaderboard.csv").read_text().splitlines()))
    assert cells[1][cells[0].index("version")].startswith("'=1+2")


def test_mixed_sandbox_levels_are_said_loudly_in_every_format(tmp_path: Path) -> None:
    from dataclasses import replace

    table = Table(name="t", rules={"preset": "standard"}, duplicate_sets=1, planned=6, finished=6,
                  rows=(row(1, "a"),), retired=(), mixed_levels=2)
    publish(table, tmp_path / "out")
    md = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "**WARNING: 2 of 6 matches seated process-level bots beside confined ones" in md
    assert json.loads((tmp_path / "out" / "leaderboard.json").read_text())[
        "matches_with_mixed_sandbox_levels"] == 2
    assert '<p class="warning"><strong>WARNING: 2 of 6 matches' in to_html(table)
    quiet = replace(table, mixed_levels=0)
    assert "WARNING" not in to_markdown(quiet) and "WARNING" not in to_html(quiet)


def test_progress_line() -> None:
    assert format_duration(3725) == "1:02:05" and format_duration(65) == "1:05"
    line = render(12, 48, 10.0, 216.0, "greedy (30.1)")
    assert "12/48 matches" in line and "10.0/min" in line and "ETA 3:36" in line
    assert line.endswith("leader: greedy (30.1)")
    assert "ETA --:--" in render(0, 48, 0.0, None, "")


def test_a_replay_replaces_the_old_one_only_when_complete(tmp_path: Path) -> None:
    """A match played again (a resumed tournament) writes beside the old
    replay and replaces it when done: never a cut or mixed file in its place."""
    from arena.referee.replay import ReplayWriter

    path = tmp_path / "m.jsonl"
    path.write_text('{"type":"header","old":true}\n')
    writer = ReplayWriter(str(path))
    writer.write({"type": "header", "new": True})
    assert path.read_text() == '{"type":"header","old":true}\n'  # untouched while it plays
    writer.finish()
    writer.close()
    assert path.read_text() == '{"type":"header","new":true}\n'
    assert list(tmp_path.iterdir()) == [path]

    # Stopped before its result (killed run, failed match): the old replay
    # stays, and no part file is left behind.
    writer = ReplayWriter(str(path))
    writer.write({"type": "header", "cut": True})
    assert writer.part_path.startswith(f"{path}.{os.getpid()}.")  # one per writer
    assert ReplayWriter(str(path)).part_path != writer.part_path
    writer.close()
    assert path.read_text() == '{"type":"header","new":true}\n'
    assert list(tmp_path.iterdir()) == [path]
