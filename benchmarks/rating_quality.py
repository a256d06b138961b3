"""Rating quality: how many duplicate sets until TrueSkill orders bots of
known strength correctly, duplicate seating vs plain random seating.

In-process (the rules engine directly, no gRPC, no processes): the results
do not depend on transport, and this makes thousands of games affordable.
Bots: the greedy sample policy, weakened by a known chance `eps` of playing
a uniformly random legal action instead (eps = 0 is greedy, 1 is random).
True order: lower eps is stronger.

* duplicate: the tournament's own schedule (arena.tournament.schedule.plan):
  every table, all 6 seat orders on one deal seed, per duplicate set.
* random: the same number of games per "set", each a random three of the
  bots in a random seat order on its own random deal.

After each set both are rated with the tournament's TrueSkill settings
(arena.tournament.ratings, match-id order); the score is the number of sets
after which the order by mu - 3 sigma equals the true order and stays so up
to --sets. Repeated over --repeats tournament seeds.

    .venv/bin/python benchmarks/rating_quality.py [--eps 0,0.3,0.6,1] [--sets 20] [--repeats 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from pathlib import Path
from types import ModuleType

from arena.game import Rules, new_game
from arena.tournament import ratings
from arena.tournament.schedule import derive_seed, plan

ROOT = Path(__file__).resolve().parents[1]


def load_policy() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "greedy_policy", ROOT / "sample_bots" / "greedy" / "greedy_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


POLICY = load_policy()


def play(rules: Rules, seed: int, eps: list[float], salt: object = "") -> tuple[int, ...]:
    """One game; returns each seat's place. The bots' coin flips are seeded
    by the deal seed and the seat (and `salt`: say, the seat order, so that
    two copies of one bot do not flip the same coins in every order)."""
    game = new_game(rules, seed=seed)
    coins = [random.Random(f"{seed}:{seat}{salt}") for seat in range(3)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if coins[seat].random() < eps[seat]:
            action = coins[seat].choice(legal)
        else:
            texts = [str(a) for a in legal]
            action = legal[texts.index(POLICY.choose(game.observation(seat).to_dict(), texts))]
        game = game.apply(action)
    return tuple(game.places)


def correct_order(matches: list[ratings.RatedMatch], n: int) -> bool:
    rated, _ = ratings.rate(matches, list(range(n)))
    ranks = ratings.ranks_by(rated)
    return all(ranks[i] == i + 1 for i in range(n))  # bot i is the (i+1)-th strongest


def sets_needed(history: list[bool]) -> int | None:
    """First set count from which the order stays right to the end."""
    for k in range(len(history)):
        if all(history[k:]):
            return k + 1
    return None


def run(eps: list[float], sets: int, seed: int, rules: Rules) -> tuple[int | None, int | None]:
    n = len(eps)
    field = [f"eps{e}" for e in eps]
    schedule = plan(field, sets, seed)
    per_set = len(schedule) // sets
    rng = random.Random(f"random-seating:{seed}")
    dup: list[ratings.RatedMatch] = []
    rnd: list[ratings.RatedMatch] = []
    dup_ok: list[bool] = []
    rnd_ok: list[bool] = []
    for s in range(sets):
        for m in schedule[s * per_set:(s + 1) * per_set]:
            places = play(rules, m.seed, [eps[b] for b in m.bots])
            dup.append(ratings.RatedMatch(m.match_id, (m.set_no, m.table_no), m.bots, places))
        for g in range(per_set):
            bots = tuple(rng.sample(range(n), 3))
            deal = derive_seed(seed, "random-seating", s, g)
            places = play(rules, deal, [eps[b] for b in bots])
            rnd.append(ratings.RatedMatch(f"r{s:03d}-{g:04d}", (s, g), bots, places))
        dup_ok.append(correct_order(dup, n))
        rnd_ok.append(correct_order(rnd, n))
    return sets_needed(dup_ok), sets_needed(rnd_ok)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eps", default="0,0.3,0.6,1", help="random-move chances, strongest first")
    parser.add_argument("--sets", type=int, default=20, help="duplicate sets per tournament")
    parser.add_argument("--repeats", type=int, default=2, help="tournaments (seeds) per seating")
    parser.add_argument("--target", type=int, default=500, choices=(500, 1000))
    args = parser.parse_args()
    eps = sorted(float(e) for e in args.eps.split(","))
    rules = Rules.preset("standard").replace(target=args.target)
    games_per_set = len(plan([str(e) for e in eps], 1, 0))
    print(f"rating quality, in-process engine (no gRPC): bots = greedy with random-move chance "
          f"{', '.join(f'{e:g}' for e in eps)}; standard rules, target {args.target}; "
          f"{games_per_set} games per set, up to {args.sets} sets, {args.repeats} tournaments")
    start = time.perf_counter()
    results: dict[str, list[int | None]] = {"duplicate": [], "random": []}
    for r in range(args.repeats):
        d, x = run(eps, args.sets, 1000 + r, rules)
        results["duplicate"].append(d)
        results["random"].append(x)
        print(f"  tournament seed {1000 + r}: duplicate seating {_fmt(d, args.sets)} sets, "
              f"random seating {_fmt(x, args.sets)} sets")
    for kind, values in results.items():
        known = [v if v is not None else args.sets + 1 for v in values]
        print(f"{kind:9s} seating: sets until the rating order is right and stays right: "
              f"median {statistics.median(known):g} ({', '.join(_fmt(v, args.sets) for v in values)})")
    print(f"({time.perf_counter() - start:.0f} s; '>{args.sets}' = not settled within the run)")


def _fmt(value: int | None, limit: int) -> str:
    return str(value) if value is not None else f">{limit}"


if __name__ == "__main__":
    main()
