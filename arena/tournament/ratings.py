"""TrueSkill ratings from finishing orders, and a bootstrap interval for ranks.

Parameters (justified in docs/tournaments.md, "Ratings"):

* mu0 = 25, sigma0 = 25/3: the usual scale, so the conservative rating
  mu - 3 sigma starts at 0.
* beta = sigma0 = 8.33 (twice TrueSkill's default 4.17). beta is the skill
  gap at which the better player finishes ahead about 76% of the time. A
  game of 1000 is decided by a few contracts and its card luck is large:
  in the sample tournament greedy finished ahead of the simple JavaScript
  heuristic in 19 of 24 pairings (79%), so two heuristics of clearly
  different quality are about one "luck unit" apart; beta = sigma0 puts
  that unit at the size of the prior uncertainty. With the default beta,
  single upsets would move ratings about twice as far and sigma would
  claim a precision the results do not have.
* draw_probability = 0.005: two seats tie only on equal final totals, and
  totals move in steps of 5 or 10 over a spread of hundreds of points.
  Measured with the engine (greedy/weakened/random bots): 1 tied neighbour
  pair in 600 at target 500, 1 in 300 at target 1000, none in the 48
  matches of the sample tournament; 0.005 rounds that up so a rare tie is
  not treated as nearly impossible.
* tau = 0: a bot version is a fixed program whose skill does not drift, so
  there is no reason to keep its sigma from shrinking. (A changed bot is a
  new version with a fresh rating.)

Results are applied in match-id order (set, table, seat order), never in the
order they finished, so the table depends only on the results.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import trueskill

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA
TAU = 0.0
DRAW_PROBABILITY = 0.005


def environment() -> trueskill.TrueSkill:
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU,
                               draw_probability=DRAW_PROBABILITY, backend=None)


@dataclass(frozen=True)
class RatedMatch:
    """What the ratings need from one finished match."""

    match_id: str
    unit: Hashable              # the duplicate set it belongs to (bootstrap unit)
    players: tuple[int, ...]    # bot ids in seat order
    places: tuple[int, ...]     # place per seat, 1 = first, ties share a place


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


def rate(
    matches: Sequence[RatedMatch], players: Sequence[int],
) -> tuple[dict[int, Rating], list[tuple[int, int, str, float, float]]]:
    """Ratings of `players` after `matches` (applied in match-id order), and
    the history rows (bot_id, step, match_id, mu, sigma)."""
    env = environment()
    current = {p: env.create_rating() for p in players}
    steps = dict.fromkeys(players, 0)
    history: list[tuple[int, int, str, float, float]] = []
    for m in sorted(matches, key=lambda m: m.match_id):
        _apply(env, current, m.players, m.places)
        for p in m.players:
            steps[p] += 1
            history.append((p, steps[p], m.match_id, current[p].mu, current[p].sigma))
    return {p: Rating(r.mu, r.sigma) for p, r in current.items()}, history


def _apply(env: trueskill.TrueSkill, current: dict[int, trueskill.Rating],
           players: Sequence[int], places: Sequence[int]) -> None:
    groups = [(current[p],) for p in players]
    # trueskill ranks: lower is better, equal ranks are a draw (RULES.md §1 ties).
    rated = env.rate(groups, ranks=[place - 1 for place in places])
    for p, (r,) in zip(players, rated, strict=True):
        current[p] = r


def _order(ratings: dict[int, Rating]) -> list[int]:
    """Best first: by conservative rating, then mu, then id."""
    return sorted(ratings, key=lambda p: (-ratings[p].conservative, -ratings[p].mu, p))


def ranks_by(ratings: dict[int, Rating]) -> dict[int, int]:
    """1-based rank by conservative rating (ties broken by mu, then id)."""
    return {p: i + 1 for i, p in enumerate(_order(ratings))}


# Ratings closer than this (half the 0.01 the leaderboard shows) are a tie:
# TrueSkill's iterative solver leaves bots with identical results a few
# 1e-5 apart.
TIE = 0.005


def rank_spans(ratings: dict[int, Rating]) -> dict[int, tuple[int, int]]:
    """Each bot's ranks as (best, worst): bots rated alike (within TIE) share
    the span of their places instead of being split by id."""
    order = _order(ratings)

    def alike(a: int, b: int) -> bool:
        return (abs(ratings[a].conservative - ratings[b].conservative) < TIE
                and abs(ratings[a].mu - ratings[b].mu) < TIE)

    spans: dict[int, tuple[int, int]] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and alike(order[j + 1], order[j]):
            j += 1
        for p in order[i:j + 1]:
            spans[p] = (i + 1, j + 1)
        i = j + 1
    return spans


def bootstrap_rank_intervals(
    matches: Sequence[RatedMatch], players: Sequence[int], samples: int, seed: int,
) -> dict[int, tuple[int, int]]:
    """A 95% interval for each bot's rank: resample the duplicate sets with
    replacement, rate each resample, take the 2.5% and 97.5% rank quantiles.
    Bots tied in a resample count with every rank they share. With fewer than
    two duplicate sets to resample there is no interval to estimate: every
    rank is possible (1 to n), rather than a point that looks certain."""
    units: dict[Hashable, list[RatedMatch]] = {}
    for m in sorted(matches, key=lambda m: m.match_id):
        units.setdefault(m.unit, []).append(m)
    if samples <= 0 or not matches:
        spans = rank_spans(rate(matches, players)[0])
        return {p: spans[p] for p in players}
    if len(units) < 2:
        return {p: (1, len(players)) for p in players}
    keys = sorted(units, key=repr)
    rng = random.Random(seed)
    seen: dict[int, list[int]] = {p: [] for p in players}
    for _ in range(samples):
        chosen = sorted(rng.randrange(len(keys)) for _ in keys)
        env = environment()
        current = {p: env.create_rating() for p in players}
        for index in chosen:
            for m in units[keys[index]]:
                _apply(env, current, m.players, m.places)
        spans = rank_spans({p: Rating(r.mu, r.sigma) for p, r in current.items()})
        for p in players:
            seen[p].extend(spans[p])
    return {p: rank_quantiles(values) for p, values in seen.items()}


def rank_quantiles(values: Sequence[int]) -> tuple[int, int]:
    """The 2.5% and 97.5% quantiles (nearest rank, outward) of bootstrap ranks."""
    ordered = sorted(values)
    last = len(ordered) - 1
    return ordered[math.floor(0.025 * last)], ordered[math.ceil(0.975 * last)]
