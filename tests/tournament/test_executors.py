"""Real worker processes: the spawn pool and a Dask LocalCluster give the same
results as an in-process run, and a SIGKILLed runner resumes exactly."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena.tournament.executors.dask_executor import DaskExecutor
from arena.tournament.executors.local import LocalPool
from arena.tournament.plan.config import load_config
from arena.tournament.run import coordinator
from arena.tournament.store import Store
from tournament import tournament_fakes
from tournament.inline import rows_json, run
from tournament.tournament_fakes import fake_run_match

HERE = Path(__file__).parent.parent  # tests/, so `tournament.*` imports


@pytest.fixture
def five(make_bot) -> list[Path]:
    return [make_bot(f"b{i}", f"strength {i}") for i in range(5)]


def run_with(folder: Path, factory) -> coordinator.RunSummary:
    config = load_config(folder)
    with Store(config.store_path) as store:
        return coordinator.run(config, store, factory)


@pytest.mark.slow
def test_local_pool_1_and_2_workers_give_identical_tables(five, make_tournament) -> None:
    inline = make_tournament(five, name="inline")
    one = make_tournament(five, name="one")
    two = make_tournament(five, name="two")
    run(inline)
    assert run_with(one, lambda: LocalPool(1, fake_run_match)).finished == 60
    summary = run_with(two, lambda: LocalPool(2, fake_run_match))
    assert (summary.finished, summary.failed) == (60, 0)
    assert rows_json(inline) == rows_json(one) == rows_json(two)


@pytest.mark.slow
def test_dask_local_cluster_with_two_workers(five, make_tournament) -> None:
    inline = make_tournament(five, name="inline")
    dask = make_tournament(five, name="dask")
    run(inline)
    executors = []

    def factory() -> DaskExecutor:
        executor = DaskExecutor("local", 2, fake_run_match, quiet=True, check=False)
        executors.append(executor)
        return executor

    summary = run_with(dask, factory)
    assert executors[0].workers == 2
    # The quiet housekeeping settings reached the worker processes.
    import dask as dask_lib

    from arena.tournament.executors.dask_executor import QUIET_WORKER_CONFIG
    probe = DaskExecutor("local", 1, fake_run_match, quiet=True)
    try:
        seen = probe._client.run(lambda: {k: dask_lib.config.get(k) for k in QUIET_WORKER_CONFIG})
    finally:
        probe.close()
    assert list(seen.values()) == [QUIET_WORKER_CONFIG]
    assert (summary.finished, summary.failed) == (60, 0)
    assert rows_json(inline) == rows_json(dask)


def test_pool_reports_a_runner_exception_as_an_outcome(make_bot, make_tournament) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("c", "fail")]
    summary = run_with(make_tournament(bots), lambda: LocalPool(1, fake_run_match))
    assert summary.failed == 6 and "RuntimeError: cannot start c" in summary.errors[0]


RUNNER = """
import sys
sys.path.insert(0, {here!r})
from tournament import tournament_fakes
from tournament.tournament_fakes import fake_run_match
from arena.tournament.run import coordinator
from arena.tournament.plan.config import load_config
from arena.tournament.executors.local import LocalPool
from arena.tournament.store import Store
config = load_config({folder!r})
with Store(config.store_path) as store:
    coordinator.run(config, store, lambda: LocalPool(2, fake_run_match))
"""


def finished(folder: Path) -> int:
    path = folder / "tournament.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM matches WHERE status='finished'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_sigkill_mid_tournament_then_resume_gives_the_same_table(
        make_bot, make_tournament, monkeypatch: pytest.MonkeyPatch) -> None:
    bots = [make_bot(f"b{i}", f"strength {i} sleep 0.1") for i in range(5)]
    whole = make_tournament(bots, name="whole", duplicate_sets=2)
    cut = make_tournament(bots, name="cut", duplicate_sets=2)
    # The bots' 0.1 s a match keeps the killed runner mid-way when it is
    # killed; the in-process runs (here, and the resume below) need not wait
    # it out: 120 matches one after another were 12 s each.
    monkeypatch.setattr(tournament_fakes, "time", SimpleNamespace(sleep=lambda seconds: None))
    run(whole)
    proc = subprocess.Popen([sys.executable, "-c", RUNNER.format(here=str(HERE), folder=str(cut))],
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while finished(cut) < 10 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the runner finished before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)  # the runner and its pool workers
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    done_before = finished(cut)
    assert 10 <= done_before < 120
    summary = run(cut)
    assert summary.finished == 120 and summary.played == 120 - done_before
    assert rows_json(whole) == rows_json(cut)


@pytest.mark.slow
def test_dask_executor_connects_to_a_running_scheduler(five, make_tournament) -> None:
    from distributed import LocalCluster

    inline = make_tournament(five, name="inline")
    remote = make_tournament(five, name="remote")
    run(inline)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      host="127.0.0.1",
                      dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        summary = run_with(remote, lambda: DaskExecutor(address, 0, fake_run_match, quiet=True,
                                                        check=False))
        assert summary.finished == 60
    assert rows_json(inline) == rows_json(remote)


def _whereami(_spec: object) -> tuple[int, int]:
    import multiprocessing

    parent = multiprocessing.parent_process()
    return os.getpid(), parent.pid if parent is not None else -1


@pytest.mark.slow
def test_dask_plays_each_match_in_a_process_beside_the_worker() -> None:
    """A Dask worker hands its matches to one match process of its own
    (the referee's event loop then has a GIL to itself), kept from match to match."""
    from arena.tournament.executors.dask_executor import _in_match_process

    executor = DaskExecutor("local", 1, quiet=True)
    try:
        client = executor._client
        [worker_pid] = client.run(os.getpid).values()
        executor.warm()  # starts the match process: the matches below find it running
        first, second = (client.submit(_in_match_process, _whereami, None, pure=False).result()
                         for _ in range(2))
    finally:
        executor.close()
    assert first == second                 # the same match process, kept
    assert first[0] != worker_pid and first[1] == worker_pid
    # ... and it ends with the cluster: nothing is left behind.
    for _ in range(200):
        try:
            os.kill(first[0], 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    with pytest.raises(ProcessLookupError):
        os.kill(first[0], 0)


def _die_hard(_spec: object) -> None:
    os._exit(3)


@pytest.mark.slow
def test_a_dead_match_process_fails_its_match_only() -> None:
    """A match process that dies takes only its own match with it: the next
    match on that worker gets a new process."""
    from arena.tournament.executors.dask_executor import _in_match_process

    executor = DaskExecutor("local", 1, quiet=True)
    try:
        client = executor._client
        [worker_pid] = client.run(os.getpid).values()
        dead = client.submit(_in_match_process, _die_hard, None, pure=False)
        with pytest.raises(Exception, match="terminated abruptly"):
            dead.result()
        pid, parent = client.submit(_in_match_process, _whereami, None, pure=False).result()
    finally:
        executor.close()
    assert parent == worker_pid and pid != worker_pid
