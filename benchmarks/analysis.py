"""Validity and speed of the analysis (arena.analysis, docs/analysis.md).

    .venv/bin/python benchmarks/analysis.py [--matches 6] [--deals 4]
        [--bot-work 64] [--inject 0.15] [--work 32] [--seed 1] [--json FILE]

Matches of a strong bot: the search sample bot in every seat, in process
(the policy function its process calls, from its folder) at --bot-work.
At chosen decisions of seat 0 (each decision with a choice, with
probability --inject, drawn from a generator seeded by --seed) a random
legal action other than the bot's replaces the bot's: a known bad move, in
every part of the deal.

Each injected move's true cost is measured with the strong bot, not with
the analysis's reference policy: in --truth-deals deals drawn consistent
with seat 0's view (the belief sampler, a generator of the benchmark's own),
the deal is played on to its end twice by the search bot in every seat,
once after the bot's own action and once after the injected one; the cost
is the mean difference in seat 0's margin (its total minus the mean of the
others') at the end of the deal, the analysis's own metric.

Then seat 0 of every match is analysed as `arena analyze` does (the
greedy reference, --work deals per decision, no open-hand line), and the
run reports:

- recall: the share of injected moves costing >= 20 points that the
  analysis labels (any label), overall and per part;
- false flags: labels on the unchanged decisions (the bot's own), per 100
  of them;
- speed: decisions analysed per CPU second, and the same work as a ratio
  against a baseline measured in the same run: deals played out per CPU
  second by the greedy policy from the start of a deal (a decision costs
  about work x candidates of them, most of them shorter);
- a SHA-256 of every label, which is the same on any machine for the same
  arguments (the analysis is a function of the replay and its seed).

Goals (issue 36): recall >= 90% for injected moves losing >= 20 points;
<= 2 false flags per 100 decisions; a 10-deal match's seat in <= 60 s on
one core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "sample_bots" / "search"))

import search_policy  # noqa: E402  (the search bot's own module)

from arena.analysis.evaluate import margin  # noqa: E402
from arena.analysis.labels import PART, label  # noqa: E402
from arena.analysis.policies import reference  # noqa: E402
from arena.analysis.replay import Settings, analyse  # noqa: E402
from arena.game import GameState, Rules, new_game  # noqa: E402
from arena.game.actions import Action  # noqa: E402
from arena.referee.replay import REPLAY_VERSION, read_replay  # noqa: E402
from arena.sdk.belief import Sampler  # noqa: E402

COSTLY = 20.0   # points: the injected moves recall is measured on


@dataclass
class Injected:
    match: int
    n: int
    part: str
    bot: str
    played: str
    cost: float


def wire(obs: dict[str, Any]) -> dict[str, Any]:
    """The engine's observation under the protocol's field names (the bot's obs.data)."""
    obs["talon_count"] = obs.pop("talon_size")
    return obs


class Strong:
    """The search bot for every seat of one match."""

    def __init__(self, rules: Rules, seed: int, work: int) -> None:
        self.rules, self.seed, self.work = rules, seed, work
        self.cpu = 0.0
        self.decisions = 0

    def act(self, g: GameState) -> Action:
        legal = g.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = g.to_act
        assert seat is not None
        texts = [str(a) for a in legal]
        start = time.process_time()
        choice = search_policy.choose(self.rules, wire(g.observation(seat).to_dict()), texts,
                                      work=self.work, seed=self.seed * 7 + seat)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return legal[texts.index(choice)]

    def deal_end(self, g: GameState, seat: int) -> float:
        deal = g.deal_number
        while not g.is_over and g.deal_number == deal:
            g = g.apply(self.act(g))
        return margin(g.totals, seat)


def true_cost(g: GameState, action: Action, other: Action, bot: Strong, deals: int,
              rng: random.Random) -> float:
    """What playing `other` for `action` costs seat 0, by the search bot's play
    in deals drawn consistent with seat 0's view."""
    sampler = Sampler(g.rules, g.observation(0).to_dict())
    total = 0.0
    for _ in range(deals):
        state = sampler.state(sampler.sample(rng), seed=rng.getrandbits(63))
        total += bot.deal_end(state.apply(action), 0) - bot.deal_end(state.apply(other), 0)
    return total / deals


def play_match(path: Path, rules: Rules, match: int, seed: int, bot_work: int, inject: float,
               truth_deals: int, rng: random.Random) -> tuple[list[Injected], Strong]:
    """One match with injections at seat 0, its replay written to `path`."""
    bot = Strong(rules, seed, bot_work)
    g = new_game(rules, seed=seed)
    records: list[dict[str, Any]] = [{
        "type": "header", "version": REPLAY_VERSION, "match_id": f"m{match}", "seed": seed,
        "rules": rules.to_dict(),
        "bots": [{"seat": s, "name": "search", "version": "bench"} for s in range(rules.players)]}]
    injected: list[Injected] = []
    while not g.is_over:
        seat = g.to_act
        action = bot.act(g)
        legal = g.legal_actions()
        if seat == 0 and len(legal) > 1 and rng.random() < inject:
            other = rng.choice([a for a in legal if a != action])
            # A generator of its own: the matches are the same whatever the
            # truth's draws, and a kept run (--keep) reuses both.
            cost = true_cost(g, action, other, bot, truth_deals,
                             random.Random(f"truth:{seed}:{len(records) - 1}"))
            injected.append(Injected(match, len(records) - 1, PART[g.phase], str(action),
                                     str(other), cost))
            action = other
        records.append({"type": "action", "n": len(records) - 1, "deal": g.deal_number,
                        "seat": seat, "action": str(action)})
        g = g.apply(action)
    records.append({"type": "result", "totals": list(g.totals)})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return injected, bot


class Clock:
    """The CPU time of each of seat 0's decisions by its action number (the
    analysis's progress call comes after each, forced ones included): what a
    screen of another margin would cost, read from one run's decisions."""

    def __init__(self, mine: list[int]) -> None:
        self.mine = mine
        self.cpu: dict[int, float] = {}
        self.last = time.process_time()

    def __call__(self, done: int, total: int) -> None:
        now = time.process_time()
        self.cpu[self.mine[done - 1]] = now - self.last
        self.last = now


def baseline(rules: Rules, seconds: float = 2.0) -> float:
    """Deals played out per CPU second by the greedy policy, from a deal's start."""
    policy = reference("greedy")
    rng = random.Random(0)
    done = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        g = new_game(rules, seed=seed)
        seed += 1
        while g.deal_number == 1 and not g.is_over:
            g = g.apply(policy(g, rng))
        done += 1
    return done / (time.process_time() - start)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}% ({a}/{b})" if b else "n/a (0)"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--deals", type=int, default=4, help="deals per match (max_deals)")
    ap.add_argument("--bot-work", type=int, default=64, help="the search bot's work")
    ap.add_argument("--inject", type=float, default=0.2, help="share of seat 0's decisions changed")
    ap.add_argument("--work", type=int, default=Settings.work, help="the analysis's deals per decision")
    ap.add_argument("--truth-deals", type=int, default=8,
                    help="deals an injected move's true cost is measured on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--json", type=Path, help="also write the figures and every decision here")
    ap.add_argument("--keep", type=Path, help="keep the matches played (replays and injected moves "
                    "with their costs) in this folder, and reuse those found there: another "
                    "analysis setting measured on the same matches without playing them again")
    ap.add_argument("--policy", default=Settings.policy, help="the analysis's reference policy")
    ap.add_argument("--policy-work", type=int, default=Settings.policy_work)
    ap.add_argument("--confirm", default=Settings.confirm,
                    help="stage 2's stronger reference (none: one stage)")
    ap.add_argument("--confirm-work", type=int, default=Settings.confirm_work)
    ap.add_argument("--screen", type=float, default=Settings.screen,
                    help="points: stage 2 values again a screening loss from here up")
    ap.add_argument("--sigmas", type=float, default=None,
                    help="label only beyond this many standard errors (default: the analysis's)")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.preset).replace(max_deals=args.deals)
    base = baseline(rules)
    injected: list[Injected] = []
    analysed = 0
    analysis_cpu = 0.0
    labels: list[str] = []
    unchanged = flagged_unchanged = confirmed = 0
    hit: dict[tuple[int, int], bool] = {}
    bot_cpu = bot_decisions = 0
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        for m in range(args.matches):
            path = keep / f"m{m}.jsonl"
            kept = keep / f"m{m}.injected.json"
            if kept.is_file() and path.is_file():
                inj = [Injected(**i) for i in json.loads(kept.read_text())]
            else:
                inj, bot = play_match(path, rules, m, args.seed * 1000 + m, args.bot_work,
                                      args.inject, args.truth_deals,
                                      random.Random(f"inject:{args.seed}:{m}"))
                kept.write_text(json.dumps([i.__dict__ for i in inj]))
                bot_cpu += bot.cpu
                bot_decisions += bot.decisions
            injected.extend(inj)
            at = {i.n for i in inj}
            replay = read_replay(path)
            tick = Clock([int(r["n"]) for r in replay.actions if r["seat"] == 0])
            start = time.process_time()
            report = analyse(replay, 0, Settings(
                work=args.work, policy=args.policy, policy_work=args.policy_work, open_hand=False,
                confirm=args.confirm, confirm_work=args.confirm_work, screen=args.screen), tick)
            analysis_cpu += time.process_time() - start
            for d in report["decisions"]:
                confirmed += d["stage"] == 2
                if args.sigmas is not None:
                    d["label"] = label(d["loss"], d["se"], args.sigmas)
                analysed += 1
                labels.append(f"{m}:{d['n']}:{d['label']}")
                if d["n"] in at:
                    hit[(m, d["n"])] = d["label"] is not None
                else:
                    unchanged += 1
                    flagged_unchanged += d["label"] is not None
                rows.append({"match": m, "injected": d["n"] in at, "cpu": tick.cpu.get(d["n"], 0.0), **d})
            print(f"match {m}: {len(report['decisions'])} decisions analysed, {len(inj)} injected",
                  file=sys.stderr)
    costly = [i for i in injected if i.cost >= COSTLY and (i.match, i.n) in hit]
    found = [i for i in costly if hit[(i.match, i.n)]]
    per_second = analysed / analysis_cpu if analysis_cpu else 0.0
    digest = hashlib.sha256("\n".join(labels).encode()).hexdigest()[:16]
    print(f"analysis of {args.matches} matches x {args.deals} deals, search bot at work "
          f"{args.bot_work}, {args.inject:.0%} of seat 0's decisions injected, analysis work "
          f"{args.work}, reference {args.policy}, seed {args.seed}")
    if args.confirm != "none":
        print(f"stage 2: {args.confirm} (work {args.confirm_work}) for screening losses >= "
              f"{args.screen:g} points and the screen's labels: {pct(confirmed, analysed)} "
              "of the decisions")
    print(f"recall (injected moves costing >= {COSTLY:.0f} points, labelled): "
          f"{pct(len(found), len(costly))}")
    for part in ("bidding", "exchange", "contract", "play"):
        c = [i for i in costly if i.part == part]
        print(f"  {part:<9} {pct(sum(hit[(i.match, i.n)] for i in c), len(c))}")
    cheap = [i for i in injected if i.cost < COSTLY and (i.match, i.n) in hit]
    print(f"injected moves costing < {COSTLY:.0f} points labelled: "
          f"{pct(sum(hit[(i.match, i.n)] for i in cheap), len(cheap))}")
    print(f"false flags: {100.0 * flagged_unchanged / max(1, unchanged):.2f} per 100 unchanged "
          f"decisions ({flagged_unchanged}/{unchanged})")
    print(f"speed: {per_second:.2f} decisions analysed per CPU second "
          f"({analysis_cpu / max(1, args.matches):.1f} s per {args.deals}-deal match's seat); "
          f"baseline {base:.0f} greedy deals played out per CPU second; one decision = "
          f"{base / per_second if per_second else 0:.0f} such deals")
    if bot_decisions:
        print(f"search bot: {1000 * bot_cpu / bot_decisions:.1f} ms CPU per decision")
    print(f"labels sha256: {digest}")
    if args.json:
        args.json.write_text(json.dumps({
            "args": {k: str(v) for k, v in vars(args).items()},
            "recall": [len(found), len(costly)], "false_flags": [flagged_unchanged, unchanged],
            "per_second": per_second, "baseline": base, "labels_sha256": digest,
            "injected": [i.__dict__ for i in injected], "decisions": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
