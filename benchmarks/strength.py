"""Strength of the search sample bot against the greedy one: whole games on
duplicate deals, in-process with the engine (no gRPC: the same policy
functions the bots' processes call, imported from their folders).

    .venv/bin/python benchmarks/strength.py [--games 300] [--work 256]
        [--lines search-vs-greedy:standard ...] [--out results.jsonl] [--speed]

A line is "FOCUS-vs-OTHER:PRESET": one FOCUS bot against two OTHER bots,
each of search, greedy, random (seeded per game and seat) or learned (the
learned sample bot's network, sample_bots/learned, as its PolicyBot plays).
Deals are duplicate: each game seed is played three times, FOCUS in each
seat in turn (the others in the other two), so card luck cancels out; every
seating is one game. Per line it prints the FOCUS bot's first-place share
(a shared first place counts; Wilson 95% interval) and the mean of its final
total minus the mean of the other two (95% interval), with the search bot's
mean and worst time per decision. Each game is appended to --out as it
ends, and a run with the same --out resumes: a partial run still gives
figures. `--speed` first measures the sampler's deals per second and the
rollouts and exact solves per second, against a baseline measured in the
same run (the greedy policy's decisions per second).

`--oracle` measures a bound, not a bot: the search bot is handed the true
deal in place of sampled ones (`--oracle-phases play` or `auction`: only in
the card play, or only in the other decisions), so the same search plays
with every card in view. How far the real bot sits below it is what any
inference about the hidden cards could at most add.

Goals (issue 26): search first in >= 80% of standard games and >= 65% of
czech games against two greedy bots, <= 1 s per decision; greedy first in
<= 5% of games against two search bots.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "sample_bots" / "search"))
sys.path.insert(0, str(ROOT / "sample_bots" / "greedy"))

import fastplay  # noqa: E402  (the search bot's own modules)
import scoring  # noqa: E402
import search_policy  # noqa: E402
from greedy_policy import choose as greedy_choose  # noqa: E402

from arena.env import encoding  # noqa: E402
from arena.game import GameState, Rules, new_game  # noqa: E402
from arena.sdk.belief import Deal, Sampler  # noqa: E402

DEFAULT_LINES = ("search-vs-greedy:standard", "search-vs-greedy:czech",
                 "greedy-vs-search:standard", "greedy-vs-search:czech")
Policy = Callable[[Rules, Mapping[str, Any], Sequence[str]], str]
# --oracle: the search bot is handed the true deal instead of sampled ones,
# so the same search plays with every card in view: a bound on what any
# inference about the hidden cards could add (never a bot: the benchmark
# reads the engine's whole state). --oracle-phases play: only the card play
# sees it; auction: only the other decisions (bids, offers, gives, contract).
ORACLE_NAMES = {1: "every decision", 2: "the card play", 3: "the bids, offers, gives and contract"}
_truth: list[Deal] = []
_sampled_deals = search_policy.Context.deals
_oracle_in: set[str] = set()


def _oracle_deals(self: search_policy.Context, count: int) -> list[Deal]:
    if ("play" if self.obs["phase"] == "play" else "auction") in _oracle_in:
        return list(_truth)
    return _sampled_deals(self, count)


KINDS = ("search", "greedy", "random", "learned")
_learned: list[Any] = []


def learned_choose(obs: Mapping[str, Any], legal: Sequence[Any]) -> int:
    """The learned sample bot's choice (its network over the encoding), as an index of `legal`."""
    if not _learned:
        from arena.env.policy import MLPPolicy

        _learned.append(MLPPolicy.load(ROOT / "sample_bots" / "learned" / "weights.npz"))
    mask = encoding.legal_mask(legal)
    choice = encoding.action_at(_learned[0]({"observation": encoding.encode(obs), "action_mask": mask}))
    return list(legal).index(choice)


def true_deal(g: GameState) -> Deal:
    c = g._c  # the whole truth, as only a referee may see it
    return Deal(hands=tuple(tuple(h) for h in c.hands), talon=tuple(c.talon),
                dealt_talon=tuple(c.dealt_talon), given=tuple(c.given),
                discarded=tuple(c.discarded))


def wire(obs: dict[str, Any]) -> dict[str, Any]:
    """The engine's observation under the protocol's field names (obs.data in the SDK)."""
    obs["talon_count"] = obs.pop("talon_size")
    return obs


def play_game(rules: Rules, seed: int, kinds: Sequence[str], work: int, times: list[float],
              cpu: list[float] | None = None, auction_work: int | None = None,
              declared: list[list[int]] | None = None,
              ) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """One game; kinds[seat] is "search" or "greedy". Returns (totals, places,
    deals); `declared`, if given, gets per seat [deals declared, contracts made]."""
    g = new_game(rules, seed)
    rngs = [random.Random(seed * 7 + s) for s in range(len(kinds))]
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        texts = [str(a) for a in legal]
        if len(texts) == 1:
            g = g.apply(legal[0])
            continue
        obs = wire(g.observation(seat).to_dict())
        if kinds[seat] == "search":
            if _oracle_in:
                _truth[:] = [true_deal(g)]
            start, start_cpu = time.perf_counter(), time.process_time()
            choice = search_policy.choose(rules, obs, texts, work=work, seed=seed * 7 + seat,
                                          auction_work=auction_work)
            times.append(time.perf_counter() - start)
            if cpu is not None:
                cpu.append(time.process_time() - start_cpu)
        elif kinds[seat] == "random":
            choice = texts[rngs[seat].randrange(len(texts))]
        elif kinds[seat] == "learned":
            choice = texts[learned_choose(obs, legal)]
        else:
            choice = greedy_choose(obs, texts)
        g = g.apply(legal[texts.index(choice)])
    if declared is not None:
        declared[:] = [[0, 0] for _ in kinds]
        for d in g.deals:
            if d.declarer is not None:
                declared[d.declarer][0] += 1
                declared[d.declarer][1] += int(bool(d.made))
    return g.totals, g.places, len(g.deals)


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    if not xs:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return (m, m, m)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return (m, m - half, m + half)


def _auction(r: Mapping[str, Any]) -> int:
    """A record's auction work (records from before the flag: the play's work)."""
    return int(r.get("auction_work") or r["work"])


def run_line(line: str, games: int, work: int, out: Path, seed0: int, solve_cards: int,
             auction_work: int, settings: Mapping[str, int]) -> None:
    focus, _, rest = line.partition("-vs-")
    other, _, preset = rest.partition(":")
    rules = Rules.preset(preset)
    search_policy.SOLVE_CARDS = solve_cards
    done = {(r["line"], r["seed"], r["seat"]) for r in load(out)
            if r["work"] == work and r.get("solve_cards", 9) == solve_cards
            and _auction(r) == auction_work and r.get("settings", {}) == settings}
    n_seeds = math.ceil(games / 3)
    for i in range(n_seeds):
        seed = seed0 + i
        for seat in range(3):
            if (line, seed, seat) in done:
                continue
            kinds = [other] * 3
            kinds[seat] = focus
            times: list[float] = []
            cpu: list[float] = []
            start = time.perf_counter()
            declared: list[list[int]] = []
            totals, places, deals = play_game(rules, seed, kinds, work, times, cpu,
                                              auction_work, declared)
            rec = {"line": line, "seed": seed, "seat": seat, "work": work,
                   "auction_work": auction_work, "settings": dict(settings),
                   "solve_cards": solve_cards, "margin": search_policy.DECLARER_MARGIN,
                   "totals": list(totals),
                   "places": list(places), "deals": deals, "declared": declared, "seconds": time.perf_counter() - start,
                   "search_times": [round(t, 5) for t in times],
                   "search_cpu": [round(t, 5) for t in cpu]}
            with out.open("a") as f:
                f.write(json.dumps(rec) + "\n")


def load(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    return [json.loads(x) for x in out.read_text().splitlines() if x.strip()]


def report(out: Path, work: int, lines: Sequence[str], solve_cards: int,
           auction_work: int, settings: Mapping[str, int]) -> None:
    rows = [r for r in load(out) if r["work"] == work and r.get("solve_cards", 9) == solve_cards
            and _auction(r) == auction_work and r.get("settings", {}) == settings]
    print(f"\nwork = {work} simulated deals per card play, {auction_work} per auction, give, "
          f"contract or offer (search bot), exact search from {solve_cards} cards left"
          + "".join(f", {k} = {v}" for k, v in settings.items() if k != "oracle")
          + (f"; ORACLE (a bound, not a bot): the true deal in {ORACLE_NAMES[settings['oracle']]}"
             if "oracle" in settings else ""))
    print("| line | games | focus first | 95% CI | total diff | 95% CI | s/decision mean | worst |"
          " s/game (wall) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line in lines:
        rs = [r for r in rows if r["line"] == line]
        if not rs:
            continue
        firsts = sum(1 for r in rs if r["places"][r["seat"]] == 1)
        lo, hi = wilson(firsts, len(rs))
        diffs = [r["totals"][r["seat"]] - statistics.fmean(
            t for s, t in enumerate(r["totals"]) if s != r["seat"]) for r in rs]
        m, dlo, dhi = mean_ci(diffs)
        # CPU time per decision where recorded (wall time on a loaded machine
        # mostly measures the other jobs), else wall time.
        key = "search_cpu" if all(r.get("search_cpu") for r in rs) else "search_times"
        times = [t for r in rs for t in r[key]]
        mean_t = statistics.fmean(times) if times else 0.0
        worst = max(times) if times else 0.0
        per_game = statistics.fmean(r["seconds"] for r in rs)
        clock = "cpu" if key == "search_cpu" else "wall"
        print(f"| {line} | {len(rs)} | {firsts / len(rs):.1%} | {lo:.1%}-{hi:.1%} | {m:+.0f} | "
              f"{dlo:+.0f}..{dhi:+.0f} | {mean_t:.3f} {clock} | {worst:.3f} {clock} | "
              f"{per_game:.1f} |")
    for line in lines:
        rs = [r for r in rows if r["line"] == line and r.get("declared")]
        if rs:
            focus = [r["declared"][r["seat"]] for r in rs]
            others = [d for r in rs for s, d in enumerate(r["declared"]) if s != r["seat"]]
            print(f"{line}: contracts made, focus bot {_made(focus)}, "
                  f"the others {_made(others)} ({len(rs)} games)")


def _made(declared: Sequence[Sequence[int]]) -> str:
    n = sum(d[0] for d in declared)
    k = sum(d[1] for d in declared)
    return f"{k}/{n} ({k / n:.0%})" if n else "0/0"


def speed() -> None:
    """Sampler deals/s, rollouts/s and exact solves/s on positions of real
    games, against the greedy policy's decisions/s as the baseline."""
    rules = Rules.preset("standard")
    positions = []
    g = new_game(rules, 5)
    rng = random.Random(5)
    while not g.is_over and len(positions) < 300:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        texts = [str(a) for a in legal]
        obs = wire(g.observation(seat).to_dict())
        positions.append((obs, texts))
        g = g.apply(legal[texts.index(greedy_choose(obs, texts))] if rng.random() < 0.9
                    else legal[rng.randrange(len(legal))])
    start = time.perf_counter()
    for obs, texts in positions:
        greedy_choose(obs, texts)
    greedy_rate = len(positions) / (time.perf_counter() - start)
    deals = 0
    start = time.perf_counter()
    for obs, _ in positions:
        s = Sampler(rules, obs)
        for _d in s.deals(20, random.Random(1)):
            deals += 1
    deal_rate = deals / (time.perf_counter() - start)
    plays = [(obs, texts) for obs, texts in positions if obs["phase"] == "play"]
    n_roll = n_solve = 0
    t_roll = t_solve = 0.0
    for obs, _ in plays:
        ctx = search_policy.Context(rules, obs, 1, 0, time.monotonic() + 60)
        deal = ctx.sampler.sample(ctx.rng)
        base = search_policy._play_from(ctx, deal)
        left = sum(bin(h).count("1") for h in base.hands)
        start = time.perf_counter()
        contract = int(obs["contract"])
        if left <= search_policy.SOLVE_CARDS:
            fastplay.solve(base.copy(), lambda q, c=ctx, k=contract: c.finish(q, k), ctx.me, 0)
            t_solve += time.perf_counter() - start
            n_solve += 1
        else:
            ctx.finish(fastplay.rollout(base.copy()), contract)
            t_roll += time.perf_counter() - start
            n_roll += 1
    print(f"baseline: greedy policy {greedy_rate:,.0f} decisions/s")
    print(f"sampler: {deal_rate:,.0f} deals/s (a new sampler per position, 20 deals each; "
          f"{deal_rate / greedy_rate:.2f}x the greedy decision rate)")
    if n_roll:
        rate = n_roll / t_roll
        print(f"rollouts (from a play position to the end of the deal): {rate:,.0f}/s "
              f"({rate / greedy_rate:.2f}x)")
    if n_solve:
        rate = n_solve / t_solve
        print(f"exact solves (<= {search_policy.SOLVE_CARDS} cards left): {rate:,.0f}/s "
              f"({rate / greedy_rate:.2f}x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per line (a multiple of 3)")
    ap.add_argument("--work", type=int, default=256,
                    help="search bot's simulated deals per decision (its own default)")
    ap.add_argument("--lines", nargs="*", default=list(DEFAULT_LINES))
    ap.add_argument("--out", type=Path, default=Path("strength.jsonl"))
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--auction-work", type=int, default=None,
                    help="simulated deals per bid, give, contract or offer (default: --work)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=INT",
                    help="an experiment: set search_policy.NAME (an int constant) for the run")
    ap.add_argument("--solve-cards", type=int, default=search_policy.SOLVE_CARDS,
                    help="search exactly from this many cards left (0: rollouts only)")
    ap.add_argument("--oracle", action="store_true",
                    help="a bound, not a bot: the search bot sees the true deal")
    ap.add_argument("--oracle-phases", choices=("all", "play", "auction"), default="all",
                    help="with --oracle: the decisions that see the true deal")
    ap.add_argument("--speed", action="store_true", help="measure the rates first")
    ap.add_argument("--report", action="store_true", help="only print the table from --out")
    args = ap.parse_args()
    for line in args.lines:
        focus, _, rest = line.partition("-vs-")
        other, _, preset = rest.partition(":")
        if focus not in KINDS or other not in KINDS or focus == other or preset not in Rules.presets():
            print(f"strength.py: bad line {line!r}: want FOCUS-vs-OTHER:PRESET, two of "
                  f"{', '.join(KINDS)}, e.g. search-vs-greedy:standard", file=sys.stderr)
            return 2
    auction_work = args.auction_work or args.work
    settings: dict[str, int] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        module = scoring if name.startswith("scoring.") else search_policy
        const = name.removeprefix("scoring.")
        old = getattr(module, const, None)
        if (not const.isupper() or not isinstance(old, (bool, int, float))
                or not value.lstrip("-").isdigit()):
            print(f"strength.py: bad --set {item!r}: want NAME=INT for a constant of "
                  f"search_policy (or scoring.NAME)", file=sys.stderr)
            return 2
        settings[name] = int(value)
        setattr(module, const, type(old)(int(value)))
    if args.oracle:
        settings["oracle"] = {"all": 1, "play": 2, "auction": 3}[args.oracle_phases]
        _oracle_in.update(("play", "auction") if args.oracle_phases == "all"
                          else (args.oracle_phases,))
        search_policy.Context.deals = _oracle_deals  # type: ignore[method-assign]
    if args.speed:
        speed()
    if not args.report:
        for line in args.lines:
            run_line(line, args.games, args.work, args.out, args.seed, args.solve_cards,
                     auction_work, settings)
    report(args.out, args.work, args.lines, args.solve_cards, auction_work, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
