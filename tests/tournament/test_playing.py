"""What a tournament run and a gauntlet run share around their executor
(arena/tournament/run/playing.py): made when first asked, its matches stopped
on Ctrl-C, always closed; a killed run's part files cleared."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from arena.referee.spec import MatchSpec
from arena.tournament.executors.local import Outcome
from arena.tournament.run.playing import Playing, clear_part_files


class _Recorder:
    workers = 1

    def __init__(self, told: list[str]) -> None:
        self.told = told

    def warm(self) -> None:
        self.told.append("warm")

    def play(self, specs: Iterable[MatchSpec]) -> Iterator[Outcome]:
        return iter(())

    def terminate_workers(self) -> None:
        self.told.append("terminate")

    def close(self) -> None:
        self.told.append("close")


def test_an_executor_is_made_when_first_asked_and_closed() -> None:
    told: list[str] = []
    with Playing(lambda: _Recorder(told)) as playing:
        assert not playing.started and told == []
        assert playing.executor() is playing.executor()  # one executor
    assert told == ["close"]


def test_ctrl_c_stops_the_matches_in_play_then_closes() -> None:
    told: list[str] = []
    with pytest.raises(KeyboardInterrupt), Playing(lambda: _Recorder(told)) as playing:
        playing.executor()
        raise KeyboardInterrupt
    assert told == ["terminate", "close"]


def test_another_error_closes_without_stopping_and_no_executor_is_left_alone() -> None:
    told: list[str] = []
    with pytest.raises(ValueError), Playing(lambda: _Recorder(told)) as playing:
        playing.executor()
        raise ValueError("x")
    assert told == ["close"]
    with pytest.raises(KeyboardInterrupt), Playing(lambda: _Recorder(told)):
        raise KeyboardInterrupt
    assert told == ["close"]  # none was made: nothing to stop or close


def test_only_part_files_are_cleared(tmp_path: Path) -> None:
    replays = tmp_path / "replays"
    replays.mkdir()
    (replays / "m1.jsonl").write_text("kept")
    (replays / "m2.jsonl.123.ab.part").write_text("cut")
    clear_part_files(replays)
    assert sorted(p.name for p in replays.iterdir()) == ["m1.jsonl"]
    clear_part_files(tmp_path / "new")
    assert (tmp_path / "new").is_dir()
