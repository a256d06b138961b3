"""The search bot's policy: determinized search over sampled deals.

    choose(rules, observation, legal_texts, work, seed) -> one of legal_texts

For every decision it draws deals of the cards it cannot see from
`arena.sdk.belief.Sampler` (consistent with everything the observation
shows), plays each candidate out in every sampled deal and takes the one
with the best mean value (perfect-information Monte Carlo):

- play: each legal card in each sampled deal, then a double-dummy rollout
  with the quick policy of fastplay.py, or an exact alpha-beta search once
  few cards are left;
- auction: in each sampled deal, as declarer (talon taken, two cards given,
  the deal played out) and as an opponent of the likeliest other declarer;
  it bids on while declaring at the next bid is worth more than passing;
- gives and the contract (raise or concede): each candidate played out;
- offers: a redeal or a Czech blind bid is simulated like a bid.

Values come from scoring.py: the totals a deal leaves, the target, the
barrels and bolts. `work` is the number of simulated deals (and rollouts)
per decision: a count, not a time, so the same seed gives the same play on
any machine; `budget` (a `Budget`) only cuts a decision short if the
machine is far slower than expected.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastplay import (
    MARRIAGE_VALUE,
    NONE,
    POINTS,
    QUEEN,
    RANK,
    SUIT,
    Play,
    bits,
    mask_of,
    rollout,
    solve,
)
from fastplay import Rules as PlayRules
from scoring import Scorer

from arena.game import Card, Rules
from arena.sdk.belief import BeliefError, Deal, Sampler

Obs = Mapping[str, Any]
SOLVE_CARDS = 9          # cards left in all hands at or below which play is searched exactly
# Simulated declarers play double dummy (every hand in view), so they make
# more than a real one: when judging a bid or a contract, a simulated
# declarer's points can be taken this much lower. 15 was measured against 0
# (benchmarks/strength.py, paired deals) and did no better: 0 it is.
DECLARER_MARGIN = 0
PLAY_HALVING = False
# Judge a bid by the best of a few contracts it could be raised to (see
# _raises), not by the bid alone.
AUCTION_RAISE = False
_SUITS = "CDHS"


def card_index(text: str) -> int:
    return Card.parse(text).index


def _rng(seed: int, obs: Obs) -> random.Random:
    # One stream per decision, from the bot's seed and the public position.
    key = (seed, obs["deal_number"], len(obs["auction"] or []), len(obs["given"] or []),
           len(obs["tricks"] or []), len(obs["trick"] or []), obs["seat"], obs["phase"])
    return random.Random(repr(key))


@dataclass(frozen=True)
class Budget:
    """When a decision stops short of its `work`: after `cpu_s` seconds of
    this process's CPU time, or at `wall_end` on the monotonic clock.

    CPU time measures the work done, whatever else the machine runs, so a
    busy machine does not cut decisions that an idle one completes: the same
    ARENA_SEED gives the same play under any load (a tournament republishes
    its table). The wall-clock end is the guard against the referee's clock,
    set well past the CPU budget so only a machine many times busier than
    expected reaches it."""

    cpu_end: float
    wall_end: float

    @classmethod
    def start(cls, cpu_s: float, wall_s: float) -> Budget:
        return cls(time.process_time() + cpu_s, time.monotonic() + wall_s)

    def late(self) -> bool:
        return time.process_time() > self.cpu_end or time.monotonic() > self.wall_end


class Context:
    """One decision: the rules, the observation, the sampler and the scorer."""

    def __init__(self, rules: Rules, obs: Obs, work: int, seed: int, budget: Budget) -> None:
        self.rules = rules
        self.obs = obs
        self.work = max(1, work)
        self.budget = budget
        self.rng = _rng(seed, obs)
        self.me = int(obs["seat"])
        self.active = [int(s) for s in obs["active_seats"]]
        self.nxt = [0] * int(obs["players"])
        for i, s in enumerate(self.active):
            self.nxt[s] = self.active[(i + 1) % len(self.active)]
        self.play_rules = PlayRules(rules.must_trump, rules.must_beat, rules.auto_declare,
                                    rules.ace_marriage)
        self.scorer = Scorer(rules, obs)
        self.sampler = Sampler(rules, obs)

    def late(self) -> bool:
        return self.budget.late()

    def deals(self, count: int) -> list[Deal]:
        out = []
        for _ in range(count):
            out.append(self.sampler.sample(self.rng))
            if self.late():
                break
        return out

    def left_of(self, seat: int) -> int:
        return self.nxt[seat]

    def finish(self, p: Play, contract: int, extra: int = 0, blind: bool | None = None) -> float:
        """The seat's value of the finished play `p` (extra: discards' points;
        blind: a blind declarer's stakes, RULES.md §3, by default as observed)."""
        n = len(p.points)
        scores = [p.points[s] + p.bonus[s] for s in range(n)]
        scores[p.declarer] += extra
        if blind is None:
            blind = self.scorer.blind_seat == p.declarer
        new, made, bolts = self.scorer.changes(p.declarer, contract, scores, p.points,
                                               p.tricks_won, blind)
        return self.scorer.value(new, made, p.declarer, bolts)


# ---------------------------------------------------------------- play


def _play_from(ctx: Context, deal: Deal) -> Play:
    obs = ctx.obs
    n = int(obs["players"])
    marriages = [0] * n
    for m in obs["marriages"] or []:
        marriages[int(m["seat"])] += int(m["value"])
    trump = _SUITS.index(obs["trump"]) if obs["trump"] else NONE
    trick = [(int(tc["seat"]), card_index(tc["card"])) for tc in obs["trick"] or []]
    return Play(ctx.play_rules, [mask_of([c.index for c in h]) for h in deal.hands], ctx.nxt,
                int(obs["declarer"]), int(obs["to_act"]), int(obs["leader"]), trick, trump,
                [int(x) for x in obs["points_won"]], marriages,
                [int(x) for x in obs["tricks_won"]], len(obs["tricks"] or []))


def _parse_play(text: str) -> tuple[int, str]:
    parts = text.split()
    return card_index(parts[1]), parts[2] if len(parts) > 2 else ""


def _play_out(ctx: Context, p: Play, contract: int, extra: int) -> float:
    if sum(h.bit_count() for h in p.hands) <= SOLVE_CARDS:
        return solve(p, lambda q: ctx.finish(q, contract, extra), ctx.me, 0)
    return ctx.finish(rollout(p), contract, extra)


def choose_play(ctx: Context, legal: Sequence[str]) -> str:
    plays = [t for t in legal if t.startswith("play ")]
    if len(plays) == 1:
        return plays[0]
    obs = ctx.obs
    contract = int(obs["contract"])
    moves = [_parse_play(t) for t in plays]
    totals = [0.0] * len(moves)
    alive = list(range(len(moves)))
    if PLAY_HALVING and len(moves) > 2:
        # Half the rollouts on every card, the other half on the best few
        # of them: the close choices get more deals for the same work.
        _play_worlds(ctx, moves, alive, totals, max(2, ctx.work // 2 // len(moves)), contract)
        keep = max(2, -(-len(moves) // 3))
        alive = sorted(alive, key=lambda i: (-totals[i], i))[:keep]
        count = max(2, ctx.work // 2 // keep)
    else:
        count = max(2, ctx.work // len(moves))
    _play_worlds(ctx, moves, alive, totals, count, contract)
    best = max(alive, key=lambda i: (totals[i], -i))
    return plays[best]


def _play_worlds(ctx: Context, moves: Sequence[tuple[int, str]], alive: Sequence[int],
                 totals: list[float], count: int, contract: int) -> None:
    """Add to totals[i], for each i in alive, move i's value in `count` new deals."""
    for deal in ctx.deals(count):
        base = _play_from(ctx, deal)
        extra = sum(c.points for c in deal.discarded)
        for i in alive:
            card, declare = moves[i]
            q = base.copy()
            q.play(card, declare)
            totals[i] += _play_out(ctx, q, contract, extra)
        if ctx.late():
            break


# ---------------------------------------------------------------- exchange helpers


def keep_value(card: int, hand: int) -> float:
    """How much a declarer wants to keep `card` (the greedy bot's rule, on masks)."""
    s, r = SUIT[card], RANK[card]
    base = 6 * s
    if r in (2, QUEEN) and hand >> (base + 2) & 1 and hand >> (base + QUEEN) & 1:
        return 100 + MARRIAGE_VALUE[s] / 10
    if r == 0:
        return 60
    if r == 1:
        return 45 if hand >> base & 1 else 20
    mates = bin(hand & (0b111111 << base)).count("1")
    return POINTS[card] + (5 - r) * 0.5 + (3 if mates >= 4 else 0)


def quick_gives(hand: int) -> tuple[int, int]:
    """The two cards a simulated declarer gives away: the least worth keeping."""
    order = sorted(bits(hand), key=lambda c: (keep_value(c, hand), POINTS[c], c))
    return order[0], order[1]


def marriage_cap(hand: int) -> int:
    total = 120
    for s in range(4):
        if hand >> (6 * s + 2) & 1 and hand >> (6 * s + 3) & 1:
            total += MARRIAGE_VALUE[s]
    return total


def _exchanged(ctx: Context, hands: list[int], declarer: int,
               gives: Sequence[tuple[int, int]]) -> list[int]:
    """`hands` after the declarer gives each (card, to) of `gives`."""
    hs = hands[:]
    for card, to in gives:
        hs[declarer] &= ~(1 << card)
        hs[to] |= 1 << card
    return hs


def _first_lead(ctx: Context, hands: list[int], declarer: int) -> Play:
    n = len(hands)
    return rollout(Play(ctx.play_rules, hands, ctx.nxt, declarer, declarer, declarer, [], NONE,
                        [0] * n, [0] * n, [0] * n, 0))


def _declared(ctx: Context, hands: list[int], declarer: int) -> Play:
    """A deal played out by a simulated declarer holding its 10 cards: it
    gives away the two cards least worth keeping, then leads."""
    g1, g2 = quick_gives(hands[declarer])
    left = ctx.left_of(declarer)
    hs = _exchanged(ctx, hands, declarer, [(g1, left), (g2, ctx.left_of(left))])
    return _first_lead(ctx, hs, declarer)


def _masks(deal: Deal) -> list[int]:
    return [mask_of([c.index for c in h]) for h in deal.hands]


# ---------------------------------------------------------------- auction


def _strength(hand: int) -> int:
    """A rough hand value, to guess which other seat would declare."""
    return sum(POINTS[c] for c in bits(hand)) + marriage_cap(hand) - 120


def auction_values(ctx: Context, amounts: Sequence[int],
                   blind: bool = False) -> tuple[list[float], float]:
    """(value of declaring at each amount, value of passing), averaged over
    sampled deals: as declarer with the talon, and as an opponent of the
    strongest other seat still bidding, at one bid step above the current."""
    obs = ctx.obs
    me = ctx.me
    step = ctx.rules.bid_step
    current = int(obs["bid"] or 100)
    in_auction = _still_bidding(obs)
    worlds = ctx.deals(max(4, ctx.work // 2))
    plans = [_raises(ctx, a) if AUCTION_RAISE else [a] for a in amounts]
    # sums[i][j]: declaring at amounts[i], then raising to plans[i][j] where
    # the hand's marriages allow it (else staying at amounts[i]).
    sums = [[0.0] * len(p) for p in plans]
    passing = 0.0
    for deal in worlds:
        hands = _masks(deal)
        talon = mask_of([c.index for c in deal.talon])
        mine = hands[:]
        mine[me] |= talon
        done = _declared(ctx, mine, me)
        cap = max(120, marriage_cap(mine[me]))
        for i, amount in enumerate(amounts):
            for j, raised in enumerate(plans[i]):
                sums[i][j] += ctx.finish(done, raised if raised <= cap else amount,
                                         -DECLARER_MARGIN, blind=blind)
        others = ([s for s in ctx.active if s != me and s in in_auction]
                  or [s for s in ctx.active if s != me])
        rival = max(others, key=lambda s: (_strength(hands[s]), s))
        theirs = hands[:]
        theirs[rival] |= talon
        bid = max(current + (step if rival != obs["bidder"] else 0), 100)
        bid = min(bid, max(120, marriage_cap(theirs[rival])))
        passing += ctx.finish(_declared(ctx, theirs, rival), bid, -DECLARER_MARGIN, blind=False)
        if ctx.late():
            break
    k = max(1, len(worlds))
    return [max(v) / k for v in sums], passing / k


def _raises(ctx: Context, amount: int) -> list[int]:
    """The contracts a declarer at `amount` may raise to that the auction
    weighs: the bid itself, up to three steps above, and what would take
    the seat to the target (the contract is raised after the talon, and
    near the end a bid's worth is the raise it opens)."""
    step = ctx.rules.bid_step
    out = [amount + k * step for k in range(4)]
    need = ctx.rules.target - ctx.scorer.totals[ctx.me]
    need = -(-need // step) * step
    if need > out[-1]:
        out.append(need)
    return out


def _still_bidding(obs: Obs) -> set[int]:
    out = {int(s) for s in obs["active_seats"]}
    for entry in obs["auction"] or []:
        if entry["action"] == "pass":
            out.discard(int(entry["seat"]))
    return out


def choose_bid(ctx: Context, legal: Sequence[str]) -> str:
    bids = sorted((t for t in legal if t.startswith("bid ")), key=lambda t: int(t.split()[1]))
    if not bids or "pass" not in legal:
        return bids[0] if bids else legal[0]
    lowest = int(bids[0].split()[1])
    declare, passing = auction_values(ctx, [lowest])
    return bids[0] if declare[0] > passing else "pass"


# ---------------------------------------------------------------- exchange and contract


def choose_give(ctx: Context, legal: Sequence[str]) -> str:
    """Each of the four cards least worth keeping, given here (the other give
    by the quick rule), played out over sampled deals at the bid."""
    obs = ctx.obs
    gives = [t for t in legal if t.startswith("give ")]
    me = ctx.me
    hand = mask_of([card_index(c) for c in obs["hand"]])
    to = int(gives[0].split()[2])
    first = not obs["given"]
    order = sorted(bits(hand), key=lambda c: (keep_value(c, hand), POINTS[c], c))
    candidates = order[:4]
    contract = int(obs["bid"])
    scores = [0.0] * len(candidates)
    for deal in ctx.deals(max(2, ctx.work // len(candidates))):
        hands = _masks(deal)
        for i, c in enumerate(candidates):
            plan = [(c, to)]
            if first:
                rest = hand & ~(1 << c)
                other = min(bits(rest), key=lambda x: (keep_value(x, rest), POINTS[x], x))
                plan.append((other, ctx.left_of(to)))
            done = _first_lead(ctx, _exchanged(ctx, hands, me, plan), me)
            scores[i] += ctx.finish(done, contract)
        if ctx.late():
            break
    best = candidates[max(range(len(candidates)), key=lambda i: (scores[i], -i))]
    return next(t for t in gives if card_index(t.split()[1]) == best)


def choose_discard(ctx: Context, legal: Sequence[str]) -> str:
    """Exchange = discard (RULES.md §2): lay away the three cards least worth
    keeping; their points count for the declarer."""
    hand = mask_of([card_index(c) for c in ctx.obs["hand"]])

    def cost(t: str) -> float:
        cards = [card_index(x) for x in t.split()[1:]]
        return sum(keep_value(c, hand) - POINTS[c] * 0.5 for c in cards)

    return min((t for t in legal if t.startswith("discard ")), key=lambda t: (cost(t), t))


def choose_contract(ctx: Context, legal: Sequence[str]) -> str:
    obs = ctx.obs
    contracts = [t for t in legal if t.startswith("contract ")]
    amounts = [int(t.split()[1]) for t in contracts]
    values = [0.0] * len(amounts)
    worlds = ctx.deals(max(4, ctx.work))
    for deal in worlds:
        done = _first_lead(ctx, _masks(deal), ctx.me)
        extra = sum(c.points for c in deal.discarded) - DECLARER_MARGIN
        for i, a in enumerate(amounts):
            values[i] += ctx.finish(done, a, extra)
        if ctx.late():
            break
    k = max(1, len(worlds))
    options = [(values[i] / k, t) for i, t in enumerate(contracts)]
    if "concede" in legal:
        new = ctx.scorer.conceded(ctx.me, int(obs["bid"]))
        options.append((ctx.scorer.value(new, False, ctx.me), "concede"))
    return max(options, key=lambda o: o[0])[1]


# ---------------------------------------------------------------- offers


def choose_offer(ctx: Context, legal: Sequence[str]) -> str:
    obs = ctx.obs
    scorer = ctx.scorer
    if "redeal" in legal:
        # Keep the cards if declaring at 100, or defending, beats the totals as
        # they stand (what a fresh deal is worth on average, to a first guess).
        declare, passing = auction_values(ctx, [100])
        standing = scorer.value(scorer.totals, False, None)
        return "pass" if max(declare[0], passing) > standing else "redeal"
    if "blind" in legal and obs["phase"] == "blind":
        # RULES.md §3 vtěmno: 120 unseen, gains and losses double.
        declare, passing = auction_values(ctx, [120], blind=True)
        return "blind" if declare[0] > passing else "pass"
    return fallback(legal)


def lottery_choice(obs: Obs, legal: Sequence[str], seed: int) -> str | None:
    """The Finnish lottery's guess and pick (RULES.md §4), or None for other
    decisions. Guesses lie face down until the pick, and the organiser holds
    both colours (three of the four 9s), so neither side can read the other:
    each picks a colour at random, 50/50, the unexploitable choice (from
    the bot's seed and the position, so the same seed plays the same)."""
    options = [t for t in legal if t.startswith(("guess ", "pick "))]
    if not options:
        return None
    rng = _rng(seed, obs)
    if options[0].startswith("guess "):
        taken = {str(g["color"]) for g in (obs.get("lottery") or {}).get("guesses") or []
                 if int(g["seat"]) != int(obs["seat"])}
        fresh = [t for t in options if t.split()[1] not in taken]
        return (fresh or options)[rng.randrange(len(fresh or options))]
    reds = [t for t in options if t[-1] in "DH"]
    blacks = [t for t in options if t[-1] in "CS"]
    colours = [c for c in (reds, blacks) if c]
    return colours[rng.randrange(len(colours))][0]


def fallback(legal: Sequence[str]) -> str:
    """Side decisions not simulated: run the lottery when offered (it can
    only gain: +100 or nothing for the organiser), else the first option (a
    Finnish blind offer: look at the cards first)."""
    if "lottery" in legal:
        return "lottery"
    if "pass" in legal:
        return "pass"
    return legal[0]


# ---------------------------------------------------------------- entry


def choose(rules: Rules, observation: Obs, legal_texts: Sequence[str], work: int = 200,
           seed: int = 0, budget: Budget | None = None, auction_work: int | None = None) -> str:
    """One legal action, in RULES.md §7 notation, for this observation.
    `work` is the simulated deals of a card play; `auction_work` (default:
    `work`) those of every other decision: the bids, gives, contract and
    offers, a handful per deal, each of which decides a whole deal."""
    legal = list(legal_texts)
    if not legal:
        raise ValueError("choose: no legal actions given")
    if len(legal) == 1:
        return legal[0]
    heads = {t.split()[0] for t in legal}
    lottery = lottery_choice(observation, legal, seed)
    if lottery is not None:
        return lottery
    try:
        ctx = Context(rules, observation,
                      work if "play" in heads or auction_work is None else auction_work, seed,
                      budget if budget is not None else Budget.start(60.0, 60.0))
    except BeliefError:
        # A form the sampler does not cover (the 2-player forms): no search.
        plays = [t for t in legal if t.startswith("play ")]
        return plays[0] if plays else fallback(legal)
    if "play" in heads:
        return choose_play(ctx, legal)
    if "give" in heads:
        return choose_give(ctx, legal)
    if "discard" in heads:
        return choose_discard(ctx, legal)
    if "contract" in heads:
        return choose_contract(ctx, legal)
    if "bid" in heads:
        return choose_bid(ctx, legal)
    return choose_offer(ctx, legal)
