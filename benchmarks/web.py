"""Time to first byte of `arena serve`'s pages over a big tournament.

    .venv/bin/python benchmarks/web.py [--matches 10000] [--rounds 10] [--keep DIR]

Generates a tournament of about 10,000 stored matches (five bots, every
triple in all six seat orders, 167 duplicate sets; results made with the
engine, a replay file for a few), starts `arena serve` on it as a user does
and times, over loopback, from sending a request to the first byte of the
answer (http.client: the status line):

  - the match list (page 1, and a filtered page deep in the list),
  - a per-bot page,
  - the replay player of a ~150 KB replay (the page carries its opening
    view: the replay is re-played through the engine and serialised) and
    the data of a seat's view,
  - the tournament page (the rating table of all results, which the server
    starts building at start-up; no goal), requested first,
  - the player of a 200-deal replay (a file given to `arena serve`): its
    page (which carries only its first deals: arena/web/chunks.py), the
    next deals of a seat's view, and, last, the whole data of all cards
    (what the page carried before; no goal).

"cold" is the first request (nothing cached), "warm" the median of
`--rounds` more. Each figure is also printed as a ratio to the baseline of
the same run: the TTFB of a static file from the same server (the floor of
the HTTP stack). Goals (issue 22): a list page at most 200 ms, a replay at
most 500 ms on this machine. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.game import Rules  # noqa: E402
from tests.web.stored import stored_tournament, write_replay  # noqa: E402

ARENA = Path(sys.executable).with_name("arena")
GOALS = {"list": 0.200, "replay": 0.500, "long": 0.300}
LONG_KB = 300  # issue 35: the first page of a 200-deal match at most 300 KB


def make_bots(folder: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        bot = folder / "src" / f"b{i}"
        bot.mkdir(parents=True, exist_ok=True)
        (bot / "bot.toml").write_text(
            f'name = "b{i}"\nversion = "1.0"\nlanguage = "python"\nrun = "python3 bot.py"\n')
        (bot / "bot.py").write_text("print('never run')\n")
        out.append(bot)
    return out


def ttfb(port: int, path: str) -> tuple[float, int, int]:
    """Seconds from sending the request to the status line; status; body bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
    try:
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        first = time.perf_counter() - start
        body = response.read()
        return first, response.status, len(body)
    finally:
        conn.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--keep", type=Path, help="make (or reuse) the tournament here")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-web-bench-"))
    folder = work / "bench"
    sets = max(1, math.ceil(args.matches / 60))  # 5 bots: 10 triples x 6 orders per set
    if not (folder / "tournament.sqlite").exists():
        t0 = time.perf_counter()
        stored_tournament(folder, bots=make_bots(work, 5), duplicate_sets=sets, target=1000,
                          replay_for=lambda i: i < 12, fault_every=50, fast=True,
                          schedule="all_triples", rules_extra="max_deals = 45\n")
        print(f"generated {sets * 60} stored matches in {time.perf_counter() - t0:.1f} s")
    replays = sorted((folder / "replays").glob("*.jsonl"), key=lambda p: abs(p.stat().st_size - 150_000))
    replay = replays[0]
    print(f"replay: {replay.stat().st_size / 1000:.0f} KB ({replay.name})")
    long = work / "long.jsonl"  # seed 0, the golden random policy 1: all 200 deals
    if not long.exists():
        write_replay(long, Rules.preset("standard").replace(max_deals=200), seed=0, policy_seed=1)
    print(f"long replay: {long.stat().st_size / 1000:.0f} KB, 200 deals ({long.name})")

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([str(ARENA), "serve", str(folder), str(long), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        m = re.search(r":(\d+)/", line)
        if not m:
            print(f"arena serve did not start: {line!r}", file=sys.stderr)
            return 1
        port = int(m.group(1))
        # The server builds the rating table in the background from its start
        # (`arena serve` warms up); the tournament page waits for it. The
        # pages with goals are timed after that, as a visitor meets them.
        pages = [
            ("none", "tournament page (waits for the warm-up)", "/t/bench/"),
            ("baseline", "static file", "/static/style.css"),
            ("list", "match list, page 1", "/t/bench/matches"),
            ("list", "match list, bot b3 with faults, page 3", "/t/bench/matches?bot=b3&fault=any&page=3"),
            ("list", "match list, page 150", "/t/bench/matches?page=150"),
            ("list", "per-bot page (b2)", "/t/bench/bot/b2"),
            ("replay", "replay player, all cards", f"/t/bench/match/{replay.stem}?view=all"),
            ("replay", "replay data, seat 1's view", f"/api/t/bench/match/{replay.stem}/1.json"),
            ("long", "200-deal player, all cards (its page)", "/r/long?view=all"),
            ("long", "200-deal, seat 1's deals 103-112", "/api/r/long/1/deals/103.json"),
            ("none", "200-deal, whole data of all cards", "/api/r/long/all.json"),
        ]
        results = []
        for kind, label, path in pages:
            cold, status, size = ttfb(port, path)
            warm = statistics.median(ttfb(port, path)[0] for _ in range(args.rounds))
            results.append((kind, label, cold, warm, status, size))
        base = results[1][3]
        print(f"\n{'page':44} {'status':>6} {'KB':>7} {'cold ms':>9} {'warm ms':>9} {'x base':>8}  goal")
        for kind, label, cold, warm, status, size in results:
            goal = GOALS.get(kind)
            verdict = "" if goal is None else (
                f"{goal * 1000:.0f} ms: {'met' if max(cold, warm) <= goal else 'MISSED'}")
            if label.endswith("(its page)"):
                verdict += f"; {LONG_KB} KB: {'met' if size <= LONG_KB * 1000 else 'MISSED'}"
            print(f"{label:44} {status:>6} {size / 1000:>7.1f} {cold * 1000:>9.1f} {warm * 1000:>9.1f} "
                  f"{warm / base:>8.1f}  {verdict}")
        print(f"\nbaseline: a static file, warm median {base * 1000:.2f} ms; cold = first request "
              "after start (caches empty), warm = median of the next "
              f"{args.rounds}; tournament in {folder}")
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
