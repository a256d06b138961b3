"""The adaptive stop (stop = "settled"): table choice, and whole runs with
the in-process referee stand-in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.tournament import adaptive, coordinator
from arena.tournament.config import load_config
from arena.tournament.standings import build
from arena.tournament.store import Store
from tournament.conftest import BotMaker, TournamentMaker
from tournament.test_coordinator import Inline


def test_next_tables_cover_every_open_pair_with_few_tables() -> None:
    tables = [(1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 4)]
    pair = lambda a, b: adaptive.Pair(a, b, 0, 0.0, None)  # noqa: E731
    # (1,2) and (3,4) never share a table: two tables, one for each.
    chosen = adaptive.next_tables(tables, [pair(1, 2), pair(3, 4)], round_no=0)
    assert len(chosen) == 2 and any({1, 2} <= set(t) for t in chosen)
    assert any({3, 4} <= set(t) for t in chosen)
    # (1,2) and (2,3) share (1,2,3): one table.
    assert adaptive.next_tables(tables, [pair(1, 2), pair(2, 3)], 0) == [(1, 2, 3)]
    # One pair: its two tables in turn, by round (a different third bot).
    assert {adaptive.next_tables(tables, [pair(3, 4)], r)[0] for r in (0, 1)} == {
        (1, 3, 4), (2, 3, 4)}
    assert adaptive.next_tables(tables, [], 3) == []


def test_head_to_head_scores_per_duplicate_set() -> None:
    played = [adaptive.Played(f"m{i}", (0, 9), (1, 2, 3), (1, 2, 3)) for i in range(3)]
    played += [adaptive.Played(f"n{i}", (0, 9), (2, 1, 3), (1, 2, 3)) for i in range(3)]
    played += [adaptive.Played("x", (1, 5), (1, 2, 4), (2, 2, 1))]
    assert adaptive.head_to_head(played, 1, 2) == [0.5, 0.5]
    assert adaptive.head_to_head(played, 1, 3) == [1.0]


def run(folder: Path) -> coordinator.RunSummary:
    config = load_config(folder)
    with Store(config.store_path) as store:
        return coordinator.run(config, store, lambda: Inline())


def test_settled_stops_early_in_the_right_order_and_resumes_to_the_same(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot(f"b{s}", f"strength {s}") for s in (0, 1, 2, 3)]
    folder = make_tournament(bots, duplicate_sets=40, extra='stop = "settled"')
    first = run(folder)
    assert first.stopped.startswith("settled after")
    assert first.played == first.finished < first.planned == 40 * 24
    config = load_config(folder)
    with Store(config.store_path) as store:
        table = build(config, store)
    assert [r.bot for r in table.rows] == ["b3", "b2", "b1", "b0"]
    again = run(folder)  # resumed: the same choices, nothing more to play
    assert again.played == 0 and again.stopped == first.stopped
    fixed = make_tournament(bots, name="f", duplicate_sets=3)
    assert run(fixed).played == 3 * 24 and run(fixed).stopped == ""


def test_settled_reaches_its_maximum_when_bots_are_equal(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot(f"e{i}", "strength 1") for i in range(3)]
    folder = make_tournament(bots, duplicate_sets=12, extra='stop = "settled"')
    summary = run(folder)
    # Equal bots score exactly 1/2 in every set (the stand-in's luck belongs
    # to the seat): after 8 sets every pair is "too close to tell".
    assert summary.stopped == ("settled after 8 of 12 sets: every pair of neighbours "
                               "separated (or too close to tell)")
    assert summary.played == 8 * 6


@pytest.mark.slow
def test_tournament_run_stop_settled_from_the_command_line(tmp_path: Path) -> None:
    """Real referee and bot processes: `--stop settled` overrides the config;
    with duplicate_sets = 1 round 0 (every table) is all there is, and the
    run says that the maximum was reached. A bad --stop is one line, exit 2."""
    root = Path(__file__).resolve().parents[2]
    field = [root / "sample_bots" / "greedy", root / "sample_bots" / "random",
             root / "tournaments" / "sample" / "random_b"]
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "tournament.toml").write_text(
        'name = "s"\nseed = 1234567890123\nsandbox = "process"\nreplays = false\n'
        f'bootstrap = 0\nbots = [{", ".join(repr(str(p)) for p in field)}]\n'
        '[rules]\npreset = "standard"\ntarget = 500\nmax_deals = 3\n'
        '[time_control]\nper_move = 5.0\nbank = 60.0\nstartup = 30.0\n')
    cli = [sys.executable, "-c", "from arena.cli import main; main()", "tournament", "run"]
    bad = subprocess.run([*cli, str(folder), "--stop", "sometimes"], capture_output=True,
                         text=True, check=False, timeout=600)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--stop" in bad.stderr
    assert not (folder / "tournament.sqlite").exists()
    proc = subprocess.run([*cli, str(folder), "--stop", "settled"], capture_output=True,
                          text=True, check=False, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "6/6 matches finished" in proc.stdout
    assert "s: not settled within duplicate_sets = 1 (its maximum)" in proc.stdout
