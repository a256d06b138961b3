"""Plays a uniformly random legal action (seeded from ARENA_SEED, salted)."""

import os
import random

from arena.sdk import Bot, run


class RandomB(Bot):
    name = "random_b"
    version = "1.0.0"

    def __init__(self) -> None:
        self.rng = random.Random("b:" + (os.environ.get("ARENA_SEED") or os.environ.get("ARENA_TOKEN", "")))

    def act(self, obs):
        return self.rng.choice(obs.legal_actions)


if __name__ == "__main__":
    raise SystemExit(run(RandomB()))
