"""A simulated season on the real ladder: does the table find the true order,
how fast is a new bot placed, and what does the ladder itself cost?

The season is played by `arena.ladder.season.Season`, the code `arena ladder
serve` runs: submissions are validated, blocks of six seat orders are
planned, played by real bot processes at the `process` sandbox level, stored
and rated. The entrants have a known order: the greedy sample bot making a
random legal move with probability 0, 5, 10, 15 and 20% (one author each),
plus the reference bots random and greedy. Some enter later than others, and
one is submitted again as a new version (same strength, new content), which
discards its old version's block in play.

Reported, per worker count:
  * blocks until each new bot's rank is within one place of its true rank
    (goal: <= 10 blocks of that bot);
  * Kendall tau (scipy.stats.kendalltau) of the table against the true order
    once every bot has `--settle` blocks (goal: >= 0.9);
  * the ladder's own overhead per block (planning, storing, rating, and
    building the table a page shows) as a share of the block's match time
    (goal: <= 2%); the baseline is the block's own time, measured in the run;
  * blocks per hour; with several worker counts, the ratio to the first.

A tie in strength (greedy and the 0% bot are the same policy) counts as
either order for the placement figure; tau is over the five noisy bots and
random, whose order is strict.

    .venv/bin/python benchmarks/ladder.py [--workers 1 2] [--blocks 40] [--deals 2]
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from scipy.stats import kendalltau

from arena.ladder.config import load_config
from arena.ladder.create import new_ladder
from arena.ladder.season import Season
from arena.ladder.store import Store
from arena.sandbox.botfile import bot_files
from arena.tournament import LocalPool
from arena.web.ladder import views

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_bots"
NOISES = (0, 5, 10, 15, 20)

NOISY_BOT = '''"""The greedy sample bot, making a random legal move {noise}% of the time
(its random numbers from ARENA_SEED: the same match, the same moves). {extra}"""
import os
import random
import sys

from greedy_policy import choose

from arena.sdk import Bot, Observation, run


class Noisy(Bot):
    name = "noisy{noise}"
    version = "{version}"

    def __init__(self) -> None:
        self.rng = random.Random(os.environ.get("ARENA_SEED", "0"))

    def act(self, obs: Observation) -> str:
        if self.rng.random() < {noise} / 100:
            return self.rng.choice(list(obs.legal_texts))
        return choose(obs.data, obs.legal_texts)


if __name__ == "__main__":
    sys.exit(run(Noisy()))
'''


def archive(folder: Path) -> bytes:
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for rel, path in bot_files(folder):
            data = path.read_bytes()
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def noisy(tmp: Path, noise: int, version: str = "1") -> bytes:
    folder = tmp / f"noisy{noise}-{version}"
    shutil.copytree(SAMPLES / "greedy", folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = (folder / "bot.toml").read_text()
    toml = re.sub(r'^name = ".*"$', f'name = "noisy{noise}"', toml, flags=re.MULTILINE)
    toml = re.sub(r'^version = ".*"$', f'version = "{version}"', toml, flags=re.MULTILINE)
    (folder / "bot.toml").write_text(toml)
    (folder / "bot.py").write_text(NOISY_BOT.format(noise=noise, version=version,
                                                    extra=f"Version {version}."))
    return archive(folder)


def ladder(tmp: Path, deals: int, workers: int) -> Path:
    folder = tmp / "ladder"
    new_ladder(folder, [SAMPLES / "random", SAMPLES / "greedy"], seed=2**61 + 77)
    path = folder / "ladder.toml"
    text = path.read_text()
    for old, new in (("max_deals = 6", f"max_deals = {deals}"), ('sandbox = "auto"', 'sandbox = "process"'),
                     ("workers = 0 ", f"workers = {workers} "), ("cpu_slots = true", "cpu_slots = false")):
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text)
    return folder


TRUE_RANK = {"greedy": 0, **{f"noisy{n}": i for i, n in enumerate(NOISES)}, "random": len(NOISES)}


def season(workers: int, blocks: int, deals: int, settle: int) -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    try:
        folder = ladder(tmp, deals, workers)
        config = load_config(folder)
        store = Store(config.store_path)
        users = {n: store.add_user(f"author{n}", f"arena_{'x' * 40}{n:03d}") for n in NOISES}
        run = Season(config, store, lambda: LocalPool(workers, pin_cpus=False))
        started = time.perf_counter()
        run.start()
        placed: dict[str, int] = {}
        tau_at_settle: float | None = None
        page_seconds = 0.0
        pages = 0
        later = list(NOISES[2:])
        for n in NOISES[:2]:
            run.intake.submit(users[n], noisy(tmp, n))
        resubmitted = False
        seen = 0
        try:
            while seen < blocks:
                time.sleep(0.5)
                finished = store.counts().get("finished", 0)
                if finished == seen:
                    continue
                seen = finished
                t0 = time.perf_counter()
                table = views.table(store, config)   # what every page and the API build
                page_seconds += time.perf_counter() - t0
                pages += 1
                ranks = {r["bot"]: r["rank"] - 1 for r in table["rows"]}
                rows = {r["bot"]: r for r in table["rows"]}
                if later and seen % 3 == 0:          # a new author enters every few blocks
                    n = later.pop(0)
                    run.intake.submit(users[n], noisy(tmp, n))
                if not resubmitted and seen >= blocks // 2:
                    run.intake.submit(users[10], noisy(tmp, 10, "2"))   # a new version
                    resubmitted = True
                for bot, rank in ranks.items():
                    if bot in placed or bot not in TRUE_RANK or bot in ("greedy", "random") \
                            or rows[bot]["blocks"] == 0:   # an unplayed bot's place is chance
                        continue
                    order = sorted(ranks, key=lambda b: TRUE_RANK.get(b, 99))
                    true = order.index(bot)
                    tie = {order.index("greedy"), order.index("noisy0")} if bot == "noisy0" else {true}
                    if min(abs(rank - t) for t in tie) <= 1:
                        placed[bot] = int(rows[bot]["blocks"])
                if tau_at_settle is None and len(rows) == len(TRUE_RANK) and \
                        all(r["blocks"] >= settle for r in rows.values()):
                    strict = [b for b in ranks if b != "greedy"]
                    tau_at_settle = float(kendalltau([ranks[b] for b in strict],
                                                     [TRUE_RANK[b] for b in strict]).statistic)
                print(f"  workers {workers}: {seen} blocks; table "
                      + " ".join(f"{b}({rows[b]['blocks']})" for b in sorted(ranks, key=ranks.get)),
                      flush=True)
        finally:
            run.stop()
        wall = time.perf_counter() - started
        done = [b for b in store.blocks(status="finished") if b.finished_at is not None]
        block_time = sum(b.finished_at - b.created_at for b in done if b.finished_at)
        overhead = sum(b.overhead for b in done) + page_seconds
        final = views.table(store, config)
        ranks = {r["bot"]: r["rank"] - 1 for r in final["rows"]}
        strict = [b for b in ranks if b in TRUE_RANK and b != "greedy"]
        tau_final = float(kendalltau([ranks[b] for b in strict], [TRUE_RANK[b] for b in strict]).statistic)
        store.close()
        return {"blocks": len(done), "wall": wall, "per_hour": 3600 * len(done) / wall,
                "overhead_share": overhead / max(block_time - overhead, 1e-9),
                "placed_max": max(placed.values()) if placed else float("nan"),
                "unplaced": len([b for b in TRUE_RANK if b.startswith("noisy") and b not in placed]),
                "tau_settle": float("nan") if tau_at_settle is None else tau_at_settle,
                "tau_final": tau_final, "placed": placed}  # type: ignore[dict-item]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--blocks", type=int, default=40, help="finished blocks per season")
    parser.add_argument("--deals", type=int, default=2, help="deals per match (max_deals)")
    parser.add_argument("--settle", type=int, default=10, help="blocks per bot before tau is taken")
    args = parser.parse_args()
    results = []
    for w in args.workers:
        r = season(w, args.blocks, args.deals, args.settle)
        results.append((w, r))
    base = results[0][1]["per_hour"]
    print("\nworkers  blocks  blocks/h  ratio  overhead  placed by (blocks)  tau@settle  tau final")
    for w, r in results:
        print(f"{w:7d}  {r['blocks']:6.0f}  {r['per_hour']:8.0f}  {r['per_hour'] / base:5.2f}"
              f"  {100 * r['overhead_share']:7.2f}%  {r['placed_max']:>6} ({r['unplaced']} unplaced)"
              f"  {r['tau_settle']:10.2f}  {r['tau_final']:9.2f}")
        print(f"         placed: {r['placed']}")
    print("goals: placed within one place by <= 10 blocks; tau >= 0.9 once every bot has "
          f"{args.settle} blocks; overhead <= 2% of match time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
