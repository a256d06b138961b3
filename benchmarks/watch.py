"""Cost of the lobby's spectators per position: the engine's public view and
the watch frame made from it, against the engine's own step in the same run.

    .venv/bin/python benchmarks/watch.py [--games 5] [--preset standard] [--deals 20]

Plays seeded random games (`--deals` deals each) and, at every position,
times the engine's step (the acting seat's observation, the legal actions,
the action applied), the public view (`public_observation()` on a fresh
state) and the frame (arena/web/lobby/watch.py `Feed.tell`: the web's
public view as JSON, compared with the last, for one watcher); prints
microseconds per position, the frames per position and their mean size in
bytes. The referee pays the public view only for a lobby game (a `watch`),
once per action; the frame only while someone watches it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.game import Rules, new_game
from arena.web.lobby.watch import Watching


def one_game(rules: Rules, seed: int) -> tuple[float, float, float, int, int, int]:
    """(engine s, public view s, frame s, positions, frames, frame bytes) of one game."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    feed, watcher = Watching().join("bench")  # one watcher: every frame is made
    feed.rules = rules
    engine = public = frame = 0.0
    positions = size = 0
    while True:
        t0 = time.perf_counter()
        obs = game.public_observation()
        t1 = time.perf_counter()
        before = feed.n
        feed.tell(obs)
        t2 = time.perf_counter()
        public += t1 - t0
        frame += t2 - t1
        positions += 1
        size += len(feed.last) if feed.n != before else 0
        while not watcher.queue.empty():
            watcher.queue.get_nowait()
        if game.is_over:
            return engine, public, frame, positions, feed.n, size
        t3 = time.perf_counter()
        assert game.to_act is not None
        game.observation(game.to_act)
        action = rng.choice(game.legal_actions())
        game = game.apply(action)
        engine += time.perf_counter() - t3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--deals", type=int, default=20)
    args = ap.parse_args(argv)
    rules = Rules.preset(args.preset).replace(max_deals=args.deals)
    runs = [one_game(rules, seed) for seed in range(1, args.games + 1)]
    positions = sum(r[3] for r in runs)
    frames = sum(r[4] for r in runs)
    per = [(r[0] / r[3], r[1] / r[3], r[2] / r[3]) for r in runs]
    med = [statistics.median(p[i] for p in per) * 1e6 for i in range(3)]
    print(f"{args.preset}, {args.games} games, {positions} positions, {frames} frames "
          f"({frames / positions:.2f} a position), mean frame {sum(r[5] for r in runs) / max(1, frames):.0f} bytes")
    print(f"per position (median of games): engine step {med[0]:.1f} us, public view {med[1]:.1f} us, "
          f"frame {med[2]:.1f} us; (public view + frame) / engine step {(med[1] + med[2]) / med[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
