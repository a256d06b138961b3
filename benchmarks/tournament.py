"""Tournament throughput: matches per minute with random bots, real processes.

Every match is a real one: the referee (gRPC over a unix socket) and three
random-bot processes at the `process` sandbox level. The same tournament
(one table of three random bots, all 6 seat orders, N duplicate sets; the
matches of one set share its deals and are played one at a time) is
played by the local pool with 1 and 2 workers and by a Dask LocalCluster
with 2 workers; the scaling ratio is 2-worker rate / 1-worker rate (goal
>= 1.7 on 2 free cores). Two workers run on CPU slots, as a tournament
does by default (arena.tournament.executors.cpus: each match on its own core); the
local pool with 2 workers and no slots is measured too, to show what the
slots are worth.

By default the matches are whole games of the standard rules, as a
tournament plays them (random bots rarely reach 1000, so most end at the
preset's 200-deal cap: about 6,400 decisions). `--max-deals 6 --target 500`
gives short matches, where starting three Python bots (about 0.25 s of CPU
each, all at once) is most of a match: one match then keeps more than one
core busy and two workers cannot double the rate on two cores.

    .venv/bin/python benchmarks/tournament.py [--sets 2] [--max-deals N] [--target T]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arena.tournament.executors.dask_executor import DaskExecutor
from arena.tournament.executors.local import Executor, LocalPool
from arena.tournament.plan.config import load_config
from arena.tournament.run import coordinator
from arena.tournament.store import Store

ROOT = Path(__file__).resolve().parents[1]
RANDOM = ROOT / "sample_bots" / "random"


def make_tournament(folder: Path, sets: int, max_deals: int | None, goal: int | None) -> Path:
    bots = []
    for name in ("random_1", "random_2", "random_3"):
        target = folder.parent / "bots-src" / name
        if not target.exists():
            shutil.copytree(RANDOM, target, ignore=shutil.ignore_patterns("__pycache__"))
            toml = target / "bot.toml"
            toml.write_text(toml.read_text().replace('name = "random"', f'name = "{name}"'))
        bots.append(target)
    folder.mkdir(parents=True)
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "bench"\nseed = 3\nduplicate_sets = {sets}\nsandbox = "process"\n'
        f'replays = false\nbootstrap = 0\nbots = [{listed}]\n'
        f'[rules]\npreset = "standard"\n'
        + (f"target = {goal}\n" if goal else "")
        + (f"max_deals = {max_deals}\n" if max_deals else "")
        + '[time_control]\nper_move = 5.0\nbank = 60.0\nstartup = 60.0\n')
    return folder


def measure(folder: Path, factory: Callable[[], Executor]) -> tuple[int, float]:
    """Matches played and seconds, from the first match submitted to the
    last stored (worker start-up excluded: the executor is warmed first)."""
    config = load_config(folder)
    executor = factory()
    executor.warm()
    with Store(config.store_path) as store:
        start = time.perf_counter()
        summary = coordinator.run(config, store, lambda: executor)
        elapsed = time.perf_counter() - start
    if summary.failed:
        raise SystemExit(f"{summary.failed} matches failed: {summary.errors[0]}")
    return summary.played, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The six seat orders of a set share its deals, and no two matches on the
    # same deals are played at once (arena/tournament/executors/deal_gate.py): two
    # workers need two sets to run side by side.
    parser.add_argument("--sets", type=int, default=2,
                        help="duplicate sets (6 matches each, one at a time per set)")
    parser.add_argument("--max-deals", type=int, default=None, help="deal cap (default: the preset's)")
    parser.add_argument("--target", type=int, default=None, help="target (default: the preset's, 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the four runs, in turn")
    args = parser.parse_args()
    shape = (f"target {args.target or 1000}, "
             + (f"at most {args.max_deals} deals" if args.max_deals else "whole games (200-deal cap)"))
    print(f"benchmark: real matches (referee + 3 random-bot processes, process sandbox), "
          f"{shape}; {os.cpu_count()} CPUs visible, "
          f"load average {os.getloadavg()[0]:.1f} (other work on the machine skews the ratio)")
    cases: list[tuple[str, Callable[[], Executor]]] = [
        ("local pool, 1 worker", lambda: LocalPool(1)),
        ("local pool, 2 workers", lambda: LocalPool(2)),
        ("dask LocalCluster, 2 workers", lambda: DaskExecutor("local", 2, quiet=True)),
        ("local pool, 2 workers, no slots", lambda: LocalPool(2, pin_cpus=False)),
    ]
    # This machine's speed drifts within minutes: the three runs take turns,
    # starting with a different one each round, and each round gives its own
    # ratios (median, min, max over rounds), not one run set against another
    # taken minutes later.
    pool2: list[float] = []
    dask2: list[float] = []
    free2: list[float] = []
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    try:
        for r in range(args.rounds):
            rates: dict[str, float] = {}
            for k in range(len(cases)):
                label, factory = cases[(k + r) % len(cases)]
                folder = make_tournament(tmp / f"r{r}-{label[:5]}-{k}", args.sets, args.max_deals, args.target)
                played, elapsed = measure(folder, factory)
                rates[label] = played / elapsed * 60
                print(f"  round {r + 1}: {label:30s} {played:3d} matches in {elapsed:6.1f} s = "
                      f"{rates[label]:6.1f} matches/min")
            one = rates["local pool, 1 worker"]
            pool2.append(rates["local pool, 2 workers"] / one)
            dask2.append(rates["dask LocalCluster, 2 workers"] / one)
            free2.append(rates["local pool, 2 workers, no slots"] / one)
            print(f"  round {r + 1}: scaling pool {pool2[-1]:.2f}x, dask {dask2[-1]:.2f}x, "
                  f"pool without CPU slots {free2[-1]:.2f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for label, ratios, goal in (
            ("local pool 2 workers / 1 worker", pool2, "; goal >= 1.7x"),
            ("dask 2 workers / local pool 1 worker", dask2, "; goal >= 1.7x"),
            ("local pool 2 workers without CPU slots / 1 worker", free2, "")):
        print(f"scaling, {label}: median {statistics.median(ratios):.2f}x (min {min(ratios):.2f}x, "
              f"max {max(ratios):.2f}x over {len(ratios)} rounds{goal})")
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
