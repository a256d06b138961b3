"""Fair clocks: how much thinking time a burning bot takes from the seat that decides.

    .venv/bin/python benchmarks/fairness.py [--levels docker,bwrap,process] [--deals 3]
        [--cost-ms 30] [--repeats 3] [--cost-deals 20] [--cpu N] [--rounds 1]

The benchmark process (and so the referee, the bots and their containers,
arena.sandbox.docker_level) is pinned to one core, as a tournament's CPU
slots pin a match (arena/tournament/executors/cpus.py). At every level present, in
the same run:

1. **Victim**: a bot that spends a calibrated `--cost-ms` of CPU on every
   decision (benchmarks/fairness_bots/victim) plays a first-legal bot and
   either a second one ("quiet") or a burner that spins four threads all the
   time ("burner"), with pondering allowed ("on") and not ("off"), the four
   tables one after another `--repeats` times (interleaved, so that a change
   in the machine's load falls on all four). Printed from the replays: the
   victim's decision times on the referee's clock (mean, median, worst) and
   its CPU per decision (its cgroup), the CPU the seat beside it (the
   burner, or a first-legal bot) used during each of the victim's decisions
   (the burner's cgroup: what it took, whatever the machine's load), and the
   ratios burner / quiet of the same pondering setting. Goal: at most 1.05x
   with pondering off.
2. **Cost**: three first-legal bots, `--cost-deals` deals, pondering on,
   then off with each freezer mechanism the level has here (ARENA_FREEZER).
   The referee's freeze and thaw calls (arena.referee.pondering._switch,
   timed in this process) per decision, in CPU time of the referee's thread
   and in wall time, against the referee's own per-decision cost (its game
   loop over the decisions, pondering on, CPU and wall) of the same run.
   Goal: under 5%. The wall time of a call also holds the bot's own work
   that the call sets off (on one core, a thawed bot runs at once, before
   the referee writes its request) and, on this shared machine, other
   processes that preempt the referee; the CPU time is the referee's.

No assertions: figures to read (docs/performance.md keeps them). The machine
is shared: run it several times and read ranges, not one number.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.manifest import BotSpec
from arena.referee import GameLoop, MatchSpec, TimeControl, pondering, run_match
from arena.referee.spec import MatchResult
from arena.sandbox import available_levels, freezer
from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parent
BOTS = ROOT / "fairness_bots"


def work(loops: int) -> int:
    """The victim's loop (benchmarks/fairness_bots/victim/bot.py), for calibration."""
    x = 0
    for i in range(loops):
        x = (x * 31 + i) & 0xFFFF
    return x


def calibrate(cost_ms: float) -> int:
    """Loops of `work` that take `cost_ms` of CPU here (the best of a few tries)."""
    loops = 100_000
    best = min(_cpu_of(loops) for _ in range(5))
    return max(1, int(loops * cost_ms / 1000 / best))


def _cpu_of(loops: int) -> float:
    t = time.process_time()
    work(loops)
    return time.process_time() - t


def bots(work_dir: Path, loops: int) -> dict[str, BotSpec]:
    """The victim with its cost, a plain first-legal bot (the victim with no
    cost) and the burner, copied where the cost file can be written."""
    out = {}
    for name, source, cost in (("victim", "victim", loops), ("plain", "victim", 0),
                               ("burner", "burner", None)):
        folder = work_dir / name
        shutil.copytree(BOTS / source, folder)
        if cost is not None:
            (folder / "cost.txt").write_text(str(cost))
        if name == "plain":
            toml = (folder / "bot.toml").read_text().replace('name = "victim"', 'name = "plain"')
            (folder / "bot.toml").write_text(toml)
        out[name] = load_bot(folder)
    return out


class Timer:
    """Wall and thread CPU time of the referee's freeze/thaw calls and game loops."""

    def __init__(self) -> None:
        self.switch = [0.0, 0.0]  # wall, CPU
        self.play = [0.0, 0.0]
        self.calls: list[float] = []   # wall time of each call
        # CPU seconds seat 1 (the burner) used while seat 0 (the victim) decided.
        self.stolen = 0.0
        self._mark: float | None = None

    @contextmanager
    def installed(self) -> Iterator[None]:
        switch = pondering._switch
        play = GameLoop.play

        def timed_switch(*args: Any) -> None:
            t, c = time.perf_counter(), time.thread_time()
            try:
                switch(*args)
            finally:
                spent = time.perf_counter() - t
                self.switch[0] += spent
                self.switch[1] += time.thread_time() - c
                self.calls.append(spent)

        async def timed_play(this: Any) -> Any:
            t, c = time.perf_counter(), time.thread_time()
            try:
                return await play(this)
            finally:
                self.play[0] += time.perf_counter() - t
                self.play[1] += time.thread_time() - c  # the loop's thread: the referee's own

        turn, answered = pondering.Pacer.turn, pondering.Pacer.answered

        def neighbour(pacer: pondering.Pacer) -> float | None:
            handle = pacer.seats[1].handle
            return handle.pauser.cpu_seconds() if handle is not None else None

        async def timed_turn(pacer: pondering.Pacer, seat: Any) -> float:
            if seat.index == 0:
                self._mark = neighbour(pacer)
            return await turn(pacer, seat)

        async def timed_answered(pacer: pondering.Pacer, seat: Any) -> float | None:
            spent = await answered(pacer, seat)
            if seat.index == 0 and self._mark is not None:
                now = neighbour(pacer)
                self.stolen += (now - self._mark) if now is not None else 0.0
                self._mark = None
            return spent

        pondering._switch = timed_switch  # type: ignore[assignment]
        GameLoop.play = timed_play  # type: ignore[method-assign]
        pondering.Pacer.turn = timed_turn  # type: ignore[method-assign]
        pondering.Pacer.answered = timed_answered  # type: ignore[method-assign]
        try:
            yield
        finally:
            pondering._switch = switch  # type: ignore[assignment]
            GameLoop.play = play  # type: ignore[method-assign]
            pondering.Pacer.turn = turn  # type: ignore[method-assign]
            pondering.Pacer.answered = answered  # type: ignore[method-assign]


def play(level: str, seats: tuple[BotSpec, ...], ponder: bool, deals: int, seed: int,
         work_dir: Path, timer: Timer) -> MatchResult:
    name = f"fair-{level}-{int(ponder)}-{'-'.join(b.name for b in seats)}-{seed}"
    spec = MatchSpec(
        match_id=name, bots=seats, seed=seed, sandbox=level, rules_options=(("max_deals", deals),),
        work_dir=str(work_dir), replay_path=str(work_dir / f"{name}.jsonl"),
        time_control=TimeControl(per_move=10.0, bank=60.0, startup=120.0, pondering=ponder))
    with timer.installed():
        result = run_match(spec)
    bad = [s for s in result.seats if s.status != "ok" or s.sandbox != level or any(n for _, n in s.faults)]
    if bad:
        raise SystemExit(f"{level}: a seat did not play cleanly: {bad}")
    return result


def victim_decisions(result: MatchResult) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each of seat 0's decisions, from the replay."""
    out = []
    for line in Path(result.replay_path).read_text().splitlines():
        rec = json.loads(line)
        if rec["type"] == "action" and rec["seat"] == 0:
            out.append((rec["time"], rec["cpu"] or 0.0))
    return out


TABLES = ((True, "quiet"), (True, "burner"), (False, "quiet"), (False, "burner"))


def fairness(level: str, b: dict[str, BotSpec], deals: int, repeats: int, seed: int,
             work_dir: Path) -> dict[str, Any]:
    times: dict[tuple[bool, str], list[tuple[float, float]]] = {t: [] for t in TABLES}
    stolen: dict[tuple[bool, str], float] = dict.fromkeys(TABLES, 0.0)
    mechanism = ""
    for r in range(repeats):
        for ponder, table in TABLES:
            third = b["plain"] if table == "quiet" else b["burner"]
            timer = Timer()
            result = play(level, (b["victim"], third, b["plain"]), ponder, deals, seed + r, work_dir, timer)
            times[(ponder, table)] += victim_decisions(result)
            stolen[(ponder, table)] += timer.stolen
            if not ponder:
                mechanism = result.seats[0].pause
    rows = {}
    for key, pairs in times.items():
        walls = [w * 1000 for w, _ in pairs]
        rows[key] = (statistics.mean(walls), statistics.median(walls), max(walls),
                     statistics.mean(c * 1000 for _, c in pairs), len(walls),
                     stolen[key] / len(walls) * 1000)
    return {"rows": rows, "mechanism": mechanism}


def mechanisms_for(level: str) -> list[str]:
    """ARENA_FREEZER values worth pricing at `level` on this machine."""
    root = Path("/sys/fs/cgroup")
    found = []
    if (root / "unified" / "cgroup.procs").exists() or (root / "cgroup.controllers").exists():
        found.append("v2")
    if (root / "freezer" / "cgroup.procs").exists():
        found.append("v1")
    found.append("docker" if level == "docker" else "signal")
    return found


def cost(level: str, b: dict[str, BotSpec], deals: int, seed: int, work_dir: Path) -> dict[str, Any]:
    timer = Timer()
    result = play(level, (b["plain"],) * 3, True, deals, seed, work_dir, timer)
    decisions = sum(s.decisions for s in result.seats)
    out: dict[str, Any] = {"wall": timer.play[0] / decisions * 1e6, "cpu": timer.play[1] / decisions * 1e6,
                           "off": {}}
    saved = os.environ.get(freezer.MECHANISMS_VAR)
    try:
        for mech in mechanisms_for(level):
            os.environ[freezer.MECHANISMS_VAR] = mech
            timer = Timer()
            try:
                result = play(level, (b["plain"],) * 3, False, deals, seed, work_dir, timer)
            except SystemExit as exc:  # a seat crashed: told, and the next mechanism priced
                out["off"][mech] = {"failed": str(exc)[:300]}
                continue
            decisions = sum(s.decisions for s in result.seats)
            out["off"][result.seats[0].pause] = {
                "switch_wall": timer.switch[0] / decisions * 1e6,
                "switch_cpu": timer.switch[1] / decisions * 1e6,
                "median": statistics.median(timer.calls) * 1e6 if timer.calls else 0.0,
                "per_decision": len(timer.calls) / decisions,
                "wall": timer.play[0] / decisions * 1e6, "cpu": timer.play[1] / decisions * 1e6}
    finally:
        if saved is None:
            os.environ.pop(freezer.MECHANISMS_VAR, None)
        else:
            os.environ[freezer.MECHANISMS_VAR] = saved
    return out


def report(level: str, fair: dict[str, Any], price: dict[str, Any], out: Callable[[str], None]) -> None:
    rows = fair["rows"]
    out(f"{level} (paused by {fair['mechanism']}):")
    out(f"  {'pondering':<10}{'table':<8}{'decisions':>10}{'mean ms':>9}{'median':>8}{'worst':>8}"
        f"{'CPU ms':>8}{'seat 1 CPU':>12}   burner/quiet: mean, median, worst")
    for ponder, table in TABLES:
        mean, median, worst, cpu, n, taken = rows[(ponder, table)]
        q = rows[(ponder, "quiet")]
        ratios = "" if table == "quiet" else f"   {mean / q[0]:.2f}x  {median / q[1]:.2f}x  {worst / q[2]:.2f}x"
        out(f"  {'on' if ponder else 'off':<10}{table:<8}{n:>10}{mean:>9.1f}{median:>8.1f}{worst:>8.1f}"
            f"{cpu:>8.1f}{taken:>12.2f}{ratios}")
    out("  (seat 1 CPU: ms of CPU the seat beside the victim used during each of the victim's decisions)")
    out(f"  referee per decision, pondering on: {price['cpu']:.0f} µs CPU, {price['wall']:.0f} µs wall")
    for mech, p in price["off"].items():
        if "failed" in p:
            out(f"  pondering off, {mech}: the match failed: {p['failed']}")
            continue
        out(f"  pondering off, {mech}: freeze+thaw {p['switch_cpu']:.1f} µs CPU = "
            f"{p['switch_cpu'] / price['cpu'] * 100:.1f}% of the referee's CPU; {p['switch_wall']:.1f} µs "
            f"wall = {p['switch_wall'] / price['wall'] * 100:.1f}% (median call {p['median']:.1f} µs, "
            f"{p['per_decision']:.2f} calls per decision); whole decision {p['wall']:.0f} µs wall "
            f"({p['wall'] / price['wall']:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default=",".join(available_levels()))
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3, help="matches per table and level")
    parser.add_argument("--cost-ms", type=float, default=30.0)
    parser.add_argument("--cost-deals", type=int, default=20,
                        help="deals of the first-legal matches that price freeze+thaw")
    parser.add_argument("--cpu", type=int, default=None, help="the core to pin to (default: the last)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = [lv for lv in args.levels.split(",") if lv]
    missing = [lv for lv in levels if lv not in available_levels()]
    if missing:
        raise SystemExit(f"--levels: not available here: {', '.join(missing)} "
                         f"(available: {', '.join(available_levels())})")
    # Before any thread starts: threads inherit the affinity (the referee's
    # executor threads start the bots and ask docker for the cpuset).
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    loops = calibrate(args.cost_ms)
    print(f"pinned to CPU {cpu}; victim: {loops} loops = {args.cost_ms:g} ms of CPU per decision; "
          f"{args.deals} deals per match, {args.repeats} matches per table; the machine is shared: "
          "read the ranges over rounds")
    summary: dict[str, list[tuple[float, ...]]] = {lv: [] for lv in levels}
    with tempfile.TemporaryDirectory(prefix="arena-fairness-") as tmp:
        b = bots(Path(tmp), loops)
        for r in range(args.rounds):
            print(f"\nround {r + 1}")
            for level in levels:
                fair = fairness(level, b, args.deals, args.repeats, args.seed, Path(tmp))
                price = cost(level, b, args.cost_deals, args.seed, Path(tmp))
                report(level, fair, price, print)
                rows = fair["rows"]
                best = price["off"].get(fair["mechanism"]) or {"switch_cpu": 0.0, "switch_wall": 0.0}
                summary[level].append((
                    rows[(True, "burner")][0] / rows[(True, "quiet")][0],
                    rows[(False, "burner")][0] / rows[(False, "quiet")][0],
                    rows[(False, "burner")][1] / rows[(False, "quiet")][1],
                    rows[(False, "burner")][2] / rows[(False, "quiet")][2],
                    best["switch_cpu"] / price["cpu"] * 100,
                    best["switch_wall"] / price["wall"] * 100))
                sys.stdout.flush()
    if args.rounds > 1:
        print("\nranges over rounds (victim's decisions, burner / quiet; freeze+thaw of the level's mechanism):")
        for level, vals in summary.items():
            cols = list(zip(*vals, strict=True))
            print(f"  {level}: pondering on mean {_range(cols[0], 'x')}; off mean {_range(cols[1], 'x')}, "
                  f"median {_range(cols[2], 'x')}, worst {_range(cols[3], 'x')}; freeze+thaw "
                  f"{_range(cols[4], '%')} of the referee's CPU, {_range(cols[5], '%')} of its wall time")


def _range(values: tuple[float, ...], unit: str) -> str:
    return (f"{min(values):.2f}-{max(values):.2f}{unit} (median {statistics.median(values):.2f})"
            if unit == "x" else f"{min(values):.1f}-{max(values):.1f}{unit}")


if __name__ == "__main__":
    main()
