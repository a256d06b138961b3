"""Cost of the one-way deal derivation: shuffled decks per second on one core.

    .venv/bin/python benchmarks/dealing.py [--deals 20000] [--seed 1]

Measures `arena.game.dealing.shuffled_deck` (HMAC-SHA256 per deal, SHA-256
in counter mode for the draws: arena/game/rng.py) against a baseline in the
same run: the same Fisher-Yates with the same rejection sampling driven by
splitmix64, the invertible generator that dealt before (kept here only as
the yardstick, nowhere in the engine). The ratio says how many baseline
shuffles one derived shuffle costs; a whole game's cost is in
benchmarks/engine.py (a deal is one shuffle among some 30 decisions).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.game.cards import DECK
from arena.game.dealing import shuffled_deck
from benchmarks.engine import pin_one_core

T = TypeVar("T")
_MASK = (1 << 64) - 1


def splitmix_shuffle(seed: int, items: Sequence[T]) -> list[T]:
    """The baseline: Fisher-Yates on splitmix64 words, rejection-sampled."""
    state = seed & _MASK
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def timed(deals: int, seed: int, derived: bool) -> float:
    sink = 0
    start = time.perf_counter()
    for k in range(1, deals + 1):
        deck = shuffled_deck(seed, k, 0) if derived else splitmix_shuffle(seed * 1_000_003 + k, DECK)
        sink ^= deck[0].index
    elapsed = time.perf_counter() - start
    assert sink >= 0  # keep the loop's work observable
    return elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=20_000, help="shuffles per side (default 20000)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(f"dealing benchmark: {args.deals} shuffles of the 24-card deck per side, "
          f"python {sys.version.split()[0]}, {pin_one_core()}")
    # Interleaved rounds so that a load change on a shared machine hits both sides.
    base = ours = 0.0
    rounds = 5
    for _ in range(rounds):
        base += timed(args.deals // rounds, args.seed, derived=False)
        ours += timed(args.deals // rounds, args.seed, derived=True)
    n = rounds * (args.deals // rounds)
    print(f"{'':<26} {'deals/s':>9} {'us/deal':>8}")
    print(f"{'splitmix64 (baseline)':<26} {n / base:>9.0f} {1e6 * base / n:>8.1f}")
    print(f"{'HMAC + SHA-256 counter':<26} {n / ours:>9.0f} {1e6 * ours / n:>8.1f}")
    print(f"ratio (derived / baseline time): {ours / base:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
