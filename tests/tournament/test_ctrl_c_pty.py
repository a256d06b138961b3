"""Ctrl-C of `arena tournament run` in a real terminal (a pseudo-terminal:
the line discipline turns ^C into SIGINT for the foreground process group,
as a shell's terminal does). At every moment of a run — while it plans
(the store open, nothing printed yet), at the first output, as each pool
worker appears, while a worker is being started, with a match in play,
with matches finished, and twice in a row — the run stops with exit status
130, the output has no traceback and no "Exception ignored", only the one
last line, the matches finished before are still stored, and the next run
resumes and completes the tournament.

The moments are events seen from outside (the output, the processes in
/proc), not times: under load the command's start alone can take longer
than any fixed delay."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import ARENA

from .folders import random_tournament
from .terminal import (
    SLOW_SPAWN,
    Moment,
    bot_running,
    finished,
    store_open,
    tournament_stops_cleanly,
    workers,
)

pytestmark = [pytest.mark.slow, pytest.mark.serial]


def tournament(tmp_path: Path) -> Path:
    if not Path(ARENA[0]).exists():
        pytest.skip(f"no {ARENA[0]} (scripts/setup.sh makes it)")
    return random_tournament(tmp_path, "cc", sets=2, deals=3)


def test_ctrl_c_is_clean_every_time(tmp_path: Path) -> None:
    folder = tournament(tmp_path)
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(SLOW_SPAWN)

    def worker_being_started(n: int) -> tuple[Moment, dict[str, str]]:
        # The sitecustomize writes the worker's pid, then waits 0.3 s before
        # handing it its preparation data: the ^C comes in that wait.
        slowed = tmp_path / f"slowed-{n}"
        env = {"PYTHONPATH": str(slow), "ARENA_TEST_SLOW_SPAWN": str(slowed)}
        return (lambda out, pid: slowed.exists() and bool(slowed.read_text().split())), env

    slowed_1, slow_env_1 = worker_being_started(1)
    slowed_2, slow_env_2 = worker_being_started(2)
    tournament_stops_cleanly(folder, [
        ("while the run plans", store_open(folder / "tournament.sqlite"), False, None),
        ("at the first output", lambda out, pid: bool(out), False, None),
        ("as the first worker appears", workers(1), False, None),
        ("as the second worker appears", workers(2), False, None),
        ("while a worker is being started", slowed_1, False, slow_env_1),
        ("while a worker is being started, again", slowed_2, False, slow_env_2),
        ("with a match in play", bot_running, False, None),
        ("with a match finished", finished(1), False, None),
        ("twice, while the run stops", workers(2), True, None),
        ("as the first worker appears, again", workers(1), False, None),
        ("with matches finished", finished(3), False, None),
    ])


def test_ctrl_c_of_a_dask_local_run_is_clean_every_time(tmp_path: Path) -> None:
    # Dask's LocalCluster: worker processes with a nanny each, a scheduler,
    # and each worker's match process; none of them may print on the way out.
    folder = tournament(tmp_path)
    tournament_stops_cleanly(folder, [
        ("at the first output", lambda out, pid: bool(out), False, None),
        ("as the Dask workers appear", workers(2), False, None),
        ("with a match in play", bot_running, False, None),
        ("with a match finished", finished(1), False, None),
        ("twice, with a match in play", bot_running, True, None),
    ], "--dask", "local")
