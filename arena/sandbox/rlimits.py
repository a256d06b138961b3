"""rlimits applied in the child between fork and exec (process and bwrap levels).

RLIMIT_DATA rather than RLIMIT_AS: V8 (Node.js) and glibc reserve large
PROT_NONE address ranges that AS would count, DATA counts only writable
private memory, i.e. what a memory hog really takes.

RLIMIT_NPROC is per real uid and is not enforced for root at all, so it is
set only when the bot runs under a uid of its own (bwrap level); elsewhere
the pids watchdog (see process.py) does that job.
"""

from __future__ import annotations

import resource

from arena.sandbox import cgroups
from arena.sandbox.api import Limits

_MB = 1024 * 1024


def rlimit_table(limits: Limits, with_nproc: bool) -> list[tuple[int, tuple[int, int]]]:
    """The (resource, (soft, hard)) pairs for `limits`, computed before fork."""
    cpu = max(1, int(limits.cpu_seconds))
    table = [
        # Soft limit sends SIGXCPU, hard limit one second later SIGKILL.
        (resource.RLIMIT_CPU, (cpu, cpu + 1)),
        (resource.RLIMIT_DATA, (limits.memory_mb * _MB, limits.memory_mb * _MB)),
        (resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)),
        (resource.RLIMIT_FSIZE, (limits.file_size_mb * _MB, limits.file_size_mb * _MB)),
        (resource.RLIMIT_CORE, (0, 0)),
    ]
    if with_nproc:
        table.append((resource.RLIMIT_NPROC, (limits.pids, limits.pids)))
    return [(res, _within_hard(res, pair)) for res, pair in table]


def _within_hard(res: int, pair: tuple[int, int]) -> tuple[int, int]:
    """Never above the current hard limit: only root may raise it, and a
    failing setrlimit between fork and exec would abort the start."""
    _, hard = resource.getrlimit(res)
    if hard == resource.RLIM_INFINITY:
        return pair
    return (min(pair[0], hard), min(pair[1], hard))


def apply(table: list[tuple[int, tuple[int, int]]], cgroup_procs: tuple[str, ...] = ()) -> None:
    """Set every limit and join the bot's cgroup; runs in the forked child
    between fork and exec, so it only makes system calls (no locks, no imports)."""
    for res, pair in table:
        resource.setrlimit(res, pair)
    cgroups.join(cgroup_procs)
