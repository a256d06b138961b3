"""What the decision marks cost (arena/referee/marks.py), against the
referee without them, measured in the same run.

    .venv/bin/python benchmarks/marks.py [--rounds R] [--style sync|aio]

Printed (no assertions), all measured in this one run on this machine:

1. **Per decision, with and without marks**: whole games of three trivial
   bots under the real referee (benchmarks/referee.py `referee_per_decision`:
   a full game against its 1-deal cut on the same seed, start-up taken out
   by difference). "Without" is the same referee with `CappedLog.position`
   answering 0 at once (no lock, no FIONREAD): everything else equal. The
   two run in alternation, R rounds, each first in every other round (this
   machine's speed drifts), and the ratio with/without is reported per round (median, min, max).
2. **One mark**: `position()` of a pipe's log alone, in microseconds, beside
   the referee's whole cost per decision.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import tempfile
import time
from pathlib import Path
from types import ModuleType

os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

from arena.sandbox.logcap import CappedLog, PipeSource


def _referee_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_bench_referee", Path(__file__).with_name("referee.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one_mark(calls: int = 20_000) -> float:
    """Microseconds per `position()` of a pipe's log, with bytes waiting."""
    r, w = os.pipe()
    with tempfile.TemporaryDirectory() as tmp:
        log = CappedLog(PipeSource(r), os.path.join(tmp, "x.log"), limit=1 << 20)
        os.write(w, b"x" * 100)
        t0 = time.perf_counter()
        for _ in range(calls):
            log.position()
        spent = time.perf_counter() - t0
        os.close(w)
        log.join(10)
    return spent / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--style", choices=("sync", "aio"), default="aio")
    args = ap.parse_args()
    bench = _referee_bench()
    real = CappedLog.position
    ratios, with_marks, without = [], [], []
    for k in range(args.rounds):
        seed = 1000 + k
        figures: dict[bool, tuple[float, int]] = {}
        for marking in ((True, False) if k % 2 == 0 else (False, True)):  # neither always first
            if not marking:
                CappedLog.position = lambda self: 0  # type: ignore[method-assign]
            try:
                figures[marking] = bench.referee_per_decision(args.style, seed)
            finally:
                CappedLog.position = real  # type: ignore[method-assign]
        (on, decisions), (off, _) = figures[True], figures[False]
        with_marks.append(on)
        without.append(off)
        ratios.append(on / off)
        print(f"round {k + 1}: {decisions} decisions, with marks {on * 1e6:.0f} us, "
              f"without {off * 1e6:.0f} us, ratio {on / off:.3f}")
    print(f"per decision with marks: median {statistics.median(with_marks) * 1e6:.0f} us; "
          f"without: {statistics.median(without) * 1e6:.0f} us")
    print(f"ratio with/without: median {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    mark = one_mark()
    print(f"one mark (position of a pipe's log): {mark:.2f} us, "
          f"{mark / (statistics.median(with_marks) * 1e6) * 100:.2f}% of a decision")


if __name__ == "__main__":
    main()
