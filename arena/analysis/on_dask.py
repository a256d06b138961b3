"""A folder's analysis on a Dask cluster: the seats of `arena analyze DIR
--bot NAME --dask ADDRESS` valued by the cluster's workers (`arena
worker`, docs/tournaments.md), each report kept in the folder's cache as
the local run keeps it.

Workers share no files with this machine: each task carries its replay's
text and returns the report's text. A report is a function of the replay,
the seat and the settings alone (the generator of each decision is seeded
from the seat's observation and the analysis seed), so a worker's report
is byte for byte the one this machine would write; only workers that run
this arena (its version and the fingerprint of its engine and referee,
asked of each before anything is sent) are given a task. A worker lost in
the middle costs nothing: Dask gives its task to another (a pure
function: playing it twice changes nothing), and what was kept before a
stop is kept (the cache: run again to resume).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.analysis.errors import AnalysisError
from arena.analysis.matches import Job, Plan, keep
from arena.analysis.replay import Settings, analyse, dumps

CONNECT_SECONDS = 10.0
RETRIES = 3          # a task's workers lost before it fails


def report_text(replay_text: str, name: str, seat: int, settings: Settings) -> str:
    """On a worker: the report of `seat` of the replay whose text is given."""
    from arena.referee.replay import ReplayError, read_replay

    with tempfile.TemporaryDirectory(prefix="arena-analysis-") as scratch:
        path = Path(scratch) / name
        path.write_text(replay_text, encoding="utf-8")
        try:
            return dumps(analyse(read_replay(path), seat, settings))
        except ReplayError as exc:
            raise AnalysisError(str(exc)) from None


def analyse_on(p: Plan, address: str, tls: str = "") -> Iterator[Job]:
    """Every job of `p` not cached yet, valued on the scheduler's workers
    (the caller has checked the address: arena.tournament.scheduler_problem);
    yields each job as its report is kept."""
    import distributed

    from arena.tournament import cluster_security, worker_identity

    dist: Any = distributed  # untyped library

    todo = p.todo()
    if not todo:
        return
    try:
        client: Any = dist.Client(address, timeout=CONNECT_SECONDS, security=cluster_security(tls))
    except (OSError, TimeoutError) as exc:
        raise AnalysisError(f"dask scheduler {address}: cannot connect ({exc})") from None
    try:
        workers = _ours(client, worker_identity)
        futures = {client.submit(report_text, Path(job.replay).read_text(encoding="utf-8"),
                                 Path(job.replay).name, job.seat, p.settings, key=f"analysis-{i}-{job.out}",
                                 workers=workers, allow_other_workers=False, retries=RETRIES): job
                   for i, job in enumerate(todo)}
        for future in dist.as_completed(futures):
            job = futures[future]
            try:
                text = future.result()
            except AnalysisError:
                raise
            except Exception as exc:  # noqa: BLE001 - a worker's failure, said in one line
                raise AnalysisError(f"{job.match_id} seat {job.seat}: the cluster could not "
                                    f"analyse it: {type(exc).__name__}: {exc}") from None
            keep(job, text)
            yield job
    finally:
        client.close()


def _ours(client: Any, identity: Any) -> list[str]:
    """The workers that run this arena (its version, engine and referee)."""
    me = identity()
    answers = client.run(identity)
    ours = [w for w, who in answers.items()
            if who.arena == me.arena and who.engine == me.engine]
    if not ours:
        seen = "; ".join(f"{w}: arena {who.arena}, engine {who.engine[:12]}"
                         for w, who in answers.items()) or "no worker"
        raise AnalysisError(f"no worker of the scheduler runs this arena (arena {me.arena}, "
                            f"engine {me.engine[:12]}): {seen}")
    return ours
