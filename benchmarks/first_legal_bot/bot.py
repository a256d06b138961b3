"""The cheapest possible bot: always the first legal action (benchmarks only)."""

import sys

from arena.sdk import Bot, Observation, run


class FirstLegal(Bot):
    name = "first-legal"
    version = "1.0.0"

    def act(self, obs: Observation) -> str:
        return obs.legal_texts[0]


if __name__ == "__main__":
    sys.exit(run(FirstLegal()))
