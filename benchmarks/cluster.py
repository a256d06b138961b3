"""Tournaments on a Dask cluster of `arena worker` processes: scaling and
the cluster's overhead, real processes on loopback.

The same tournament (three random bots, N duplicate sets; the six seat
orders of a set share its deals and are played one at a time) is played
by the local pool with 2 workers, and through a real `dask scheduler` by
1 and by 2 `arena worker` processes, each in a folder of its own (bots
shipped by content hash, every result re-played before it is stored).
Reported, per round, in one run:

- the rate of each, and the ratio Dask 2 workers / Dask 1 worker (goal
  >= 1.8; the local pool's 2/1 is in benchmarks/tournament.py);
- the coordinator's CPU seconds per match on the cluster (submitting,
  checking each worker, packing the bots, re-playing and writing each
  result): its share of a match's wall time is the cluster's overhead
  (goal <= 5%), and match time / that CPU is how many single-match workers
  one coordinator core can feed;
- the re-play of a result alone (honest.check), timed on the stored replays;
- with --chaos, a run on 2 workers of which one (a seeded draw) is killed
  with kill -9 every 20-40 s and restarted at once, for the whole run: the
  matches lost and the results that differ from the fault-free run's.

    .venv/bin/python benchmarks/cluster.py [--sets 2] [--max-deals N] [--rounds 2] [--chaos]
    .venv/bin/python benchmarks/cluster.py --rounds 0 --chaos --sets 12   # a long chaos run alone
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.tournament.executors import honest
from arena.tournament.executors.dask_executor import DaskExecutor
from arena.tournament.executors.local import Executor, LocalPool
from arena.tournament.plan.config import load_config
from arena.tournament.plan.registry import bot_spec
from arena.tournament.run import coordinator
from arena.tournament.store import Store

ROOT = Path(__file__).resolve().parents[1]
RANDOM = ROOT / "sample_bots" / "random"
ARENA = Path(sys.executable).with_name("arena")


def make_tournament(folder: Path, sets: int, max_deals: int | None) -> Path:
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
        f'replays = true\nbootstrap = 0\nbots = [{listed}]\n'
        '[rules]\npreset = "standard"\n'
        + (f"max_deals = {max_deals}\n" if max_deals else "")
        + '[time_control]\nper_move = 5.0\nbank = 60.0\nstartup = 60.0\n')
    return folder


class Cluster:
    """A scheduler on 127.0.0.1 and `arena worker` processes, each in its own folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True)
        file = folder / "scheduler.json"
        self.procs = [self._start([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                   "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--dashboard-address", "127.0.0.1:0",
                                   "--scheduler-file", str(file)], folder, "scheduler")]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.address = str(json.loads(file.read_text())["address"])
                break
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        else:
            raise SystemExit("the scheduler did not start")

    def _start(self, argv: list[str], cwd: Path, name: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - the process keeps it
        return subprocess.Popen(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def worker(self, name: str) -> subprocess.Popen[bytes]:
        home = self.folder / name
        home.mkdir(exist_ok=True)
        proc = self._start([str(ARENA), "worker", "--scheduler", self.address, "--name", name],
                           home, name)
        self.procs.append(proc)
        return proc

    def close(self) -> list[int]:
        """Stop the scheduler and workers; the pids of processes still working
        in the cluster's folders 20 s after (a worker's match or its bots)."""
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        deadline = time.monotonic() + 20
        while (left := self._working_here()) and time.monotonic() < deadline:
            time.sleep(0.2)
        return left

    def _working_here(self) -> list[int]:
        root, out = str(self.folder), []
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    if os.readlink(f"/proc/{entry}/cwd").startswith(root):
                        out.append(int(entry))
                except OSError:
                    continue
        return out


def measure(folder: Path, executor: Executor) -> tuple[int, float, float]:
    """Matches played, wall seconds and this process's CPU seconds, from the
    first match handed out to the last stored (workers warmed first)."""
    config = load_config(folder)
    executor.warm()
    with Store(config.store_path) as store:
        start, cpu, machine = time.perf_counter(), time.process_time(), _machine_cpu()
        summary = coordinator.run(config, store, lambda: executor)
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        busy, total = (b - a for a, b in zip(machine, _machine_cpu(), strict=True))
    if summary.failed:
        raise SystemExit(f"{summary.failed} matches failed: {summary.errors[0]}")
    # The machine's busy share in the run: a run that keeps every core busy
    # already cannot be sped up by more workers on this machine.
    print(f"    machine busy {busy / total:.0%} of its {os.cpu_count()} CPUs "
          f"(this benchmark's runs and whatever else runs here)")
    return summary.played, elapsed, used


def _machine_cpu() -> tuple[int, int]:
    """(busy, all) jiffies of every CPU so far, from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def recheck(folder: Path) -> tuple[int, float]:
    """Re-play every stored result against its replay (honest.check): how
    many and the seconds they took together."""
    config = load_config(folder)
    with Store(config.store_path) as store:
        bots = {b.id: bot_spec(b, Path(config.root)) for b in store.bots()}
        rows = [r for r in store.matches() if r.result is not None]
        specs = [(coordinator.match_spec(config, r, bots), r.result) for r in rows]  # type: ignore[arg-type]
    start = time.perf_counter()
    for spec, result in specs:
        assert result is not None
        text = Path(result.replay_path).read_text()
        honest.check(spec, honest.Returned(result, text))
    return len(specs), time.perf_counter() - start


def cluster_run(tmp: Path, folder: Path, workers: int) -> tuple[int, float, float]:
    cluster = Cluster(tmp / f"cluster-{folder.name}")
    try:
        for i in range(workers):
            cluster.worker(f"w{i}")
        executor = DaskExecutor(cluster.address, 0, quiet=True)
        deadline = time.monotonic() + 60
        while executor.workers < workers and time.monotonic() < deadline:
            time.sleep(0.5)
            executor.workers = len(executor._gate.admit())
        try:
            out = measure(folder, executor)
            print(f"    matches by worker: {sorted(executor.played_by.values())}")
            return out
        finally:
            executor.close()
    finally:
        cluster.close()


def results(folder: Path) -> dict[str, object]:
    """Each finished match's outcome (finish, deals, seats' totals, places,
    statuses and faults), without times and paths."""
    config = load_config(folder)
    with Store(config.store_path) as store:
        return {r.match_id: (r.result.finish, r.result.deals,
                             [(x.bot, x.total, x.place, x.status, x.faults)
                              for x in r.result.seats])
                for r in store.matches() if r.status == "finished" and r.result is not None}


def chaos_run(tmp: Path, folder: Path, reference: Path, seed: int = 1) -> None:
    """Two workers, one of them killed with kill -9 every 20-40 s (chosen
    by a seeded draw) and restarted at once, for the whole run; then the
    stored results against the fault-free run's."""
    import random
    import threading

    draw = random.Random(seed)
    cluster = Cluster(tmp / "cluster-chaos")
    workers = {f"w{i}": cluster.worker(f"w{i}") for i in range(2)}
    kills: list[float] = []
    done = threading.Event()

    def chaos() -> None:
        start = time.monotonic()
        while not done.wait(draw.uniform(20, 40)):
            name = draw.choice(sorted(workers))
            os.kill(workers[name].pid, signal.SIGKILL)  # the worker alone: its match must end
            workers[name].wait()
            kills.append(time.monotonic() - start)
            workers[name] = cluster.worker(name)

    executor = DaskExecutor(cluster.address, 0, quiet=True)
    thread = threading.Thread(target=chaos, daemon=True)
    try:
        config = load_config(folder)
        thread.start()
        with Store(config.store_path) as store:
            start = time.perf_counter()
            summary = coordinator.run(config, store, lambda: executor)
            elapsed = time.perf_counter() - start
    finally:
        done.set()
        thread.join()
        executor.close()
        left = cluster.close()
    mine, theirs = results(folder), results(reference)
    lost = len(theirs) - len(mine)
    differ = sum(1 for k in theirs if mine.get(k) != theirs[k])
    print(f"  chaos: {len(kills)} workers killed (at {', '.join(f'{t:.0f}' for t in kills)} s)"
          f" in {elapsed:.0f} s; {summary.finished}/{summary.planned} finished, "
          f"{summary.failed} failed this run; {lost} lost, {differ} results differ from the "
          f"fault-free run's ({len(theirs)} matches; the store keeps one result per match: "
          "none counted twice); processes of the cluster left running after: "
          f"{len(left)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=2,
                        help="duplicate sets (6 matches each, one at a time per set)")
    parser.add_argument("--max-deals", type=int, default=None,
                        help="deal cap (default: the preset's, whole games)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of the three runs (0 with --chaos: the chaos run alone, "
                        "against the local pool's results)")
    parser.add_argument("--chaos", action="store_true",
                        help="then a run on 2 workers, one killed every 20-40 s and restarted")
    args = parser.parse_args()
    print(f"benchmark: real matches (referee + 3 random-bot processes, process sandbox), "
          f"{args.sets} sets, " + (f"at most {args.max_deals} deals" if args.max_deals
                                   else "whole games") +
          f"; {os.cpu_count()} CPUs visible, load average {os.getloadavg()[0]:.1f}")
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-cluster-"))
    ratios, shares, feeds, checks = [], [], [], []
    try:
        for r in range(args.rounds):
            rates: dict[str, float] = {}
            runs = [("local pool, 2 workers", 0), ("dask, 1 arena worker", 1),
                    ("dask, 2 arena workers", 2)]
            for k in range(len(runs)):
                label, n = runs[(k + r) % len(runs)]
                folder = make_tournament(tmp / f"r{r}-{n}", args.sets, args.max_deals)
                if n == 0:
                    played, elapsed, used = measure(folder, LocalPool(2))
                else:
                    played, elapsed, used = cluster_run(tmp, folder, n)
                rates[label] = played / elapsed * 60
                per_match = elapsed * max(1, n) / played  # a worker's wall seconds per match
                print(f"  round {r + 1}: {label:24s} {played:3d} matches in {elapsed:6.1f} s ="
                      f" {rates[label]:6.1f}/min; coordinator CPU {used / played * 1000:6.1f} ms"
                      f" per match")
                if n:
                    shares.append(used / played / per_match)
                    feeds.append(per_match / (used / played))
                    count, seconds = recheck(folder)
                    checks.append(seconds / count / per_match)
            ratios.append(rates["dask, 2 arena workers"] / rates["dask, 1 arena worker"])
        if ratios:
            print(f"dask 2 workers / 1 worker: {', '.join(f'{x:.2f}x' for x in ratios)} (goal 1.8x)")
            print(f"coordinator CPU per match / match time: max {max(shares):.1%} (goal <= 5%); "
                  f"one coordinator core feeds about {min(feeds):.0f} workers")
            print(f"re-playing a result alone: max {max(checks):.2%} of its match's time")
        if args.chaos:
            reference = tmp / f"r{args.rounds - 1}-2"
            if not args.rounds:  # --rounds 0: the fault-free results from the local pool
                reference = make_tournament(tmp / "reference", args.sets, args.max_deals)
                measure(reference, LocalPool(2))
            chaos_run(tmp, make_tournament(tmp / "chaos", args.sets, args.max_deals), reference)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
