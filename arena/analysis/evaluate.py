"""One decision, valued from what the deciding seat knew.

For an observation (the seat's, the engine's `Observation.to_dict()`) and
the action it took:

1. draw `work` deals of the cards it could not see, consistent with the
   observation (arena.sdk.belief.Sampler: the hidden cards uniformly over
   what the rules and the play allow);
2. in every drawn deal, apply each legal action and play the deal on to
   its end with the reference policy for every seat (docs/analysis.md);
3. value = the change, from the decision to the end of the deal, of the
   seat's total minus the mean of the other seats' totals (the "margin").

Every candidate is played out in the same drawn deals with the same
rollout generators (common random numbers), so the loss of the action
taken against the best one is a mean of per-deal differences, and its
standard error is that of the differences, far smaller than the spread of
either value.

The generator is seeded by a SHA-256 of the observation and the analysis
seed: the same position gives the same numbers on any machine, and nothing
the seat did not know (the hidden cards, the match seed) reaches them.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.analysis.policies import Reference
from arena.game.actions import Action
from arena.game.rules import Rules
from arena.game.state import GameState
from arena.sdk.belief import BeliefError, Sampler

# A rollout that has not ended its deal after this many actions is a bug
# (a deal has fewer than 60 actions, redeals included), not a long deal.
_MAX_ACTIONS = 400


@dataclass(frozen=True)
class Candidate:
    action: str
    value: float      # mean margin change over the drawn deals


@dataclass(frozen=True)
class Evaluation:
    """The values of one decision. `loss` >= 0: best minus taken, with its
    standard error `se` (of the per-deal differences)."""

    taken: str
    best: str
    loss: float
    se: float
    deals: int
    candidates: tuple[Candidate, ...]


def decision_seed(obs: Mapping[str, Any], seed: int) -> int:
    """64 bits of SHA-256 over the analysis seed and the observation."""
    text = json.dumps(obs, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(f"arena-analysis/1:{seed}:{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def margin(totals: Sequence[int], seat: int) -> float:
    """The seat's total minus the mean of the others'."""
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - sum(others) / len(others)


def rollout(state: GameState, seat: int, policy: Reference, rng: random.Random) -> float:
    """Play `state` to the end of its deal with `policy`; the seat's margin then."""
    deal = state.deal_number
    g = state
    for _ in range(_MAX_ACTIONS):
        if g.is_over or g.deal_number != deal:
            return margin(g.totals, seat)
        g = g.apply(policy(g, rng))
    raise RuntimeError(f"a rollout of deal {deal} did not end within {_MAX_ACTIONS} actions")


def value_actions(states: Sequence[GameState], actions: Sequence[Action], seat: int,
                  policy: Reference, dseed: int) -> list[list[float]]:
    """values[a][i]: action a played out in state i. Rollout i has the same
    generator for every action (common random numbers)."""
    out: list[list[float]] = []
    for action in actions:
        row = []
        for i, state in enumerate(states):
            rng = random.Random(f"{dseed}:{i}")
            row.append(rollout(state.apply(action), seat, policy, rng))
        out.append(row)
    return out


def summarise(texts: Sequence[str], values: Sequence[Sequence[float]], taken: str,
              base: float) -> Evaluation:
    """The best candidate by mean value (ties: the action taken, then the
    legal order) and the taken one's loss against it with its standard error."""
    k = len(values[0])
    means = [sum(row) / k for row in values]
    t = texts.index(taken)
    best = max(range(len(texts)), key=lambda a: (means[a], a == t, -a))
    diffs = [b - x for b, x in zip(values[best], values[t], strict=True)]
    loss = sum(diffs) / k
    if k > 1:
        var = sum((d - loss) ** 2 for d in diffs) / (k - 1)
        se = math.sqrt(var / k)
    else:
        se = 0.0
    return Evaluation(taken, texts[best], _r(loss), _r(se), k,
                      tuple(Candidate(x, _r(m - base)) for x, m in zip(texts, means, strict=True)))


def evaluate(rules: Rules, obs: Mapping[str, Any], taken: str, policy: Reference, *,
             work: int, seed: int) -> Evaluation:
    """Value every legal action of the seat whose observation `obs` is, from
    what it shows only. BeliefError if no deal can be drawn for it."""
    seat = int(obs["seat"])
    dseed = decision_seed(obs, seed)
    sampler = Sampler(rules, obs)
    deals = list(sampler.deals(work, random.Random(dseed)))
    if not deals:
        raise BeliefError("no deal consistent with the observation was drawn")
    # The deals after this one (and a redealt one) come from a seed of each
    # drawn deal's own, so a redeal is valued over many fresh deals.
    states = [sampler.state(d, seed=_later_seed(dseed, i)) for i, d in enumerate(deals)]
    actions = states[0].legal_actions()
    texts = [str(a) for a in actions]
    if taken not in texts:
        raise ValueError(f"the action taken, {taken!r}, is not legal here ({', '.join(texts)})")
    base = margin([int(x) for x in obs["totals"]], seat)
    return summarise(texts, value_actions(states, actions, seat, policy, dseed), taken, base)


def open_hand(state: GameState, taken: str, policy: Reference, seed: int) -> Evaluation:
    """The same values with every card in view: each legal action played
    out once in the real deal (a reference line, not what the seat knew)."""
    seat = state.to_act
    assert seat is not None
    actions = state.legal_actions()
    texts = [str(a) for a in actions]
    dseed = decision_seed(state.observation(seat).to_dict(), seed)
    values = value_actions([state], actions, seat, policy, dseed)
    return summarise(texts, values, taken, margin(state.totals, seat))


def _later_seed(dseed: int, i: int) -> int:
    digest = hashlib.sha256(f"arena-analysis/later:{dseed}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _r(x: float) -> float:
    """Two decimals: the output is compared byte for byte."""
    return round(x, 2) + 0.0  # + 0.0: no "-0.0"
