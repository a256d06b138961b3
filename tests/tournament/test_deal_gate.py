"""No two matches on the same deals at once (arena/tournament/executors/deal_gate.py).

The seat orders of a duplicate table share a deal seed and seat the same
bots; played at the same time, a bot's two instances hold different hands
of one deal and can tell each other theirs (tests/sandbox/test_twin_instances.py
shows it with real bots). The executors start a match only when none on its
deal seed is in flight."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from arena.referee.spec import MatchResult, MatchSpec
from arena.tournament.executors.dask_executor import DaskExecutor
from arena.tournament.executors.deal_gate import DealGate, interleave
from arena.tournament.executors.local import LocalPool


def _spec(match_id: str, seed: int, work: str = "") -> MatchSpec:
    return MatchSpec(match_id=match_id, bots=(), seed=seed, work_dir=work)


def test_a_match_waits_while_one_on_its_deals_is_in_flight() -> None:
    gate = DealGate([_spec("a1", 1), _spec("b1", 2), _spec("a2", 1), _spec("c1", 3)])
    a1, b1 = gate.take(), gate.take()
    assert (a1 and a1.match_id, b1 and b1.match_id) == ("a1", "b1")
    assert gate.take() is None and not gate.drained    # a2 waits for a1, c1 behind it
    gate.finished(b1)  # type: ignore[arg-type]
    assert gate.take() is None                          # still a1's deals
    gate.finished(a1)  # type: ignore[arg-type]
    a2, c1 = gate.take(), gate.take()
    assert (a2 and a2.match_id, c1 and c1.match_id) == ("a2", "c1")
    assert gate.take() is None and gate.drained


def test_the_gate_reads_one_match_ahead_at_most() -> None:
    pulled: list[str] = []

    def source():  # a feed may stop at any match (a gauntlet's decided test)
        for i in range(100):
            pulled.append(f"m{i}")
            yield _spec(f"m{i}", 7)

    gate = DealGate(source())
    assert gate.take() is not None
    assert gate.take() is None and gate.take() is None
    assert pulled == ["m0", "m1"]


def test_interleave_takes_the_groups_in_turn_and_keeps_each_groups_order() -> None:
    items = ["a1", "a2", "a3", "b1", "b2", "c1"]
    assert interleave(items, lambda x: x[0], 3) == ["a1", "b1", "c1", "a2", "b2", "a3"]
    # `width` groups at a time: the tables still finish batch after batch.
    assert interleave(items, lambda x: x[0], 2) == ["a1", "b1", "a2", "b2", "a3", "c1"]
    assert interleave(items, lambda x: x[0], 1) == items
    assert interleave([], lambda x: x, 2) == []


def overlap_runner(spec: MatchSpec) -> MatchResult:
    """A match that marks its deal seed busy in `work_dir` while it runs and
    fails if another match on the same seed is running (O_EXCL: no clock
    decides it)."""
    marker = Path(spec.work_dir) / f"seed-{spec.seed}"
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        raise RuntimeError(f"{spec.match_id}: another match on seed {spec.seed} is running") from None
    try:
        time.sleep(0.2)
    finally:
        os.close(fd)
        marker.unlink()
    return MatchResult(match_id=spec.match_id, seed=spec.seed, seats=(), deals=(), finish=(),
                       duration=0.2)


def _specs(work: Path) -> list[MatchSpec]:
    # Two sets of one table: six seat orders on each deal seed, in plan order
    # (not interleaved: the gate alone must keep them apart).
    return [_spec(f"s{s}-o{o}", 1000 + s, str(work)) for s in range(2) for o in range(6)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["local", "dask"])
def test_executors_never_play_two_matches_on_the_same_deals_at_once(
        tmp_path: Path, kind: str) -> None:
    executor = (LocalPool(2, overlap_runner, pin_cpus=False) if kind == "local"
                else DaskExecutor("local", 2, overlap_runner, quiet=True, pin_cpus=False,
                                  check=False))
    try:
        outcomes = list(executor.play(_specs(tmp_path)))
    finally:
        executor.close()
    assert sorted(o.match_id for o in outcomes) == sorted(s.match_id for s in _specs(tmp_path))
    assert [o.error for o in outcomes if o.error] == []
