"""Search sample bot: determinized search over deals sampled with
arena.sdk.belief (see search_policy.py).

Run by the arena as `python3 bot.py [--work N]` in this folder; it imports
only `arena.sdk`, the engine (`arena.game`, which the SDK and the
arena-python image carry) and its own modules.

--work N: simulated deals per decision (default 256, the setting its strength
was measured at: docs/bots.md, benchmarks/strength.py). A count, not a time,
so the bot plays the same on any machine for the same ARENA_SEED; its budget
(search_policy.Budget) only cuts a decision short when it has used far more
CPU time than a decision takes here, or when the time left (the decision's
limit and the bank) runs low on the wall clock.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

from search_policy import Budget, choose

from arena.game import Rules
from arena.sdk import Bot, Observation, run
from arena.sdk.belief import rules_from_pb


def seed_of(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Search(Bot):
    name = "search"
    version = "1.2.1"

    def __init__(self, work: int) -> None:
        self.work = work
        self.rules = Rules.preset("standard")
        self.seed = seed_of(os.environ.get("ARENA_SEED") or os.environ.get("ARENA_TOKEN", ""))

    def on_match_start(self, start) -> None:  # type: ignore[no-untyped-def]
        self.rules = rules_from_pb(start.rules)

    def act(self, obs: Observation) -> str:
        # time_limit_s is the per-move time plus the bank left (docs/protocol.md).
        # CPU budget: half the per-move time and a fortieth of the bank (0.75 s
        # under the default control of 1 s + 10 s bank), many times the 26 ms a
        # decision takes on average here (worst 0.65 s): a cut would change the
        # play, so it is measured in CPU time, which a busy machine does not
        # eat. Wall guard: 90% of the per-move time and a quarter of the bank,
        # so a machine too busy to give the bot its CPU still never times out.
        per_move = max(0.0, obs.time_limit_s - obs.bank_left_s)
        cpu = max(0.05, 0.5 * per_move + obs.bank_left_s / 40)
        wall = max(0.05, 0.9 * per_move + obs.bank_left_s / 4)
        return choose(self.rules, obs.data, obs.legal_texts, self.work, self.seed,
                      Budget.start(cpu, wall))


def main() -> int:
    ap = argparse.ArgumentParser(description="search sample bot")
    ap.add_argument("--work", type=int, default=256, help="simulated deals per decision")
    args = ap.parse_args()
    return run(Search(args.work))


if __name__ == "__main__":
    sys.exit(main())
