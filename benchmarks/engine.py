"""Engine speed: random whole games per preset, decisions per second on one core.

    .venv/bin/python benchmarks/engine.py [--games 20] [--seed 1] [--presets standard czech]

A decision is one `legal_actions()` call plus one `apply()` of a uniformly
random legal action: what a referee does for every bot move. The baseline,
measured in the same run, is a bare Python loop that picks a random element
of a tuple of the same average size as many times; the ratio says how many
"bare random picks" one engine decision costs, which is comparable across
machines. The process pins itself to one CPU where the OS allows it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.game import Rules, new_game

GOAL = 50_000


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to cpu {cpus[-1]}"
    return "not pinned (no sched_setaffinity)"


def play_games(preset: str, games: int, seed: int) -> tuple[int, int, int, float]:
    """Returns (decisions, deals, legal actions summed, seconds)."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    decisions = deals = width = 0
    start = time.perf_counter()
    for i in range(games):
        g = new_game(rules, seed=seed * 1_000_003 + i)
        while not g.is_over:
            legal = g.legal_actions()
            width += len(legal)
            g = g.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        deals += len(g.deals)
    return decisions, deals, width, time.perf_counter() - start


def baseline(decisions: int, size: int, seed: int) -> float:
    """Seconds for a bare loop choosing a random element of a tuple of `size`."""
    items = tuple(range(max(size, 1)))
    rng = random.Random(seed)
    sink = 0
    start = time.perf_counter()
    for _ in range(decisions):
        sink ^= items[rng.randrange(len(items))]
    elapsed = time.perf_counter() - start
    assert sink >= 0  # keep the loop's work observable
    return elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20, help="games per preset (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--presets", nargs="*", default=list(Rules.presets()))
    args = p.parse_args(argv)
    print(f"engine benchmark: {args.games} random games per preset, seed {args.seed}, "
          f"python {sys.version.split()[0]}, {pin_one_core()}")
    print(f"{'preset':<11} {'games':>5} {'deals':>6} {'decisions':>9} {'sec':>7} "
          f"{'decisions/s':>11} {'deals/s':>8} {'baseline/s':>11} {'ratio':>6}")
    all_dec = all_sec = 0.0
    for preset in args.presets:
        dec, deals, width, sec = play_games(preset, args.games, args.seed)
        base = baseline(dec, round(width / max(dec, 1)), args.seed)
        all_dec += dec
        all_sec += sec
        print(f"{preset:<11} {args.games:>5} {deals:>6} {dec:>9} {sec:>7.2f} {dec / sec:>11,.0f} "
              f"{deals / sec:>8,.0f} {dec / base:>11,.0f} {sec / base:>6.1f}")
    rate = all_dec / all_sec if all_sec else 0.0
    verdict = "meets" if rate >= GOAL else "BELOW"
    print(f"overall: {rate:,.0f} decisions/s ({verdict} the goal of {GOAL:,}/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
