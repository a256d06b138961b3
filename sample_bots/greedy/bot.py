"""Greedy sample bot: a hand-written heuristic, no search (see greedy_policy.py).

Run by the arena as `python3 bot.py` in this folder; it imports only
`arena.sdk` and its own policy module.
"""

from __future__ import annotations

import sys

from greedy_policy import choose

from arena.sdk import Bot, Observation, run


class Greedy(Bot):
    name = "greedy"
    version = "1.0.0"

    def act(self, obs: Observation) -> str:
        # The policy sees the observation dict and the legal texts only, so
        # the same function is measured in-process against the engine.
        return choose(obs.data, obs.legal_texts)


if __name__ == "__main__":
    sys.exit(run(Greedy()))
