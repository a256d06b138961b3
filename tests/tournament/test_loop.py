"""The one play loop (arena/tournament/run/loop.py) under each stop rule
(arena/tournament/stop/): an in-memory executor that keeps `workers`
matches in flight and logs every match it takes and every outcome it
gives back, so the order of the two is what the tests read."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from arena.referee.spec import MatchResult, MatchSpec
from arena.tournament.executors.worker import Outcome
from arena.tournament.gauntlet import run as gauntlet_run
from arena.tournament.gauntlet.sets import plan_set
from arena.tournament.plan import registry
from arena.tournament.plan.config import load_config
from arena.tournament.plan.match_settings import MatchSettings
from arena.tournament.run import coordinator, loop
from arena.tournament.run.playing import Playing
from arena.tournament.stop.rule import Fixed, Stop
from arena.tournament.stop.settled import Settled
from arena.tournament.stop.sprt_rule import Sprt
from arena.tournament.store import MatchRow, Store
from tournament.conftest import BotMaker, TournamentMaker
from tournament.tournament_fakes import fake_run_match


class FakeExecutor:
    """Takes up to `workers` specs before it gives the first outcome back
    (the matches in flight), then one for one. A bot described "fail"
    makes its match an arena error; `interrupt_at` raises KeyboardInterrupt
    (Ctrl-C) when that many matches were taken."""

    def __init__(self, workers: int = 1, interrupt_at: int | None = None,
                 wrong_id: str = "") -> None:
        self.workers = workers
        self.interrupt_at = interrupt_at
        self.wrong_id = wrong_id  # this match's result comes back under another id
        self.log: list[tuple[str, str]] = []  # ("take" | "back", match id)
        self.told: list[str] = []

    def warm(self) -> None:
        pass

    def _outcome(self, spec: MatchSpec) -> Outcome:
        self.log.append(("back", spec.match_id))
        try:
            result = fake_run_match(spec)
        except RuntimeError as exc:
            return Outcome(spec.match_id, None, str(exc))
        if spec.match_id == self.wrong_id:
            result = dataclasses.replace(result, match_id="someone-else")
        return Outcome(spec.match_id, result)

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        flight: list[MatchSpec] = []
        for spec in specs:
            self.log.append(("take", spec.match_id))
            if self.interrupt_at is not None and len(self.taken) >= self.interrupt_at:
                raise KeyboardInterrupt
            flight.append(spec)
            if len(flight) == self.workers:
                yield self._outcome(flight.pop(0))
        while flight:
            yield self._outcome(flight.pop(0))

    @property
    def taken(self) -> list[str]:
        return [m for what, m in self.log if what == "take"]

    def terminate_workers(self) -> None:
        self.told.append("terminate")

    def close(self) -> None:
        self.told.append("close")


def tournament(folder: Path, store: Store) -> tuple[coordinator.Field, Callable[[MatchRow], MatchSpec]]:
    config = load_config(folder)
    field = coordinator.prepare(config, store)
    specs: dict[int, object] = {b.id: registry.bot_spec(b, folder) for b in field.bots}
    return field, lambda row: coordinator.match_spec(config, row, specs)


def statuses(store: Store) -> dict[str, str]:
    return {r.match_id: r.status for r in store.matches()}


def test_fixed_plays_every_match_in_turn_by_deals_and_an_error_does_not_stop_it(
        tmp_path: Path, make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("c"), make_bot("d", "fail")]
    folder = make_tournament(bots, duplicate_sets=2)
    with Store(folder / "tournament.sqlite") as store:
        field, to_spec = tournament(folder, store)
        rows = store.matches()
        executor = FakeExecutor(workers=2)
        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, Fixed(rows), store, to_spec)
        assert sorted(executor.taken) == sorted(r.match_id for r in rows)  # each once
        seeds = {r.match_id: r.seed for r in rows}
        fed = [seeds[m] for m in executor.taken]
        assert all(a != b for a, b in itertools.pairwise(fed))  # never twice one deal in a row
        failing = {r.match_id for r in rows if field.bots[-1].id in r.bot_ids}
        assert ended.stop == Stop("") and ended.played == len(rows) - len(failing) > 0
        assert sorted(ended.errors) == sorted(f"{m}: cannot start d" for m in failing)
        assert statuses(store) == {r.match_id: "failed" if r.match_id in failing else "finished"
                                   for r in rows}
    assert executor.told == ["close"]


def test_nothing_to_play_starts_no_executor(tmp_path: Path) -> None:
    def factory() -> FakeExecutor:
        raise AssertionError("an executor was made for nothing")

    with Store(tmp_path / "s.sqlite") as store, Playing(factory) as playing:
        ended = loop.play(playing, Fixed([]), store, lambda row: pytest.fail("no spec"))
    assert ended == loop.Ended(0, [], Stop(""))


def test_settled_plays_each_round_out_stops_when_settled_and_says_why(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot(f"b{s}", f"strength {s}") for s in (0, 1, 2, 3)]
    folder = make_tournament(bots, duplicate_sets=40)
    with Store(folder / "tournament.sqlite") as store:
        field, to_spec = tournament(folder, store)
        executor = FakeExecutor(workers=3)
        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, Settled(field.bots, field.plan, store, 40), store, to_spec)
        finished = [r for r in store.matches() if r.status == "finished"]
    assert ended.stop.why.startswith("settled after ") and ended.stop.why.endswith(
        " of 40 sets: every pair of neighbours separated")
    rounds = int(ended.stop.why.split()[2])
    assert 1 < rounds < 40 and ended.errors == [] and ended.played == len(finished)
    assert {r.set_no for r in finished} == set(range(rounds))  # set r is round r
    set_of = {r.match_id: r.set_no for r in finished}
    for at, (what, match_id) in enumerate(executor.log):
        if what == "take":  # every match of the sets before it came back already
            assert all(set_of[m] >= set_of[match_id] for w, m in executor.log[at:] if w == "back")


def test_settled_stops_after_a_round_with_an_error(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("c"), make_bot("d", "fail")]
    folder = make_tournament(bots, duplicate_sets=5)
    with Store(folder / "tournament.sqlite") as store:
        field, to_spec = tournament(folder, store)
        executor = FakeExecutor(workers=2)
        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, Settled(field.bots, field.plan, store, 5), store, to_spec)
        rows = store.matches()
    assert ended.stop == Stop("stopped: some matches could not be played (the next run plays "
                              "them first)")
    first = {r.match_id for r in rows if r.set_no == 0}
    assert set(executor.taken) == first  # the whole first round, nothing after it
    assert len(ended.errors) == sum(r.status == "failed" for r in rows) == 18  # d's 3 tables
    assert ended.played == len(first) - 18


def gauntlet(tmp_path: Path, bot: Path, against: Path, **kw: object
             ) -> tuple[gauntlet_run.Prepared, Store]:
    request = gauntlet_run.Request(root=tmp_path / "g", bot=bot, against=(against,), seed=3,
                                   match=MatchSettings(replays=False), **kw)  # type: ignore[arg-type]
    bots, baseline = gauntlet_run.prepare(request)
    store, prepared = gauntlet_run.open_store(request, bots, baseline)
    return prepared, store


def test_sprt_starts_no_match_once_decided_and_feeds_rounds_without_waiting(
        tmp_path: Path, make_bot: BotMaker) -> None:
    strong, weak = make_bot("strong", "strength 3"), make_bot("weak", "strength 0")
    prepared, store = gauntlet(tmp_path, strong, weak, max_sets=50)
    executor = FakeExecutor(workers=2)
    decided_at: list[int] = []
    with store:
        rule = Sprt(prepared.settings, 50, prepared.bot_ids, store, {})

        def on_result(m: object, result: MatchResult | None) -> None:
            if rule.verdict.finished and not decided_at:
                decided_at.append(len(executor.log))

        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, rule, store, lambda m: gauntlet_run._spec(
                prepared, m.match_id, m.seed, m.bots), on_result)
        finished = sum(r.status == "finished" for r in store.matches())
    assert rule.verdict.verdict == "stronger" and ended.stop == Stop("") and ended.errors == []
    assert decided_at and ("take", executor.log[-1][1]) not in executor.log[decided_at[0]:]
    assert all(what == "back" for what, _ in executor.log[decided_at[0]:])  # in flight only
    assert ended.played == finished == len(executor.taken) >= rule.verdict.matches
    # Two sets a round (two workers): the next round's first match is taken
    # while the last one's are still in play (rounds not played out).
    round_of = {m.match_id: m.set_no // 2 for s in range(50) for m in plan_set(prepared.settings, s)}
    first_of_round_1 = executor.log.index(("take", next(m for m in executor.taken
                                                         if round_of[m] == 1)))
    assert any(what == "back" and round_of[m] == 0 for what, m in executor.log[first_of_round_1:])


def test_sprt_stops_at_the_first_error(tmp_path: Path, make_bot: BotMaker) -> None:
    prepared, store = gauntlet(tmp_path, make_bot("a"), make_bot("broken", "fail"), max_sets=5)
    executor = FakeExecutor(workers=1)
    with store:
        rule = Sprt(prepared.settings, 5, prepared.bot_ids, store, {})
        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, rule, store, lambda m: gauntlet_run._spec(
                prepared, m.match_id, m.seed, m.bots))
        rows = store.matches()
    assert len(executor.taken) == 1 and len(ended.errors) == 1
    assert ended.errors[0].startswith(f"{executor.taken[0]}: cannot start ")
    assert [r.status for r in rows if r.match_id == executor.taken[0]] == ["failed"]
    assert ended.played == 0 and not rule.verdict.finished


def test_ctrl_c_stops_the_workers_and_closes_the_executor(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    folder = make_tournament([make_bot("a"), make_bot("b"), make_bot("c")], duplicate_sets=2)
    with Store(folder / "tournament.sqlite") as store:
        _field, to_spec = tournament(folder, store)
        executor = FakeExecutor(workers=2, interrupt_at=5)
        with pytest.raises(KeyboardInterrupt), Playing(lambda: executor) as playing:
            loop.play(playing, Fixed(store.matches()), store, to_spec)
        counts = store.counts()
    assert executor.told == ["terminate", "close"]
    # Three back and stored; the fourth in play and the fifth just handed
    # out are left running (the next run plays them again); seven untouched.
    assert counts == {"finished": 3, "running": 2, "planned": 7}


def test_a_result_for_another_match_is_an_error_recorded_once(
        make_bot: BotMaker, make_tournament: TournamentMaker) -> None:
    folder = make_tournament([make_bot("a"), make_bot("b"), make_bot("c")])
    with Store(folder / "tournament.sqlite") as store:
        _field, to_spec = tournament(folder, store)
        rows = store.matches()
        executor = FakeExecutor(wrong_id=rows[2].match_id)
        with Playing(lambda: executor) as playing:
            ended = loop.play(playing, Fixed(rows), store, to_spec)
        row = {r.match_id: r for r in store.matches()}[rows[2].match_id]
    message = "runner returned a result for 'someone-else'"
    assert ended.errors == [f"{rows[2].match_id}: {message}"] and ended.played == 5
    assert (row.status, row.error) == ("failed", message)
