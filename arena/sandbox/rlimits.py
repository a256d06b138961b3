"""rlimits applied to a bot from its first instruction (process and bwrap levels).

The launcher runs no Python between fork and exec: a `preexec_fn` in a
process with running threads (the referee's gRPC threads) can deadlock or
abort the child (the subprocess docs warn of it; we saw a bot die with
SIGABRT before connecting). Instead the child execs a tiny prelude: `sh`
writes its own pid into the bot's cgroup, execs util-linux `prlimit`, which
sets the limits on itself and execs the bot. Where `prlimit` is missing the
limits fall back to `apply` as a preexec_fn.

RLIMIT_DATA rather than RLIMIT_AS: V8 (Node.js) and glibc reserve large
PROT_NONE address ranges that AS would count, DATA counts only writable
private memory, i.e. what a memory hog really takes.

RLIMIT_NPROC is per real uid and is not enforced for root at all, so it is
set only when the bot runs under a uid of its own (bwrap level); elsewhere
the pids watchdog (see process.py) does that job.
"""

from __future__ import annotations

import resource
import shutil

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


# Names of util-linux prlimit's options, by resource.
_PRLIMIT_OPTION = {
    resource.RLIMIT_CPU: "--cpu", resource.RLIMIT_DATA: "--data", resource.RLIMIT_NOFILE: "--nofile",
    resource.RLIMIT_FSIZE: "--fsize", resource.RLIMIT_CORE: "--core", resource.RLIMIT_NPROC: "--nproc",
}
# $1 = how many cgroup.procs files follow; each gets the shell's pid (which
# the bot keeps: exec keeps the pid); then exec the rest of the arguments.
_JOIN_THEN_EXEC = (
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; shift; n=$((n - 1)); done; '
    'exec "$@"'
)


def _limit(value: int) -> str:
    return "unlimited" if value == resource.RLIM_INFINITY else str(value)


def exec_prefix(table: list[tuple[int, tuple[int, int]]], cgroup_procs: tuple[str, ...] = ()) -> list[str] | None:
    """The argv to put before a bot's command so that it starts limited and
    inside its cgroup, or None where `prlimit` is not installed."""
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        return None
    args = [prlimit, *(f"{_PRLIMIT_OPTION[res]}={_limit(soft)}:{_limit(hard)}" for res, (soft, hard) in table), "--"]
    if not cgroup_procs:
        return args
    return ["/bin/sh", "-c", _JOIN_THEN_EXEC, "arena-start", str(len(cgroup_procs)), *cgroup_procs, *args]
