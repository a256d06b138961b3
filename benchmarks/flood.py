"""What a flooding bot costs the other seats of its table.

    .venv/bin/python benchmarks/flood.py [--level docker] [--rounds 3]

A ladder takes bots from anyone, so one of them may flood. Each round plays
a two-deal match of two random sample bots (seats 1 and 2) beside seat 0,
which is, in turn, a random bot too (quiet: the baseline of the same
round) or an attack bot of tests/sandbox/adversaries/ flooding the
referee: its output (a gigabyte to stdout and stderr), silent gRPC
streams, raw HTTP/2 PINGs, connections or DATA frames of one byte.
Printed per flood: the other seats' decision times (the replay's `time` of
each of their actions: from the request sent to the reply read) while the
flooder is still at the table, mean and worst, as ratios to the quiet
match of the same round. Goal (issue 33): within 1.5x of a quiet match.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from arena.referee import MatchSpec, TimeControl, run_match  # noqa: E402
from tests.sandbox.attacks import adversary, random_bot  # noqa: E402

FLOODS: dict[str, tuple[str, dict[str, object], tuple[str, ...]]] = {
    "output": ("output_flood", {}, ()),
    "streams": ("stream_flood", {"when": "playing", "seconds": 4.0}, ()),
    "h2 ping": ("h2_flood", {"flood": "ping", "seconds": 4.0}, ("h2", "hpack", "hyperframe")),
    "h2 connections": ("h2_flood", {"flood": "connections", "seconds": 4.0},
                       ("h2", "hpack", "hyperframe")),
    "h2 data": ("h2_flood", {"flood": "data", "seconds": 4.0}, ("h2", "hpack", "hyperframe")),
}
GOAL = 1.5


def others_times(replay: Path) -> list[float]:
    """Decision times of seats 1 and 2 up to seat 0's last action or fault
    (while it was at the table), else the whole match."""
    records = [json.loads(line) for line in replay.read_text().splitlines() if line.strip()]
    actions = [r for r in records if r.get("type") == "action"]
    last0 = max((k for k, r in enumerate(actions) if r.get("seat") == 0), default=len(actions))
    window = actions[:max(last0 + 1, 12)]  # at least the first dozen decisions
    return [float(r["time"]) for r in window if r.get("seat") != 0 and isinstance(r.get("time"), float)]


def play(root: Path, level: str, seat0: str) -> tuple[list[float], str]:
    root.mkdir(parents=True)
    other = random_bot(root)
    work = root / "work"
    work.mkdir()
    if seat0 == "quiet":
        first = other
    else:
        attack, extra, packages = FLOODS[seat0]
        first = adversary(root, attack, {"read": {}, **extra}, packages)
    replay = root / "replay.jsonl"
    spec = MatchSpec(match_id=f"flood-{seat0.replace(' ', '-')}", bots=(first, other, other),
                     seed=7, sandbox=level, rules_options=(("max_deals", 2),),
                     replay_path=str(replay), work_dir=str(work),
                     time_control=TimeControl(per_move=3.0, bank=6.0, increment=0.1,
                                              startup=120.0))
    result = run_match(spec)
    return others_times(replay), result.seats[0].status


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="docker")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--floods", default=",".join(FLOODS))
    args = ap.parse_args()
    floods = [f for f in args.floods.split(",") if f]
    ratios: dict[str, list[tuple[float, float]]] = {f: [] for f in floods}
    with tempfile.TemporaryDirectory(prefix="flood-") as tmp:
        for r in range(args.rounds):
            quiet, _ = play(Path(tmp) / f"r{r}-quiet", args.level, "quiet")
            q_mean, q_max = statistics.mean(quiet), max(quiet)
            print(f"round {r + 1}: quiet: {len(quiet)} decisions, mean {q_mean * 1e3:.2f} ms, "
                  f"worst {q_max * 1e3:.1f} ms", flush=True)
            for f in floods:
                times, status = play(Path(tmp) / f"r{r}-{f.replace(' ', '-')}", args.level, f)
                mean, worst = statistics.mean(times), max(times)
                ratios[f].append((mean / q_mean, worst / q_max))
                print(f"  {f:<15} flooder {status:<8} {len(times):3d} decisions, mean "
                      f"{mean * 1e3:7.2f} ms ({mean / q_mean:5.2f}x), worst {worst * 1e3:7.1f} ms "
                      f"({worst / q_max:5.2f}x)", flush=True)
    print(f"median over {args.rounds} rounds, level {args.level} (goal: mean within {GOAL}x):")
    for f in floods:
        m = statistics.median(x for x, _ in ratios[f])
        w = statistics.median(y for _, y in ratios[f])
        print(f"  {f:<15} mean {m:5.2f}x  worst {w:5.2f}x  {'met' if m <= GOAL else 'not met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
