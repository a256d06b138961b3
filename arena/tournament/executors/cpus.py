"""CPU slots: each match that runs at the same time as others gets CPUs of its own.

A worker that plays matches pins itself (Linux CPU affinity) to one slot;
the referee and the bots it starts inherit the affinity (docker containers
get the same CPUs as their cpuset, arena.sandbox.docker_level). Two reasons:

- Fair clocks: a bot's thinking time is not slowed by the match next to it
  (time limits are wall-clock, docs/protocol.md#time-control).
- Throughput: one match is a ping-pong between four processes. Left free,
  the scheduler spreads it over every core and it keeps about 1.2 cores
  busy, most of the extra spent on cross-core wake-ups; on one core the
  same match takes about the same wall time on 1.0 core of CPU. Two matches
  on two cores then run side by side instead of taking CPU from each other
  (figures: docs/performance.md).

One worker (or affinity not supported) means no slots: the match may use
every core. `cpu_slots = false` in tournament.toml (or `--no-cpu-slots`)
turns slots off; a Dask worker started by hand takes its CPUs from
ARENA_CPUS (docs/tournaments.md).
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger("arena.tournament")
ENV = "ARENA_CPUS"   # a hand-started Dask worker's CPUs (docs/tournaments.md)


def available() -> list[int]:
    """The CPUs this process may run on, in order (all of them off Linux)."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return list(range(os.cpu_count() or 1))


def slots(workers: int, cpus: list[int] | None = None) -> list[tuple[int, ...]]:
    """`workers` CPU sets, as even and as disjoint as the CPUs allow; [] when
    there is nothing to split (one worker, or one CPU).

    With at least as many CPUs as workers every slot is disjoint (the
    remainder goes to the first slots); with more workers than CPUs, slots
    take the CPUs in turn, so each CPU carries the same number of workers."""
    cpus = available() if cpus is None else sorted(cpus)
    if workers <= 1 or len(cpus) <= 1:
        return []
    if workers >= len(cpus):
        return [(cpus[i % len(cpus)],) for i in range(workers)]
    size, extra = divmod(len(cpus), workers)
    out: list[tuple[int, ...]] = []
    start = 0
    for i in range(workers):
        end = start + size + (1 if i < extra else 0)
        out.append(tuple(cpus[start:end]))
        start = end
    return out


def server_split(workers: int, cpus: list[int] | None = None
                 ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """For a server that also plays matches (`arena ladder serve`): one CPU
    of its own for the server, and `workers` slots on the others, so that
    readers of its pages never take a bot's CPU and slow its clock; ((),
    slots(workers)) when there is no CPU to spare (as many workers as CPUs)."""
    cpus = available() if cpus is None else sorted(cpus)
    if workers < 1 or len(cpus) <= workers:
        return (), slots(workers, cpus)
    server, rest = (cpus[0],), cpus[1:]
    return server, ([tuple(rest)] if workers == 1 else slots(workers, rest))


def pin_process(cpus: tuple[int, ...]) -> bool:
    """Run every thread of this process, and what they start from now on,
    on `cpus` (Linux affinity is per thread). False, with a warning, where
    that is not possible."""
    try:
        for task in os.listdir("/proc/self/task"):
            os.sched_setaffinity(int(task), cpus)
        return True
    except (AttributeError, OSError, ValueError) as exc:
        log.warning("could not pin to CPUs %s: %s", cpus, exc)
        return False


def parse(text: str) -> tuple[int, ...]:
    """A CPU list as Linux writes it ("0-3,6"); ValueError on anything else."""
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        lo = int(first)
        hi = int(last) if last else lo
        if lo < 0 or hi < lo:
            raise ValueError(f"bad CPU range {part!r} in {text!r}")
        out.update(range(lo, hi + 1))
    if not out:
        raise ValueError(f"no CPU in {text!r}")
    return tuple(sorted(out))


def from_env(environ: dict[str, str] | None = None) -> tuple[int, ...] | None:
    """ARENA_CPUS ("0-3,6") as a CPU set, None if unset; ValueError if it does not parse."""
    text = (os.environ if environ is None else environ).get(ENV, "").strip()
    return parse(text) if text else None


def pin(cpus: tuple[int, ...]) -> bool:
    """Run the calling thread, and every thread and process it starts from
    now on, on `cpus` (Linux affinity is per thread: call this first thing
    in a fresh process, before it starts threads). False, with a warning,
    where that is not possible."""
    try:
        os.sched_setaffinity(0, cpus)
        return True
    except (AttributeError, OSError, ValueError) as exc:
        log.warning("could not pin to CPUs %s: %s", cpus, exc)
        return False
