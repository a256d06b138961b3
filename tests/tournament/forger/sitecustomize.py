"""A forging Dask worker, for tests only: put this folder on PYTHONPATH of
an `arena worker` and Python runs it as the interpreter starts. Every
match the worker plays comes back with seat 0's total raised by 10 (its
replay as played): a result it did not honestly play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arena.tournament.executors import dask_executor

_played = dask_executor._cluster_task


def _forged(*task: Any) -> Any:
    returned = _played(*task)
    seats = tuple(replace(s, total=s.total + 10) if s.seat == 0 else s
                  for s in returned.result.seats)
    return replace(returned, result=replace(returned.result, seats=seats))


# The coordinator sends the task by name (dask_executor._cluster_task): here it is this one.
dask_executor._cluster_task = _forged  # type: ignore[assignment]
