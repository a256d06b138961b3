"""CPU slots: how the CPUs are split, and that pool workers, Dask match
processes and what they start really run on their slot."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from itertools import combinations

import pytest

from arena.tournament.executors import cpus
from arena.tournament.executors.dask_executor import DaskExecutor
from arena.tournament.executors.local import LocalPool


@pytest.mark.parametrize("workers, n", [(2, 2), (2, 3), (3, 8), (4, 4), (5, 16), (2, 64)])
def test_slots_are_disjoint_even_and_cover_the_cpus(workers: int, n: int) -> None:
    given = list(range(100, 100 + n))  # any CPU numbers, not only 0..n-1
    slots = cpus.slots(workers, given)
    assert len(slots) == workers
    for a, b in combinations(slots, 2):
        assert not set(a) & set(b)
    assert sorted(c for s in slots for c in s) == given
    assert max(map(len, slots)) - min(map(len, slots)) <= 1


def test_more_workers_than_cpus_share_them_evenly() -> None:
    slots = cpus.slots(5, [0, 1])
    assert slots == [(0,), (1,), (0,), (1,), (0,)]


def test_one_worker_or_one_cpu_means_no_slots() -> None:
    assert cpus.slots(1, [0, 1, 2, 3]) == []
    assert cpus.slots(4, [7]) == []


def test_a_server_that_plays_gets_a_cpu_of_its_own_when_one_is_spare() -> None:
    assert cpus.server_split(1, [0, 1]) == ((0,), [(1,)])
    assert cpus.server_split(1, [4, 5, 6]) == ((4,), [(5, 6)])
    assert cpus.server_split(2, [0, 1, 2, 3, 4]) == ((0,), [(1, 2), (3, 4)])
    # No CPU to spare: the matches' slots as ever, the server shares.
    assert cpus.server_split(2, [0, 1]) == ((), [(0,), (1,)])
    assert cpus.server_split(1, [0]) == ((), [])


@pytest.mark.slow
def test_a_pool_on_given_slots_and_a_process_pinned_whole() -> None:
    if len(cpus.available()) < 2:
        pytest.skip("one CPU here")
    server, slots = cpus.server_split(1)
    pool = LocalPool(1, slots=slots)
    try:
        own, child = pool._pool.submit(_where, 0.0).result()
    finally:
        pool.close()
    assert own == child == list(slots[0]) and not set(own) & set(server)
    with pytest.raises(ValueError, match="2 CPU slots for 1 workers"):
        LocalPool(1, slots=[(0,), (1,)])
    # pin_process moves every thread of a process, those started before too.
    script = ("import os, threading, time\n"
              "from arena.tournament.executors import cpus\n"
              "t = threading.Thread(target=time.sleep, args=(2,)); t.start()\n"
              f"assert cpus.pin_process({server!r})\n"
              "print(*sorted({c for task in os.listdir('/proc/self/task') "
              "for c in os.sched_getaffinity(int(task))}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert [int(c) for c in out.stdout.split()] == list(server)


def test_cpu_lists_parse_as_linux_writes_them() -> None:
    assert cpus.parse("0-3,6") == (0, 1, 2, 3, 6)
    assert cpus.parse(" 5 ") == (5,)
    assert cpus.from_env({"ARENA_CPUS": "2,1"}) == (1, 2)
    assert cpus.from_env({}) is None
    for bad in ("", "x", "3-1", "-1", "1,,a"):
        with pytest.raises(ValueError):
            cpus.parse(bad)


def _where(delay: float) -> tuple[list[int], list[int]]:
    """In a worker: its own CPUs, and those of a process it starts (as a bot is)."""
    time.sleep(delay)  # hold the worker, so the next task goes to the other one
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(*sorted(os.sched_getaffinity(0)))"],
        capture_output=True, text=True, check=True)
    return sorted(os.sched_getaffinity(0)), [int(c) for c in child.stdout.split()]


def _expected_two() -> list[list[int]]:
    slots = cpus.slots(2)
    return sorted(sorted(s) for s in slots) if slots else [cpus.available()] * 2


@pytest.mark.slow
def test_each_pool_worker_and_what_it_starts_runs_on_its_own_slot() -> None:
    pool = LocalPool(2)
    try:
        pool.warm()
        futures = [pool._pool.submit(_where, 3.0) for _ in range(2)]
        seen = [f.result() for f in futures]
    finally:
        pool.close()
    assert sorted(own for own, _ in seen) == _expected_two()
    assert all(own == child for own, child in seen)


@pytest.mark.slow
def test_without_slots_a_pool_worker_may_use_every_cpu() -> None:
    pool = LocalPool(2, pin_cpus=False)
    try:
        own, child = pool._pool.submit(_where, 0.0).result()
    finally:
        pool.close()
    assert own == child == cpus.available()


@pytest.mark.slow
def test_each_dask_worker_plays_on_its_own_slot() -> None:
    from arena.tournament.executors.dask_executor import _in_match_process

    executor = DaskExecutor("local", 2, quiet=True)
    try:
        executor.warm()
        client = executor._client
        workers = list(client.scheduler_info()["workers"])
        futures = [client.submit(_in_match_process, _where, 0.5, workers=[w], pure=False)
                   for w in workers]
        seen = [f.result() for f in futures]
    finally:
        executor.close()
    assert sorted(own for own, _ in seen) == _expected_two()
    assert all(own == child for own, child in seen)


class _Worker:
    def __init__(self, name: object) -> None:
        self.name = name


def test_dask_workers_take_their_slot_by_name_else_from_arena_cpus(monkeypatch) -> None:
    from arena.tournament.executors import dask_executor

    monkeypatch.setattr(dask_executor, "_SLOT", None)  # restored after the test
    plugin = dask_executor._MatchProcessPlugin([(0,), (1,)])
    plugin.setup(_Worker(1))
    assert dask_executor._SLOT == (1,)
    monkeypatch.setenv("ARENA_CPUS", "2-3")
    dask_executor._MatchProcessPlugin([]).setup(_Worker("tcp://10.0.0.9:4000"))
    assert dask_executor._SLOT == (2, 3)
    monkeypatch.setenv("ARENA_CPUS", "three")
    dask_executor._MatchProcessPlugin([]).setup(_Worker("w0"))
    assert dask_executor._SLOT is None  # a bad value is ignored (with a warning), not fatal
    monkeypatch.delenv("ARENA_CPUS")
    dask_executor._MatchProcessPlugin().setup(_Worker(0))
    assert dask_executor._SLOT is None
