"""The rating table's cost over a big tournament: the arena's TrueSkill
(arena.tournament.rating.trueskill_math) against the trueskill library's own `rate`, the
baseline, on the same results in the same run.

    .venv/bin/python benchmarks/standings.py [--matches 10000] [--rounds 3]
        [--library-samples 3] [--keep DIR]

The tournament is benchmarks/web.py's (five bots, all triples, 45-deal
games; `--keep` reuses one). Each round times, in turn:

  - the ratings of the table (the batch fit and the one-pass history):
    `ratings.rate`, and the same computed with `trueskill.TrueSkill.rate`
    (the code before arena.tournament.rating.trueskill_math, kept in
    tests/tournament/test_skill.py as the tests' reference);
  - the bootstrap rank intervals: 200 resamples at once
    (`ratings.bootstrap_rank_intervals`), and `--library-samples`
    resamples one library call per match (a full 200 would take an hour;
    its cost per resample is the same for each);
  - `standings.build` as the tournament page calls it (bootstrap = 0 as
    stored, then with 200 resamples).

CPU time of this process (the machine's load changes wall time by 2-10x
within minutes; the CPU a computation takes moves far less). The results of
both sides are compared: the table must be the same. Nothing is asserted
about speed.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.tournament.plan.config import load_config  # noqa: E402
from arena.tournament.rating import ratings  # noqa: E402
from arena.tournament.results import standings  # noqa: E402
from arena.tournament.run.coordinator import plan_field, rated_matches  # noqa: E402
from arena.tournament.store import Store  # noqa: E402


def _load(relative: str, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3g} ({min(values):.3g}-{max(values):.3g})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--library-samples", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="make (or reuse) the tournament here")
    args = ap.parse_args()
    web = _load("benchmarks/web.py", "web_bench")
    reference = _reference()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-standings-bench-"))
    folder = work / "bench"
    if not (folder / "tournament.sqlite").exists():
        sets = max(1, math.ceil(args.matches / 60))
        web.stored_tournament(folder, bots=web.make_bots(work, 5), duplicate_sets=sets,
                              target=1000, replay_for=lambda i: i < 12, fault_every=50,
                              fast=True, schedule="all_triples", rules_extra="max_deals = 45\n")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    config = load_config(folder)
    with Store(config.store_path) as store:
        bots = standings.current_field(config, store)
        wanted = {m.match_id for m in plan_field(config, bots)}
        rows = [r for r in store.matches(wanted) if r.status == "finished" and r.result]
        found = rated_matches(rows)
        ids = [b.id for b in bots]
        print(f"{len(found)} rated matches, {len(ids)} bots, {len({m.unit for m in found})} "
              f"duplicate sets\n")
        canonical = sorted(found, key=lambda m: m.match_id)
        k = args.library_samples
        with_boot = dataclasses.replace(config, bootstrap=200)
        fit_lib, fit_ours, boot_lib, boot_ours, table0, table200 = [], [], [], [], [], []
        for r in range(args.rounds):
            t_lib, lib = cpu(lambda: (reference.library_fit(canonical, ids),
                                      reference.library_online(found, ids)))
            t_ours, ours = cpu(lambda: ratings.rate(found, ids))
            if ours[0] != lib[0] or ours[1] != lib[1]:
                print("MISMATCH: the fit or the history differs from the library's")
                return 1
            fit_lib.append(t_lib)
            fit_ours.append(t_ours)
            t_lib, lib_iv = cpu(lambda r=r: reference.library_bootstrap(found, ids, k, 1 + r))
            t_ours, ours_iv = cpu(lambda r=r: ratings.bootstrap_rank_intervals(found, ids, k, 1 + r))
            if lib_iv != ours_iv:
                print(f"MISMATCH: bootstrap intervals {ours_iv} != the library's {lib_iv}")
                return 1
            boot_lib.append(t_lib / k)
            t200, _ = cpu(lambda r=r: ratings.bootstrap_rank_intervals(found, ids, 200, 1 + r))
            boot_ours.append(t200 / 200)
            table0.append(cpu(lambda: standings.build(config, store))[0])
            table200.append(cpu(lambda: standings.build(with_boot, store))[0])
            print(f"round {r + 1}: fit+history {fit_lib[-1]:.1f} s (library) / {fit_ours[-1]:.2f} s; "
                  f"bootstrap per resample {boot_lib[-1]:.2f} s / {boot_ours[-1] * 1000:.1f} ms; "
                  f"table {table0[-1]:.1f} s, with 200 resamples {table200[-1]:.1f} s")
    ratio_fit = [a / b for a, b in zip(fit_lib, fit_ours, strict=True)]
    ratio_boot = [a / b for a, b in zip(boot_lib, boot_ours, strict=True)]
    print("\nCPU seconds, median (min-max) of the rounds; the library in the same rounds:")
    print(f"  fit + history:            library {spread(fit_lib)}, arena {spread(fit_ours)}: "
          f"{spread(ratio_fit)}x")
    print(f"  bootstrap, per resample:  library {spread(boot_lib)}, arena {spread(boot_ours)}: "
          f"{spread(ratio_boot)}x (200 resamples: library ~{200 * statistics.median(boot_lib):.0f} s, "
          f"arena {200 * statistics.median(boot_ours):.1f} s)")
    print(f"  standings.build:          bootstrap 0 {spread(table0)} s, 200 resamples "
          f"{spread(table200)} s")
    print(f"tournament in {folder}")
    return 0


def _reference() -> Any:
    """The library-driven code the tests compare with (tests/tournament/test_skill.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import tournament.test_skill as reference

    return reference


if __name__ == "__main__":
    raise SystemExit(main())
