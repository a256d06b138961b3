"""The adaptive stop (stop = "settled"): table choice, and whole runs with
the in-process referee stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import cli

from arena.tournament.plan.config import load_config
from arena.tournament.results.standings import build
from arena.tournament.run import coordinator
from arena.tournament.stop import adaptive
from arena.tournament.store import Store
from tournament.conftest import BotMaker, TournamentMaker
from tournament.inline import Inline


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
    # `tournament status` calls the skipped tables and sets what they are:
    # not needed (no run plays them), not planned.
    status = cli("tournament", "status", folder, timeout=120)
    assert status.returncode == 0, status.stderr
    skipped = first.planned - first.finished
    assert (f"finished {first.finished}, not needed {skipped} (of {first.planned} "
            in status.stdout), status.stdout
    assert "planned" not in status.stdout.splitlines()[0].replace(f"of {first.planned}", "")
    with Store(config.store_path) as store:  # computed, not stored: the store is unchanged
        assert store.counts().get("planned", 0) >= skipped
    fixed = make_tournament(bots, name="f", duplicate_sets=3)
    assert run(fixed).played == 3 * 24 and run(fixed).stopped == ""


def test_settled_reaches_its_maximum_when_bots_are_equal(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot(f"e{i}", "strength 1") for i in range(3)]
    folder = make_tournament(bots, duplicate_sets=12, extra='stop = "settled"')
    summary = run(folder)
    # Equal bots score exactly 1/2 in every set (the stand-in's luck belongs
    # to the seat): every fitted gap is 0, no pair is ever separated, and
    # the run plays to its maximum.
    assert summary.stopped == "not settled within duplicate_sets = 12 (its maximum)"
    assert summary.played == 12 * 6
    config = load_config(folder)
    with Store(config.store_path) as store:
        rows = {r.match_id: r for r in store.matches()}
        field = coordinator.prepare(config, store)
    assert coordinator.not_needed(config, field.bots, field.plan, rows) == set()


def unit_of(set_no: int, bots: tuple[int, int, int], order: tuple[int, int, int],
            repeat: int = 6) -> list[adaptive.Played]:
    """`repeat` matches of one duplicate set, finishing in `order` (best first)."""
    places = tuple(order.index(b) + 1 for b in bots)
    return [adaptive.Played(f"s{set_no}-{i}", (set_no, 7 + set_no), bots, places)
            for i in range(repeat)]


def test_pooled_fit_against_hand_computed_least_squares() -> None:
    # Two sets of table (1, 2, 3): set 0 every match 1 > 2 > 3, set 1
    # every match 2 > 1 > 3. Shares - 1/2 per unit, pairs (1,2), (1,3), (2,3):
    # set 0: +1/2, +1/2, +1/2; set 1: -1/2, +1/2, +1/2.
    played = unit_of(0, (1, 2, 3), (1, 2, 3)) + unit_of(1, (1, 2, 3), (2, 1, 3))
    assert adaptive.observations(played) == [
        (1, 2, 0.5), (1, 3, 0.5), (2, 3, 0.5), (1, 2, -0.5), (1, 3, 0.5), (2, 3, 0.5)]
    model = adaptive.fit(played, [1, 2, 3])
    assert model is not None
    # Least squares with sum 0: the pair means are y12 = 0, y13 = 1/2, y23 = 1/2;
    # for a triangle theta_a = (y_ab + y_ac) / 3: theta = (1/6, 1/6, -1/3).
    assert [round(model.theta[b], 12) for b in (1, 2, 3)] == [round(1 / 6, 12),
                                                               round(1 / 6, 12),
                                                               round(-1 / 3, 12)]
    # Residuals: (1,2) +-1/2, the others 0: RSS = 1/2 over 6 - 2 = 4 dof,
    # noise 1/8; var(theta_1 - theta_3) for a triangle design with k = 2
    # units is 2 / (3 k) * noise = 1/24.
    assert model.dof == 4
    gap, var = model.gap(1, 3)
    assert abs(gap - 0.5) < 1e-12 and abs(var - 1 / 24) < 1e-12


def test_neighbours_test_is_wald_sprt_on_the_pooled_gap() -> None:
    # Ten sets of (1, 2, 3): 1 always first; 2 ahead of 3 in six sets, behind in four.
    played: list[adaptive.Played] = []
    for k in range(10):
        played += unit_of(k, (1, 2, 3), (1, 2, 3) if k % 5 < 3 else (1, 3, 2))
    result = adaptive.pairs(played, [1, 2, 3])
    assert [(p.above, p.below) for p in result] == [(1, 2), (2, 3)]
    # Pair means y12 = y13 = 1/2, y23 = 0.1. Triangle: theta_a = (y_ab + y_ac) / 3:
    # theta = (1/3, -2/15, -1/5); gaps 7/15 and 1/15. Residuals per unit:
    # (1,2) +1/30, (1,3) -1/30, (2,3) 13/30 (six units) or -17/30 (four):
    # RSS = (20 + 6 * 169 + 4 * 289) / 900 over 30 - 2 = 28 dof; the variance
    # of a difference is 2 / (3 * 10) * noise.
    noise = (20 + 6 * 169 + 4 * 289) / 900 / 28
    var = 2 / 30 * noise
    delta = 1 / (1 + 10 ** (-adaptive.SETTLE_ELO / 400)) - 0.5
    top, bottom = result
    assert abs(top.gap - 7 / 15) < 1e-12 and abs(top.sd - var ** 0.5) < 1e-12
    assert abs(top.llr - 2 * delta * (7 / 15) / var) < 1e-9
    assert abs(bottom.gap - 1 / 15) < 1e-12
    assert abs(bottom.llr - 2 * delta * (1 / 15) / var) < 1e-9
    # Bonferroni over the 2 neighbouring pairs: a = 0.025, bound log(0.975/0.025).
    assert abs(adaptive.bound(2) - 3.6635616461296463) < 1e-12
    assert top.decision == "H1" and top.llr > adaptive.bound(2)
    assert bottom.llr < adaptive.bound(2) and bottom.decision is None
    # Before MIN_DOF degrees of freedom nothing is settled, however clear.
    early = adaptive.pairs(played[:6 * 3], [1, 2, 3])
    assert all(p.decision is None for p in early)


def test_pairs_are_judged_on_sets_where_they_never_met() -> None:
    # Bots 1 and 4 never share a table, yet the pooled fit orders them:
    # 1 beats 2 and 3 everywhere, 4 loses to both.
    played: list[adaptive.Played] = []
    for k in range(6):
        played += unit_of(k, (1, 2, 3), (1, 2, 3) if k % 2 else (1, 3, 2))
        played += unit_of(k, (2, 3, 4), (2, 3, 4) if k % 2 else (3, 2, 4))
    assert adaptive.head_to_head(played, 1, 4) == []
    model = adaptive.fit(played, [1, 2, 3, 4])
    assert model is not None and model.gap(1, 4)[0] > 0.9


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
    bad = cli("tournament", "run", folder, "--stop", "sometimes", cwd=None)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--stop" in bad.stderr
    assert not (folder / "tournament.sqlite").exists()
    proc = cli("tournament", "run", folder, "--stop", "settled", cwd=None)
    assert proc.returncode == 0, proc.stderr
    assert "6/6 matches finished" in proc.stdout
    assert "s: not settled within duplicate_sets = 1 (its maximum)" in proc.stdout
