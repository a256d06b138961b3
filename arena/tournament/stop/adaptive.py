"""The adaptive stop of a tournament (`stop = "settled"`): play duplicate
sets only where they still tell something, until neighbours are separated.

The plan is the fixed one (`duplicate_sets` sets of every table); the
adaptive stop plays a part of it, round by round, round r from set r:

* Round 0 plays every table, so every pair of bots has met.
* After each round, one model is fitted to **everything played**: each
  duplicate set of a table (its seat orders on one deal; the independent
  unit) gives, for each pair (a, b) at it, the share of its matches in
  which a finished ahead of b (ties 1/2), and

      share - 1/2 = theta_a - theta_b + noise

  with one strength theta per bot, fitted by least squares (sum of theta
  0), the noise's variance estimated from the residuals (pooled over all
  pairs and units, floored at the shares' rounding variance). Every table
  tells about every pair through the bots they have in common, so a pair
  is judged on all sets, not only on those where the two meet: with four
  bots that is twice the information of their head-to-head sets.
* The bots are ordered by theta. Each pair of neighbours (a above b) is
  tested with Wald's SPRT on the fitted gap d = theta_a - theta_b and its
  variance v: H+ "a is stronger by SETTLE_ELO" against H- "b is stronger
  by SETTLE_ELO" (SETTLE_ELO as a pairwise score: s = 1/(1 + 10^(-Elo/400)),
  gap s - 1/2). The least-squares gap's increments are independent
  (information time, as in Jennison and Turnbull's group-sequential tests),
  so its log-likelihood ratio is LLR = 2 gap d / v and the SPRT's bounds
  hold whenever it is read. The pair is **settled** when LLR >= log((1 -
  a) / a), with a = ALPHA / (number of neighbouring pairs) (Bonferroni
  over the pairs): for neighbours at least SETTLE_ELO apart, the chance
  that the stop reports any of them in the wrong order is at most about
  ALPHA (the normal approximation, and the variance estimated from the
  data, make it approximate; benchmarks/rating_quality.py measures it).
  Neighbours closer than SETTLE_ELO are inside the test's indifference
  zone: their order at the stop is the best guess, nothing more. No pair
  is settled before the residuals have MIN_DOF degrees of freedom (the
  variance is estimated from them).
* The tournament stops when every neighbouring pair is settled, or at the
  last set of the plan. Otherwise the next round plays the fewest tables
  that hold every unsettled neighbouring pair: greedily the table holding
  the most of them, least settled first (lowest LLR), the third seat taken
  in turn (by round) among the tables that hold the pair, so that a pair
  meets different third bots.

Every choice depends only on results of earlier rounds, in a fixed order,
so a resumed tournament makes the same choices, and the same results give
the same tournament.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.tournament.stop import sprt

SETTLE_ELO = 50.0
ALPHA = 0.05
# A unit's share moves in steps of 1/12 (six matches, each 0, 1/2 or 1);
# its rounding variance floors the noise's (bots that never differ).
RESOLUTION = 1.0 / 12.0
MIN_DOF = 20


@dataclass(frozen=True)
class Played:
    """A finished match, as the adaptive stop sees it."""

    match_id: str
    unit: tuple[int, int]           # (set_no, deal seed): its duplicate set
    players: tuple[int, ...]        # bot ids in seat order
    places: tuple[int, ...]


@dataclass(frozen=True)
class Pair:
    above: int
    below: int
    sets: int                       # duplicate sets holding both (direct meetings)
    llr: float
    decision: sprt.Decision | None  # "H1": settled (above is stronger); None: open
    gap: float = 0.0                # fitted theta_above - theta_below (pairwise score - 1/2)
    sd: float = 0.0                 # its standard error


@dataclass(frozen=True)
class Fit:
    """The pooled model's strengths and their covariance, by bot id."""

    theta: dict[int, float]
    cov: dict[tuple[int, int], float]
    dof: int
    noise: float                    # the variance of one unit's share (residuals)

    def gap(self, a: int, b: int) -> tuple[float, float]:
        """theta_a - theta_b and its variance."""
        var = self.cov[a, a] + self.cov[b, b] - 2.0 * self.cov[a, b]
        return self.theta[a] - self.theta[b], max(var, 0.0)


def head_to_head(played: Sequence[Played], a: int, b: int) -> list[float]:
    """a's score against b per duplicate set holding both, in set order."""
    units: dict[tuple[int, int], list[float]] = {}
    for p in played:
        if a in p.players and b in p.players:
            pa, pb = p.places[p.players.index(a)], p.places[p.players.index(b)]
            units.setdefault(p.unit, []).append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
    return [sum(v) / len(v) for _, v in sorted(units.items())]


def observations(played: Sequence[Played]) -> list[tuple[int, int, float]]:
    """(a, b, share of a ahead of b - 1/2) for each pair a < b of each unit."""
    units: dict[tuple[int, int], list[Played]] = {}
    for p in played:
        units.setdefault(p.unit, []).append(p)
    out = []
    for key in sorted(units):
        matches = units[key]
        bots = sorted({b for m in matches for b in m.players})
        for a, b in itertools.combinations(bots, 2):
            scores = head_to_head(matches, a, b)
            if scores:
                out.append((a, b, scores[0] - 0.5))
    return out


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None if singular."""
    n = len(matrix)
    m = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[pivot][c]) < 1e-12:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(played: Sequence[Played], bots: Sequence[int]) -> Fit | None:
    """The least-squares strengths of `bots` (see the module's docstring);
    None while the bots that played are not all connected by tables."""
    ids = list(bots)
    index = {b: i for i, b in enumerate(ids)}
    obs = [(index[a], index[b], y) for a, b, y in observations(played)
           if a in index and b in index]
    n = len(ids)
    # Normal equations X'X theta = X'y, with the constraint sum(theta) = 0
    # added as X'X + 1 1' (X'X's null space is the all-ones vector).
    gram = [[1.0] * n for _ in range(n)]
    rhs = [0.0] * n
    for a, b, y in obs:
        gram[a][a] += 1.0
        gram[b][b] += 1.0
        gram[a][b] -= 1.0
        gram[b][a] -= 1.0
        rhs[a] += y
        rhs[b] -= y
    theta = _solve(gram, rhs)
    if theta is None:
        return None
    inverse = []
    for j in range(n):
        col = _solve(gram, [1.0 if i == j else 0.0 for i in range(n)])
        if col is None:
            return None
        inverse.append(col)
    dof = len(obs) - (n - 1)
    rss = sum((y - (theta[a] - theta[b])) ** 2 for a, b, y in obs)
    noise = max(rss / dof if dof > 0 else math.inf, RESOLUTION * RESOLUTION / 12.0)
    cov = {(ids[i], ids[j]): inverse[j][i] * noise for i in range(n) for j in range(n)}
    return Fit({ids[i]: theta[i] for i in range(n)}, cov, dof, noise)


def bound(neighbours: int) -> float:
    """The upper SPRT bound of one pair: log((1 - a) / a), a = ALPHA / neighbours."""
    a = ALPHA / max(1, neighbours)
    return math.log((1.0 - a) / a)


def pairs(played: Sequence[Played], bots: Sequence[int]) -> list[Pair]:
    """Every neighbouring pair of the current order and its test."""
    model = fit(played, bots)
    if model is None:
        ranked = sorted(bots)
        return [Pair(a, b, len(head_to_head(played, a, b)), 0.0, None)
                for a, b in itertools.pairwise(ranked)]
    ranked = sorted(bots, key=lambda b: (-model.theta[b], b))
    delta = sprt.expected_score(SETTLE_ELO) - 0.5
    high = bound(len(ranked) - 1)
    out = []
    for a, b in itertools.pairwise(ranked):
        d, v = model.gap(a, b)
        value = 2.0 * delta * d / v if v > 0 else 0.0
        decided: sprt.Decision | None = (
            "H1" if model.dof >= MIN_DOF and value >= high else None)
        out.append(Pair(a, b, len(head_to_head(played, a, b)), value, decided, d,
                        math.sqrt(v)))
    return out


def next_tables(tables: Sequence[tuple[int, ...]], open_pairs: Sequence[Pair],
                round_no: int) -> list[tuple[int, ...]]:
    """The tables (bot-id triples) of the next round: each open pair sits at
    one of them (see the module's docstring)."""
    chosen: list[tuple[int, ...]] = []
    todo = [(p.above, p.below) for p in sorted(open_pairs, key=lambda p: p.llr)]

    def holds(t: tuple[int, ...], pair: tuple[int, int]) -> bool:
        return pair[0] in t and pair[1] in t

    while todo:
        first = todo[0]
        candidates = [t for t in tables if holds(t, first) and t not in chosen]
        if not candidates:
            todo.pop(0)
            continue
        best = max(sum(holds(t, q) for q in todo) for t in candidates)
        tied = [t for t in candidates if sum(holds(t, q) for q in todo) == best]
        pick = tied[round_no % len(tied)]
        chosen.append(pick)
        todo = [q for q in todo if not holds(pick, q)]
    return sorted(chosen)
