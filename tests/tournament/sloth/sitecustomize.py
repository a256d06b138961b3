"""A hung Dask worker, for tests only: put this folder on PYTHONPATH of an
`arena worker` and every match it is given waits forever before it is
played (a worker that takes matches and never answers)."""

from __future__ import annotations

import time
from typing import Any

from arena.tournament.executors import dask_executor


def _hung(*task: Any) -> Any:
    import distributed

    worker = distributed.get_worker()  # it says it started, as an honest one does
    worker.log_event(dask_executor.START_TOPIC, {"key": str(worker.get_current_task())})
    while True:
        time.sleep(60)


# The coordinator sends the task by name (dask_executor._cluster_task): here it is this one.
dask_executor._cluster_task = _hung  # type: ignore[assignment]
