"""What each sandbox level costs per match: start-up and per decision.

    .venv/bin/python benchmarks/sandbox.py [--levels docker,bwrap,process] [--rounds 2]

Measured in one run on this machine and printed as ratios against the
process level of the same run (no assertions):

1. **Bare start**: `launch()` of a Python bot that imports the SDK and
   exits, until its exit is seen, plus `cleanup()`: the fixed price of a
   bot at that level (namespaces, cgroups, a container...).
2. **Per match and per decision**: whole matches of three random sample
   bots under the real referee at that level, cut to `--deals` deals. Per
   decision = the referee's own measure of the seats' decision time (request
   sent to reply received) over the number of decisions; start-up per match
   = wall time of the match minus that decision time (three bots started,
   connected, stopped, plus the referee's own work).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arena.manifest import BotSpec
from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox import available_levels, launch
from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "sample_bots" / "random"


def bare_start(level: str, work: Path) -> float:
    folder = work / "hello"
    if not folder.exists():
        folder.mkdir()
        (folder / "bot.py").write_text("import arena.sdk\n")
        (folder / "bot.toml").write_text('name = "hello"\nversion = "1"\nlanguage = "python"\n'
                                         'run = "python3 bot.py"\nimage = "arena-python:1"\n')
    bot = load_bot(folder)
    started = time.perf_counter()
    handle = launch(bot, level, env={}, socket_dir=str(work), log_path=str(work / "hello.log"))
    handle.wait(120)
    handle.cleanup()
    return time.perf_counter() - started


def match(level: str, bot: BotSpec, deals: int, seed: int, work: Path) -> tuple[float, float, int]:
    spec = MatchSpec(match_id=f"bench-{level}-{deals}-{seed}", bots=(bot, bot, bot), seed=seed,
                     sandbox=level, rules_options=(("max_deals", deals),), work_dir=str(work),
                     time_control=TimeControl(per_move=5.0, bank=30.0, startup=120.0))
    started = time.perf_counter()
    result = run_match(spec)
    elapsed = time.perf_counter() - started
    assert all(s.sandbox == level and s.status == "ok" for s in result.seats), result.seats
    return elapsed, sum(s.time_total for s in result.seats), sum(s.decisions for s in result.seats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(available_levels()))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--deals", type=int, default=6)
    args = parser.parse_args()
    levels = [lv for lv in args.levels.split(",") if lv]
    missing = [lv for lv in levels if lv not in available_levels()]
    if missing:
        print(f"unavailable here: {', '.join(missing)}", file=sys.stderr)
        levels = [lv for lv in levels if lv not in missing]
    if "process" not in levels:
        levels.append("process")
    bot = load_bot(RANDOM_BOT)
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        for level in levels:
            bare = [bare_start(level, work) for _ in range(args.rounds)]
            per_dec: list[float] = []
            startup: list[float] = []
            for r in range(args.rounds):
                wall, decision_time, decisions = match(level, bot, args.deals, 100 + r, work)
                per_dec.append(decision_time / max(1, decisions))
                startup.append(wall - decision_time)
            rows[level] = {"bare": statistics.median(bare),
                           "startup": statistics.median(startup),
                           "decision": statistics.median(per_dec)}
            print(f"{level:8} bare start {rows[level]['bare']:.3f}s  match start-up "
                  f"{rows[level]['startup']:.3f}s  per decision "
                  f"{rows[level]['decision'] * 1000:.2f}ms", flush=True)
    base = rows["process"]
    print("\nratios against the process level (same run):")
    print(f"{'level':8} {'bare start':>11} {'match start-up':>15} {'per decision':>13}")
    for level, row in rows.items():
        print(f"{level:8} {row['bare'] / base['bare']:>10.2f}x {row['startup'] / base['startup']:>14.2f}x "
              f"{row['decision'] / base['decision']:>12.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
