"""The gauntlet: tables, set scores, and whole runs with an in-process
referee stand-in (the real-process run is in test_gauntlet_cli.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from arena.referee.spec import MatchSpec
from arena.tournament.executors.local import Outcome
from arena.tournament.gauntlet import run as gauntlet_run
from arena.tournament.gauntlet.sets import (
    GauntletError,
    Settings,
    judge,
    lineups,
    match_score,
    plan_set,
    resolution,
    set_scores,
    table,
)
from arena.tournament.plan.match_settings import MatchSettings
from arena.tournament.store import Store
from tournament.conftest import BotMaker, TournamentMaker
from tournament.tournament_fakes import fake_run_match


def settings(n: int, baseline: bool = False, stop: str = "sprt") -> Settings:
    names = tuple(f"b{i}" for i in range(n))
    return Settings(field=tuple(f"{x}@h{x}" for x in names), names=names, baseline=baseline,
                    seed=5, rules_preset="standard", rules_options=(), time_control={},
                    fault_policy={}, limits={}, stop=stop, elo0=0.0, elo1=20.0, alpha=0.05,
                    beta=0.05)


def test_tables_and_seat_orders() -> None:
    one = settings(2)
    assert table(one, 0) == table(one, 7) == (0, 1, 1)
    assert lineups((0, 1, 1)) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]  # each seat once
    three = settings(4)
    assert [table(three, k) for k in range(4)] == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (0, 1, 2)]
    assert len(lineups((0, 1, 2))) == 6
    base = settings(3, baseline=True)  # field: candidate, baseline, a third bot
    assert table(base, 0) == (0, 1, 2)
    assert table(settings(2, baseline=True), 3) == (0, 1, 1)
    # The six matches of a set share one deal seed; sets differ.
    s0, s1 = plan_set(three, 0), plan_set(three, 1)
    assert len({m.seed for m in s0}) == 1 and s0[0].seed != s1[0].seed
    assert len({m.match_id for m in s0 + s1}) == 12
    with pytest.raises(GauntletError):
        table(settings(1), 0)


def test_scores_count_the_right_seats() -> None:
    two = settings(3)
    # candidate second of three: ahead of one opponent, behind the other.
    assert match_score(two, (1, 0, 2), (1, 2, 3)) == 0.5
    assert match_score(two, (0, 1, 2), (1, 1, 3)) == 0.75  # tie with one, ahead of one
    base = settings(3, baseline=True)
    # Against the baseline only: the third seat does not count.
    assert match_score(base, (2, 0, 1), (1, 2, 3)) == 1.0
    assert resolution(two) == 1 / 24 and resolution(settings(2)) == 1 / 12
    assert resolution(base) == 1 / 12
    # set scores: complete sets only, in order, stopping at the first gap.
    first = plan_set(two, 0)
    places = {m.match_id: (1, 2, 3) for m in first}  # seat 0 always wins
    assert set_scores(two, places, 5) == [pytest.approx(sum(
        match_score(two, m.bots, (1, 2, 3)) for m in first) / 6)]
    third = plan_set(two, 2)
    places.update({m.match_id: (1, 2, 3) for m in third})
    assert len(set_scores(two, places, 5)) == 1  # set 1 missing: set 2 waits


class Inline:
    workers = 1

    def __init__(self) -> None:
        self.played: list[str] = []

    def warm(self) -> None:
        pass

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        for spec in specs:
            self.played.append(spec.match_id)
            yield Outcome(spec.match_id, fake_run_match(spec))

    def terminate_workers(self) -> None:
        pass  # its matches are played in this process, one at a time

    def close(self) -> None:
        pass


def request(tmp_path: Path, bot: Path, against: list[Path], **kw: object) -> gauntlet_run.Request:
    return gauntlet_run.Request(root=tmp_path / "g", bot=bot, against=tuple(against), seed=3,
                                match=MatchSettings(replays=False), **kw)  # type: ignore[arg-type]


def play(req: gauntlet_run.Request, executor: Inline) -> gauntlet_run.RunReport:
    bots, baseline = gauntlet_run.prepare(req)
    store, prepared = gauntlet_run.open_store(req, bots, baseline)
    with store:
        return gauntlet_run.run(prepared, store, lambda: executor)


def test_a_stronger_bot_is_found_stronger_early_and_a_resumed_run_plays_nothing(
        tmp_path: Path, make_bot: BotMaker) -> None:
    strong, weak = make_bot("strong", "strength 3"), make_bot("weak", "strength 0")
    first = Inline()
    report = play(request(tmp_path, strong, [weak], max_sets=50), first)
    v = report.verdict
    assert v.state.decision == "H1" and v.verdict == "stronger" and v.finished
    assert v.state.sets < 50 and len(first.played) == report.played == 3 * v.state.sets
    again = Inline()
    assert play(request(tmp_path, strong, [weak], max_sets=50), again).verdict == v
    assert again.played == []
    with Store(tmp_path / "g" / gauntlet_run.STORE_NAME) as store:
        assert store.get_json(gauntlet_run.VERDICT_KEY)["verdict"] == "stronger"
    # The weaker bot against the stronger: H0.
    report = play(request(tmp_path / "w", weak, [strong], max_sets=50), Inline())
    assert report.verdict.verdict == "not stronger"


def test_equal_bots_and_a_fixed_stop(tmp_path: Path, make_bot: BotMaker) -> None:
    a, b, c = (make_bot(x, "strength 1") for x in "abc")
    ex = Inline()
    report = play(request(tmp_path, a, [b, c], max_sets=9, stop="fixed"), ex)
    # fixed: every set is played, and equal bots score exactly 1/2 per set
    # (the stand-in's luck belongs to the seat, and every bot has every seat).
    assert report.verdict.state.sets == 9 and len(ex.played) == 54
    assert report.verdict.state.mean == 0.5 and report.verdict.verdict == "not stronger"


def test_baseline_version_and_a_different_gauntlet_is_refused(
        tmp_path: Path, make_bot: BotMaker) -> None:
    old = make_bot("mine", "strength 0", version="0.1.0")
    old_copy = tmp_path / "old"
    import shutil

    shutil.copytree(old, old_copy)
    new = make_bot("mine", "strength 3", version="0.2.0")  # same folder, rewritten
    report = play(request(tmp_path, new, [], baseline=str(old_copy), max_sets=30), Inline())
    assert report.verdict.verdict == "stronger"
    # The baseline by its version, from the gauntlet's own store.
    again = Inline()
    report2 = play(request(tmp_path, new, [], baseline="0.1.0", max_sets=30), again)
    assert again.played == [] and report2.verdict == report.verdict
    with pytest.raises(GauntletError, match="not stored"):
        play(request(tmp_path, new, [], baseline="9.9", max_sets=30), Inline())
    other = make_bot("other", "strength 1")
    with pytest.raises(GauntletError, match="holds another gauntlet"):
        play(request(tmp_path, new, [other], max_sets=30), Inline())
    with pytest.raises(GauntletError, match="nothing to play against"):
        gauntlet_run.prepare(request(tmp_path, new, []))


def test_baseline_from_a_tournament_store(tmp_path: Path, make_bot: BotMaker,
                                          make_tournament: TournamentMaker) -> None:
    """`--baseline 0.1.0 --baseline-from TOURNAMENT`: the old version as the
    tournament stored it (its snapshot), although its source folder changed."""
    from arena.tournament.plan.config import load_config
    from arena.tournament.run import coordinator
    from tournament.inline import Inline as TournamentInline

    mine = make_bot("mine", "strength 0", version="0.1.0")
    others = [make_bot(x, "strength 1") for x in ("p", "q")]
    folder = make_tournament([mine, *others])
    config = load_config(folder)
    with Store(config.store_path) as store:
        coordinator.run(config, store, lambda: TournamentInline())
    new = make_bot("mine", "strength 3", version="0.2.0")  # the source folder moves on
    req = request(tmp_path, new, [others[0]], baseline="0.1.0", baseline_from=folder,
                  max_sets=30)
    report = play(req, Inline())
    assert report.verdict.verdict == "stronger"
    with Store(req.store_path) as store:
        versions = sorted(b.version for b in store.bots() if b.name == "mine")
    assert versions == ["0.1.0", "0.2.0"]


def test_the_verdict_line_names_the_baseline_apart_from_the_third_seat() -> None:
    """`--baseline 0.1.0 --against greedy` read 'against its baseline
    b2@hb2, b1@hb1': the sorted field, greedy named a baseline too."""
    from arena.cli.gauntlet_cmd import verdict_line

    base = settings(3, baseline=True)  # b0 under test, b1 its baseline, b2 in the third seat
    v = judge(base, [0.5] * 3, 10, 3)
    line = verdict_line(base, v, 10)
    assert line.startswith("b0 against its baseline b1@hb1 (the third seat: b2@hb2, not counted): ")
    alone = settings(2, baseline=True)  # (BOT, OLD, OLD)
    assert verdict_line(alone, judge(alone, [0.5], 10, 3), 10).startswith("b0 against its baseline b1@hb1: ")
    field = settings(3)
    assert verdict_line(field, judge(field, [0.5], 10, 6), 10).startswith("b0 against b1@hb1, b2@hb2: ")
