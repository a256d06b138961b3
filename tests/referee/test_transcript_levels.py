"""The match summary warns when process-level bots played beside confined
ones (docs/sandbox.md: they could reach the others' tokens and sockets)."""

from __future__ import annotations

import pytest

from arena.referee.spec import MatchResult, SeatResult
from arena.referee.transcript import mixed_levels_note, result_lines


def result(*levels: str) -> MatchResult:
    seats = tuple(
        SeatResult(seat=i, bot=f"b{i}", version="1", total=0, place=1, status="ok", decisions=0,
                   time_total=0.0, time_max=0.0, faults=(), sandbox=level)
        for i, level in enumerate(levels))
    return MatchResult(match_id="m", seed=1, seats=seats, deals=(), finish=((0, 1, 2),), duration=1.0)


@pytest.mark.parametrize("levels", [
    ("process", "process", "process"), ("docker", "docker", "bwrap"), ("docker", "none", "docker"),
    ("process", "none", "process"),
])
def test_no_note_when_no_process_level_bot_sits_beside_a_confined_one(levels: tuple[str, ...]) -> None:
    assert mixed_levels_note(result(*levels)) == ""
    assert not any(line.startswith("WARNING:") for line in result_lines(result(*levels)))
    assert result(*levels).sandbox_warning == ""


def test_a_process_level_bot_beside_confined_ones_is_noted() -> None:
    lines = list(result_lines(result("process", "docker", "bwrap")))
    notes = [line for line in lines if line.startswith("WARNING:")]
    assert notes == [result("process", "docker", "bwrap").sandbox_warning]
    assert notes[0].startswith("WARNING: sandbox levels are mixed (bwrap, docker, process)")
