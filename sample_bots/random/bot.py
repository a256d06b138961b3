"""A bot that plays a uniformly random legal action.

Seeded from ARENA_SEED when the referee gives one (reproducible matches),
else from the seat token.
"""

import os
import random

from arena.sdk import Bot, run


class RandomBot(Bot):
    name = "random"
    version = "1.0.0"

    def __init__(self) -> None:
        self.rng = random.Random(os.environ.get("ARENA_SEED") or os.environ.get("ARENA_TOKEN", ""))

    def act(self, obs):
        return self.rng.choice(obs.legal_actions)


if __name__ == "__main__":
    raise SystemExit(run(RandomBot()))
