"""Rating quality: how many matches until TrueSkill orders bots of close,
known strength correctly, and how often the final order is wrong, for
random seating, duplicate seating with a fixed schedule, and duplicate
seating with the adaptive stop; and the one-pass against the batch fit.

In-process (the rules engine directly, no gRPC, no processes): the results
do not depend on transport, and this makes tens of thousands of games
affordable. Bots: the greedy sample policy, weakened by a known chance `eps`
of playing a uniformly random legal action (eps = 0 is greedy). True order:
lower eps is stronger. Default eps 0, 0.05, 0.10, 0.15: close bots (the
gauntlet benchmark puts greedy about 90 Elo above eps 0.05).

* duplicate, fixed: the tournament's schedule (arena.tournament.plan.schedule.plan):
  every table in all 6 seat orders on one deal seed, per duplicate set.
* random seating: the same number of games per set, each a random three
  of the bots in a random seat order on a deal of its own.
* duplicate, adaptive: the adaptive stop (arena.tournament.stop.adaptive, the
  code `stop = "settled"` runs), on the same planned games as the fixed
  schedule: round r plays the tables it chooses from set r.

Ratings: the published batch fit (ratings.fit), at checkpoints (after 1, 2,
3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30 ... sets). "Sets to the true order":
the first checkpoint from which the order by mu - 3 sigma is right at every
later checkpoint up to --sets. "Wrong": the order at a checkpoint is not
the true one.

Adaptive against fixed: the adaptive stop's mean matches against the
fixed schedule's first checkpoint from which its share of wrong orders
(and every later checkpoint's) is at most the adaptive stop's.

Information bound: the pooled model of the adaptive stop
(adaptive.fit) on all the fixed schedule's games of each tournament gives
each neighbouring pair's gap d and the information I of one set about it;
from them Wald's lower bound on the sets any sequential stop with the
same error needs (even knowing d: an oracle), what the SPRT at
+-SETTLE_ELO needs, and the fixed schedule's predicted error after S sets
(see information_bound).

Online against batch (duplicate, all --sets sets): both fitted on the even
sets, scored on the odd ones by the pairwise log-likelihood of the held-out
finishing orders (for each pair of seats not tied: log P(the one ahead
performs better) = log Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 +
sigma_b^2))), and refitted on 3 random permutations of the same training
matches: how far mu moves and whether the order changes.

    .venv/bin/python benchmarks/rating_quality.py [--eps 0,0.05,0.1,0.15] [--sets 30]
        [--repeats 20] [--workers 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.game import Rules, new_game
from arena.tournament.plan.schedule import derive_seed, plan
from arena.tournament.rating import ratings
from arena.tournament.stop import adaptive

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)


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


def correct(matches: list[ratings.RatedMatch], n: int) -> bool:
    ranks = ratings.ranks_by(ratings.fit(sorted(matches, key=lambda m: m.match_id), range(n)))
    return all(ranks[i] == i + 1 for i in range(n))  # bot i is the (i+1)-th strongest


def settled_from(ok: list[bool]) -> int | None:
    """Index of the first checkpoint from which every later one is right."""
    for k in range(len(ok)):
        if all(ok[k:]):
            return k
    return None


def pairwise_loglik(rating: dict[int, ratings.Rating], matches: list[ratings.RatedMatch]) -> float:
    """Mean log-likelihood per held-out pair of seats (see the docstring)."""
    total, pairs = 0.0, 0
    for m in matches:
        for i in range(3):
            for j in range(3):
                if m.places[i] < m.places[j]:
                    a, b = rating[m.players[i]], rating[m.players[j]]
                    z = (a.mu - b.mu) / math.sqrt(2 * ratings.BETA**2 + a.sigma**2 + b.sigma**2)
                    total += math.log(0.5 * math.erfc(-z / math.sqrt(2)))
                    pairs += 1
    return total / pairs


def one_tournament(eps: list[float], sets: int, seed: int, target: int) -> dict[str, Any]:
    rules = Rules.preset("standard").replace(target=target)
    n = len(eps)
    schedule = plan([f"eps{e}" for e in eps], sets, seed)
    per_set = len(schedule) // sets
    by_set: dict[int, list[Any]] = {}
    for m in schedule:
        by_set.setdefault(m.set_no, []).append(m)
    cache: dict[str, ratings.RatedMatch] = {}

    def dup(m: Any) -> ratings.RatedMatch:
        if m.match_id not in cache:
            places = play(rules, m.seed, [eps[b] for b in m.bots])
            cache[m.match_id] = ratings.RatedMatch(m.match_id, (m.set_no, m.seed), m.bots, places)
        return cache[m.match_id]

    rng = random.Random(f"random-seating:{seed}")
    rnd: list[ratings.RatedMatch] = []
    points = [c for c in CHECKPOINTS if c <= sets]
    dup_ok, rnd_ok = [], []
    for s in range(sets):
        for m in by_set[s]:
            dup(m)
        for g in range(per_set):
            bots = tuple(rng.sample(range(n), 3))
            places = play(rules, derive_seed(seed, "random-seating", s, g), [eps[b] for b in bots])
            rnd.append(ratings.RatedMatch(f"r{s:03d}-{g:04d}", (s, g), bots, places))
        if s + 1 in points:
            dup_ok.append(correct(list(cache.values()), n))
            rnd_ok.append(correct(rnd, n))

    # The adaptive stop on the same planned games.
    played: list[ratings.RatedMatch] = [dup(m) for m in by_set[0]]
    rounds = 1
    for r in range(1, sets):
        view = [adaptive.Played(m.match_id, m.unit, m.players, m.places) for m in played]
        open_pairs = [p for p in adaptive.pairs(view, list(range(n))) if p.decision is None]
        if not open_pairs:
            break
        triples = sorted({tuple(sorted(m.bots)) for m in by_set[r]})
        chosen = set(adaptive.next_tables(triples, open_pairs, r))
        played += [dup(m) for m in by_set[r] if tuple(sorted(m.bots)) in chosen]
        rounds = r + 1

    # What one set tells: the pooled model on all the fixed schedule's games
    # (the information bound in the report).
    pooled = adaptive.fit([adaptive.Played(m.match_id, m.unit, m.players, m.places)
                           for m in cache.values()], list(range(n)))
    assert pooled is not None
    gaps = [pooled.gap(i, i + 1) for i in range(n - 1)]

    # Online against batch, on the fixed schedule's games.
    train = [m for m in cache.values() if m.unit[0] % 2 == 0]
    test = [m for m in cache.values() if m.unit[0] % 2 == 1]
    online = ratings.rate_online(train, range(n))[0]
    batch = ratings.fit(sorted(train, key=lambda m: m.match_id), range(n))
    moved = {"online": 0.0, "batch": 0.0}
    flips = {"online": 0, "batch": 0}
    for k in range(3):
        shuffled = train[:]
        random.Random(k).shuffle(shuffled)
        # rate_online applies in id order: renumber to make it apply the permutation.
        renumbered = [ratings.RatedMatch(f"p{i:06d}", m.unit, m.players, m.places)
                      for i, m in enumerate(shuffled)]
        for kind, base, again in (
                ("online", online, ratings.rate_online(renumbered, range(n))[0]),
                ("batch", batch, ratings.fit(shuffled, range(n)))):
            moved[kind] = max(moved[kind], max(abs(base[p].mu - again[p].mu) for p in base))
            flips[kind] += ratings.ranks_by(base) != ratings.ranks_by(again)
    return {
        "seed": seed, "per_set": per_set, "points": points, "dup_ok": dup_ok, "rnd_ok": rnd_ok,
        "adaptive_matches": len(played), "adaptive_sets": rounds,
        "adaptive_ok": correct(played, n),
        "ll_online": pairwise_loglik(online, test) if test else float("nan"),
        "ll_batch": pairwise_loglik(batch, test) if test else float("nan"),
        "moved": moved, "flips": flips,
        # per neighbouring pair (true order): the gap, and the information of one set
        "gaps": [g for g, _ in gaps], "info_per_set": [1.0 / (sets * v) for _, v in gaps],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--eps", default="0,0.05,0.1,0.15", help="random-move chances")
    parser.add_argument("--sets", type=int, default=30, help="duplicate sets per tournament")
    parser.add_argument("--repeats", type=int, default=20, help="tournaments (seeds)")
    parser.add_argument("--target", type=int, default=500, choices=(500, 1000))
    parser.add_argument("--workers", type=int, default=2, help="processes (one seed each)")
    parser.add_argument("--out", default="", help="append each tournament's figures (JSON lines)")
    parser.add_argument("--summarize", default="", help="only report on an --out file")
    parser.add_argument("--reverse", action="store_true", help="play the seeds last first")
    args = parser.parse_args()
    eps = sorted(float(e) for e in args.eps.split(","))
    per_set = len(plan([str(e) for e in eps], 1, 0))
    print(f"rating quality, in-process engine (no gRPC): bots = greedy with random-move chance "
          f"{', '.join(f'{e:g}' for e in eps)}; standard rules, target {args.target}; "
          f"{per_set} games per set, up to {args.sets} sets, {args.repeats} tournament seeds; "
          f"adaptive stop: SPRT on the pooled fit's neighbour gaps, +-{adaptive.SETTLE_ELO:g} Elo, "
          f"alpha {adaptive.ALPHA:g} over the pairs")
    start = time.perf_counter()
    if args.summarize:
        with open(args.summarize, encoding="utf-8") as f:
            # by seed: two runs (one --reverse) may have played a seed each
            by_seed = {r["seed"]: r for r in map(json.loads, filter(str.strip, f))}
        results = [by_seed[k] for k in sorted(by_seed)]
        print(f"(from {args.summarize}: {len(results)} tournaments)")
        report(results, results[0]["points"], per_set, args.sets)
        return
    seeds = [1000 + r for r in range(args.repeats)]
    if args.reverse:  # a second run from the other end, merged with --summarize
        seeds.reverse()
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = [pool.submit(one_tournament, eps, args.sets, s, args.target) for s in seeds]
        for future in as_completed(futures):
            results.append(future.result())
            if args.out:  # one JSON line per tournament as it finishes (--summarize reads them)
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(results[-1]) + "\n")
    results.sort(key=lambda r: r["seed"])
    points = results[0]["points"]
    report(results, points, per_set, args.sets)
    print(f"({time.perf_counter() - start:.0f} s with {args.workers} worker processes)")


def report(results: list[dict[str, Any]], points: list[int], per_set: int, sets: int) -> None:
    k = len(results)
    print("\nwrong order (share of tournaments) after S sets, batch fit:")
    print("  S      matches  random seating  duplicate fixed")
    for i, s in enumerate(points):
        rnd = sum(not r["rnd_ok"][i] for r in results) / k
        dup = sum(not r["dup_ok"][i] for r in results) / k
        print(f"  {s:<6d} {s * per_set:<8d} {rnd:<15.2f} {dup:.2f}")
    for kind in ("rnd_ok", "dup_ok"):
        needed = []
        for r in results:
            at = settled_from(r[kind])
            needed.append(points[at] * per_set if at is not None else None)
        known = [x if x is not None else (sets + 1) * per_set for x in needed]
        label = "random seating " if kind == "rnd_ok" else "duplicate fixed"
        print(f"{label}: matches until the order is right and stays right: median "
              f"{statistics.median(known):g} ({sum(x is None for x in needed)} of {k} not "
              f"within {sets} sets)")
    matches = [r["adaptive_matches"] for r in results]
    wrong = sum(not r["adaptive_ok"] for r in results) / k
    print(f"duplicate adaptive: stops after mean {statistics.mean(matches):.0f} matches "
          f"(median {statistics.median(matches):g}, min {min(matches)}, max {max(matches)}; "
          f"mean {statistics.mean(r['adaptive_sets'] for r in results):.1f} rounds); "
          f"wrong order at the stop: {wrong:.2f}")
    fixed = [(s, sum(not r["dup_ok"][i] for r in results) / k) for i, s in enumerate(points)]
    # The fixed schedule's first checkpoint whose error (and every later one's) is at most
    # the adaptive stop's: the matches it needs for the same or a lower error rate.
    same = next((s for i, (s, _) in enumerate(fixed)
                 if all(e <= wrong for _, e in fixed[i:])), None)
    if same is None:
        print(f"  the fixed schedule does not reach an error of {wrong:.2f} within {sets} sets")
    else:
        ratio = statistics.mean(matches) / (same * per_set)
        print(f"  the fixed schedule reaches that error rate (and stays there) from {same} sets "
              f"= {same * per_set} matches: adaptive / fixed = {ratio:.2f}")
    if all("gaps" in r for r in results):
        information_bound(results, per_set)
    ll_on = statistics.mean(r["ll_online"] for r in results)
    ll_ba = statistics.mean(r["ll_batch"] for r in results)
    better = sum(r["ll_batch"] > r["ll_online"] for r in results)
    print(f"online vs batch TrueSkill (train: even sets, test: odd sets): held-out pairwise "
          f"log-likelihood online {ll_on:.4f}, batch {ll_ba:.4f} per pair (batch higher in "
          f"{better} of {k})")
    for kind in ("online", "batch"):
        moved = max(r["moved"][kind] for r in results)
        flips = sum(r["flips"][kind] for r in results)
        print(f"  {kind:6s}: same matches in 3 other orders: largest mu change {moved:.2g}, "
              f"ranking changed in {flips} of {3 * k} refits")


def information_bound(results: list[dict[str, Any]], per_set: int) -> None:
    """How few matches any stop could need, from what one set tells.

    The pooled model's gap d of each neighbouring pair (true order) and the
    information I of one set of the fixed schedule about it (1 / variance),
    averaged over the tournaments. Wald's bound: a sequential test that
    tells +d from -d with error a needs, on average at the truth, at least
    (1 - 2a) log((1 - a) / a) / (2 d^2 I) sets, even knowing d and the noise
    (an oracle). The SPRT at +-SETTLE_ELO (gap D) drifts at 2 D d I per set,
    so it needs about log((1 - a) / a) / (2 D d I). The fixed schedule's
    point order after S sets is wrong with about 1 - prod Phi(d sqrt(S I))."""
    pairs_n = len(results[0]["gaps"])
    a = adaptive.ALPHA / pairs_n
    wald = (1 - 2 * a) * math.log((1 - a) / a)
    big = adaptive.sprt.expected_score(adaptive.SETTLE_ELO) - 0.5
    print("\ninformation bound (pooled model on all the fixed schedule's games, mean over "
          "tournaments), per neighbouring pair in the true order:")
    d_all, i_all = [], []
    for p in range(pairs_n):
        d = statistics.mean(r["gaps"][p] for r in results)
        info = statistics.mean(r["info_per_set"][p] for r in results)
        d_all.append(d)
        i_all.append(info)
        print(f"  pair {p + 1}-{p + 2}: gap {d:.4f} (pairwise score {0.5 + d:.3f}, "
              f"{adaptive.sprt.elo_of(0.5 + d):.0f} Elo), one set: z = d sqrt(I) = "
              f"{d * math.sqrt(info):.2f}; oracle bound {wald / (2 * d * d * info):.2f} sets, "
              f"SPRT at +-{adaptive.SETTLE_ELO:g} Elo about "
              f"{math.log((1 - a) / a) / (2 * big * d * info):.2f} sets")
    worst = max(wald / (2 * d * d * i) for d, i in zip(d_all, i_all, strict=True))
    sprt_worst = max(math.log((1 - a) / a) / (2 * big * d * i)
                     for d, i in zip(d_all, i_all, strict=True))
    print(f"  any stop with error {adaptive.ALPHA:g} over the pairs needs at least "
          f"{worst * per_set:.0f} matches on average (oracle, the slowest pair alone); "
          f"the SPRT at +-{adaptive.SETTLE_ELO:g} Elo about {sprt_worst * per_set:.0f} for the "
          "slowest pair alone, before the first round's whole set, the looks' overshoot and "
          "the wait for every pair")
    for s in (1, 2, 3, 4, 5, 6, 8):
        ok = math.prod(0.5 * math.erfc(-d * math.sqrt(s * i) / math.sqrt(2))
                       for d, i in zip(d_all, i_all, strict=True))
        print(f"  fixed schedule, {s} sets ({s * per_set} matches): order wrong with about "
              f"{1 - ok:.3f} (normal model)")


if __name__ == "__main__":
    main()
