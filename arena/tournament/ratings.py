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

The published ratings are a **batch fit** over all finished matches at once
(`fit`): expectation propagation through every match, as TrueSkill Through
Time does with a skill that does not drift (tau = 0). Each match keeps the
message it last sent to each of its players; a pass visits every match,
divides its old message out of the players' current ratings (the cavity),
runs the TrueSkill update of that one match on the cavity and keeps the
new message. Passes repeat until no mu or sigma moves by more than
FIT_TOLERANCE. The fixed point is a property of the set of results, not of
an order: the table is the same whatever order the matches finished (or
are listed) in, and an early match weighs as much as a late one. The
classic one-pass update (`rate_online`) judges each match against the
ratings of the matches before it, so a permutation of the same results
gives another table; benchmarks/rating_quality.py compares the two.

The rating history (the leaderboard's chart) is the one-pass update in
match-id order: how the ratings moved as results came in. The bootstrap
intervals refit each resample with the one-pass update too (200 batch fits
per table would take minutes); see docs/tournaments.md, "Ratings".
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
    """Ratings of `players` from `matches` (the batch fit, any order), and
    the history rows (bot_id, step, match_id, mu, sigma) of the one-pass
    update in match-id order."""
    _online, history = rate_online(matches, players)
    # The fit's fixed point does not depend on the order (to ~1e-7); the
    # canonical order makes the published table the same to the last bit.
    return fit(sorted(matches, key=lambda m: m.match_id), players), history


# The batch fit stops when a pass moves no mu or sigma by more than this
# (the table shows 0.01; two orders then agree far below that), or after
# FIT_PASSES passes (measured: 4 to 12 passes on tournaments of 4-8 bots).
FIT_TOLERANCE = 1e-7
FIT_PASSES = 200


def fit(matches: Sequence[RatedMatch], players: Sequence[int]) -> dict[int, Rating]:
    """TrueSkill fitted over all `matches` at once (expectation propagation;
    see the module's docstring). A player without matches keeps the prior."""
    env = environment()
    prior = (1.0 / SIGMA**2, MU / SIGMA**2)            # (precision, precision * mean)
    post = dict.fromkeys(players, prior)
    for m in matches:
        for p in m.players:
            post.setdefault(p, prior)
    messages: list[list[tuple[float, float]]] = [[(0.0, 0.0)] * len(m.players)
                                                 for m in matches]
    for _ in range(FIT_PASSES):
        moved = 0.0
        for k, m in enumerate(matches):
            cavity = [(post[p][0] - msg[0], post[p][1] - msg[1])
                      for p, msg in zip(m.players, messages[k], strict=True)]
            groups = [(env.create_rating(mu=tau / pi, sigma=math.sqrt(1.0 / pi)),)
                      for pi, tau in cavity]
            rated = env.rate(groups, ranks=[place - 1 for place in m.places])
            for i, (p, (r,)) in enumerate(zip(m.players, rated, strict=True)):
                pi = 1.0 / r.sigma**2
                new = (pi, r.mu * pi)
                old_pi, old_tau = post[p]
                moved = max(moved, abs(r.mu - old_tau / old_pi),
                            abs(r.sigma - math.sqrt(1.0 / old_pi)))
                messages[k][i] = (pi - cavity[i][0], new[1] - cavity[i][1])
                post[p] = new
        if moved <= FIT_TOLERANCE:
            break
        _recentre(post, messages, matches, prior)
    return {p: Rating(post[p][1] / post[p][0], math.sqrt(1.0 / post[p][0])) for p in players}


def _recentre(post: dict[int, tuple[float, float]], messages: list[list[tuple[float, float]]],
              matches: Sequence[RatedMatch], prior: tuple[float, float]) -> None:
    """Move the ratings' common level to where the fixed point has it.

    A match's factor depends only on differences of skill, so from a
    message's moment matching sum_p (tau_msg - pi_msg mu_p) = 0 per match,
    and at the fixed point, summed over all messages, the mean of all mu is
    MU. Plain passes reach that level only at the rate the weak prior pulls
    (about 1% a pass in a tournament of a few hundred matches), while the
    differences settle in a few passes; shifting every message's mean by c
    moves each mu by c (P - pi0) / P, which solves for the level in one
    step. The fixed point is unchanged (c = 0 there)."""
    pi0 = prior[0]
    gain = sum((pi - pi0) / pi for pi, _ in post.values()) / len(post)
    if gain <= 0.0:
        return
    c = (MU - sum(tau / pi for pi, tau in post.values()) / len(post)) / gain
    for k in range(len(matches)):
        messages[k] = [(pi, tau + c * pi) for pi, tau in messages[k]]
    for p, (pi, tau) in post.items():
        post[p] = (pi, tau + c * (pi - pi0))


def rate_online(
    matches: Sequence[RatedMatch], players: Sequence[int],
) -> tuple[dict[int, Rating], list[tuple[int, int, str, float, float]]]:
    """The classic one-pass TrueSkill update, matches applied in match-id
    order, and its history rows (bot_id, step, match_id, mu, sigma)."""
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
