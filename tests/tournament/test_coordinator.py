"""The tournament flow with an in-process fake referee (tournament_fakes)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from arena.referee.spec import MatchSpec
from arena.tournament import coordinator
from arena.tournament.config import load_config
from arena.tournament.executors import Outcome
from arena.tournament.publish import to_json
from arena.tournament.standings import build
from arena.tournament.store import Store
from tournament.tournament_fakes import fake_run_match


class Inline:
    """Plays in this process; `shuffle` returns results in a scrambled order."""

    workers = 1

    def warm(self) -> None:
        pass

    def __init__(self, shuffle: int | None = None, stop_after: int | None = None) -> None:
        self.shuffle = shuffle
        self.stop_after = stop_after

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        outcomes = []
        for i, spec in enumerate(specs):
            if self.stop_after is not None and i >= self.stop_after:
                raise KeyboardInterrupt  # the runner dies mid-tournament
            try:
                outcomes.append(Outcome(spec.match_id, fake_run_match(spec)))
            except RuntimeError as exc:
                outcomes.append(Outcome(spec.match_id, None, str(exc)))
            if self.shuffle is None:
                yield outcomes.pop()
        if self.shuffle is not None:
            random.Random(self.shuffle).shuffle(outcomes)
            yield from outcomes

    def close(self) -> None:
        pass


def rows_json(folder: Path) -> str:
    config = load_config(folder)
    with Store(config.store_path) as store:
        text = to_json(build(config, store))
    return text.split('"rows"', 1)[1]  # without the (folder-specific) name


def run(folder: Path, executor: Inline | None = None) -> coordinator.RunSummary:
    config = load_config(folder)
    with Store(config.store_path) as store:
        return coordinator.run(config, store, lambda: executor or Inline())


@pytest.fixture
def four(make_bot) -> list[Path]:
    return [make_bot("weak", "strength 0"), make_bot("mid", "strength 1"),
            make_bot("good", "strength 2"), make_bot("best", "strength 3")]


def test_runs_every_match_once_and_ranks_by_strength(four, make_tournament) -> None:
    folder = make_tournament(four, duplicate_sets=2)
    seen: list[tuple[int, int, str]] = []
    config = load_config(folder)
    with Store(config.store_path) as store:
        summary = coordinator.run(config, store, Inline, lambda d, t, lead: seen.append((d, t, lead)))
    assert (summary.planned, summary.finished, summary.played, summary.failed) == (48, 48, 48, 0)
    assert seen[0][:2] == (0, 48) and seen[-1][:2] == (48, 48) and seen[-1][2].startswith("best")
    again = run(folder)
    assert (again.finished, again.played) == (48, 0)
    with Store(config.store_path) as store:
        table = build(config, store)
        assert store.counts() == {"finished": 48}
        history = store.rating_history()
    assert [r.bot for r in table.rows] == ["best", "good", "mid", "weak"]
    assert all(r.matches == 36 for r in table.rows)  # 3 tables x 2 sets x 6 orders
    assert table.rows[0].rank_low >= 1 and table.rows[0].rank_high <= 4
    assert all(len(steps) == 36 for steps in history.values())
    assert table.rows[0].average_place < table.rows[-1].average_place


def test_table_does_not_depend_on_completion_order(four, make_tournament) -> None:
    a = make_tournament(four, name="a")
    b = make_tournament(four, name="b")
    run(a, Inline())
    run(b, Inline(shuffle=3))
    assert rows_json(a) == rows_json(b)


def test_interrupted_run_resumes_without_loss_or_double_count(four, make_tournament) -> None:
    whole = make_tournament(four, name="whole", duplicate_sets=2)
    cut = make_tournament(four, name="cut", duplicate_sets=2)
    run(whole)
    with pytest.raises(KeyboardInterrupt):
        run(cut, Inline(stop_after=17))
    config = load_config(cut)
    with Store(config.store_path) as store:
        counts = store.counts()
    assert counts["finished"] == 17 and counts["running"] == 1
    summary = run(cut)
    assert (summary.played, summary.finished) == (31, 48)
    assert rows_json(whole) == rows_json(cut)


def test_failed_matches_are_retried_on_the_next_run(make_bot, make_tournament) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("c"), make_bot("broken", "fail")]
    folder = make_tournament(bots)
    summary = run(folder)
    assert summary.failed == 18 and summary.finished == 6  # broken sits at 3 of 4 tables
    assert "cannot start broken" in summary.errors[0]
    config = load_config(folder)
    with Store(config.store_path) as store:
        assert store.counts() == {"finished": 6, "failed": 18}
        table = build(config, store)
    assert {r.bot: r.matches for r in table.rows} == {"a": 6, "b": 6, "c": 6, "broken": 0}
    assert run(folder).played == 0  # still broken: tried again, failed again


def test_changed_bot_is_a_new_version_with_old_results_kept_apart(
        four, make_bot, make_tournament) -> None:
    folder = make_tournament(four)
    run(folder)
    make_bot("weak", "strength 5", version="2.0")  # the source folder changes
    summary = run(folder)
    assert summary.played == 18  # only tables with the new weak version
    config = load_config(folder)
    with Store(config.store_path) as store:
        table = build(config, store)
        assert len(store.bots()) == 5
        assert store.counts() == {"finished": 42}
    assert table.rows[0].bot == "weak" and table.rows[0].version == "2.0"
    assert table.rows[0].matches == 18
    assert table.retired == (("weak", "1.0", 18),)


def test_fewer_than_three_bots_is_a_clear_error(make_bot, make_tournament) -> None:
    folder = make_tournament([make_bot("a"), make_bot("b")])
    config = load_config(folder)
    with pytest.raises(coordinator.TournamentError,
                       match=r"tournament.toml: key 'bots': .* at least 3 bots, found 2 \(a, b\)"):
        coordinator.check_field(config, None)
