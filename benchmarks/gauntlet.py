"""Gauntlet: how many duplicate sets the sequential test needs, and how
often it is wrong.

In-process (the rules engine directly, no gRPC, no bot processes), with the
gauntlet's own planning, scoring and test (arena.tournament.gauntlet.sets,
arena.tournament.stop.sprt): the test's behaviour does not depend on transport,
and thousands of games are affordable. Bots: the greedy sample policy,
weakened by a chance `eps` of a uniformly random legal move; each seat's
coins are seeded by the deal, the seat and the seat order.

* greedy (eps 0) against greedy with eps 0.05 (table: C, O, O): sets until
  the test decides, and what it decides, over --seeds gauntlet seeds;
* false positives: greedy against itself, and eps 0.05 against itself (the
  same program on both sides, so H1 "stronger" is a false positive).

    .venv/bin/python benchmarks/gauntlet.py [--seeds 20] [--max-sets 200] [--elo1 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rating_quality import play

from arena.game import Rules
from arena.tournament.gauntlet.sets import Settings, judge, match_score, plan_set
from arena.tournament.stop import sprt


def settings(seed: int, elo1: float) -> Settings:
    return Settings(field=("cand@x", "opp@y"), names=("cand", "opp"), baseline=False, seed=seed,
                    rules_preset="standard", rules_options=(), time_control={}, fault_policy={},
                    limits={}, stop="sprt", elo0=0.0, elo1=elo1, alpha=0.05, beta=0.05)


def one(eps_bot: float, eps_opp: float, seed: int, max_sets: int, elo1: float,
        rules: Rules) -> tuple[str, int, float]:
    """(verdict, sets, mean set score) of one gauntlet."""
    s = settings(seed, elo1)
    scores: list[float] = []
    for set_no in range(max_sets):
        matches = plan_set(s, set_no)
        total = 0.0
        for m in matches:
            places = play(rules, m.seed, [eps_bot if b == 0 else eps_opp for b in m.bots],
                          salt=f":{m.order_no}")
            total += match_score(s, m.bots, places)
        scores.append(total / len(matches))
        v = judge(s, scores, max_sets, len(matches))
        if v.finished:
            return v.verdict, v.state.sets, v.state.mean
    v = judge(s, scores, max_sets, 3)
    return v.verdict, v.state.sets, v.state.mean


def scenario(label: str, eps_bot: float, eps_opp: float, args: argparse.Namespace,
             rules: Rules) -> None:
    outcomes = [one(eps_bot, eps_opp, 5000 + k, args.max_sets, args.elo1, rules)
                for k in range(args.seeds)]
    sets = [o[1] for o in outcomes]
    counts = {v: sum(o[0] == v for o in outcomes) for v in ("stronger", "not stronger", "undecided")}
    score = statistics.mean(o[2] for o in outcomes)
    print(f"{label}: decisions {counts['stronger']} stronger / {counts['not stronger']} not "
          f"stronger / {counts['undecided']} undecided of {args.seeds}; sets until the decision "
          f"median {statistics.median(sets):g} (min {min(sets)}, max {max(sets)}, mean "
          f"{statistics.mean(sets):.1f}); mean set score {score:.3f} "
          f"(elo {sprt.elo_of(score):+.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--max-sets", type=int, default=200)
    parser.add_argument("--elo1", type=float, default=20.0)
    parser.add_argument("--target", type=int, default=500, choices=(500, 1000))
    args = parser.parse_args()
    rules = Rules.preset("standard").replace(target=args.target)
    low, high = sprt.bounds(0.05, 0.05)
    print(f"gauntlet, in-process engine (no gRPC): GSPRT elo0 0, elo1 {args.elo1:g}, alpha = beta"
          f" = 0.05 (LLR bounds {low:.2f}, {high:.2f}), at least {sprt.MIN_SETS} sets, at most "
          f"{args.max_sets}; standard rules, target {args.target}; {args.seeds} seeds each")
    start = time.perf_counter()
    scenario("greedy vs greedy eps 0.05       ", 0.0, 0.05, args, rules)
    scenario("greedy eps 0.05 vs greedy       ", 0.05, 0.0, args, rules)
    scenario("greedy vs itself (false pos.)   ", 0.0, 0.0, args, rules)
    scenario("eps 0.05 vs itself (false pos.) ", 0.05, 0.05, args, rules)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
