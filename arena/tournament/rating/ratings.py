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
per table would take minutes), all resamples at once; see
docs/tournaments.md, "Ratings".

Every match's update is arena.tournament.rating.trueskill_math's: the library's own
schedule and numbers (to the last bit) at a fraction of its cost;
`environment()` stays the model's definition and the tests' reference.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import trueskill

from arena.tournament.rating import trueskill_math as skill

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA
TAU = 0.0
DRAW_PROBABILITY = 0.005


def environment() -> trueskill.TrueSkill:
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU,
                               draw_probability=DRAW_PROBABILITY, backend=None)


# The same update as environment().rate, run by arena.tournament.rating.trueskill_math
# (the library's own code is the reference its tests compare with).
MODEL = skill.Model(beta=BETA, tau=TAU, draw_margin=trueskill.calc_draw_margin(
    DRAW_PROBABILITY, 2, environment()))


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
            rated = skill.rate_match(MODEL, [(tau / pi, math.sqrt(1.0 / pi)) for pi, tau in cavity],
                                     m.places)
            for i, (p, raw) in enumerate(zip(m.players, rated, strict=True)):
                r_mu, r_sigma = skill.readback(*raw)
                pi = 1.0 / r_sigma**2
                new = (pi, r_mu * pi)
                old_pi, old_tau = post[p]
                moved = max(moved, abs(r_mu - old_tau / old_pi),
                            abs(r_sigma - math.sqrt(1.0 / old_pi)))
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
    current = dict.fromkeys(players, (MU, SIGMA))      # as given to a trueskill.Rating
    steps = dict.fromkeys(players, 0)
    history: list[tuple[int, int, str, float, float]] = []
    for m in sorted(matches, key=lambda m: m.match_id):
        rated = skill.rate_match(MODEL, [current[p] for p in m.players], m.places)
        for p, raw in zip(m.players, rated, strict=True):
            current[p] = raw
            steps[p] += 1
            history.append((p, steps[p], m.match_id, *skill.readback(*raw)))
    return {p: Rating(*skill.readback(*raw)) for p, raw in current.items()}, history


def rate_block(current: dict[int, Rating], matches: Sequence[RatedMatch],
               tau: float) -> dict[int, Rating]:
    """A ladder's update by one finished duplicate block (`matches`, every
    seat order of one table on one deal): each player's skill first drifts
    by `tau` once (its sigma widened to sqrt(sigma^2 + tau^2), TrueSkill's
    dynamic, applied per block rather than per match, since the block is the
    unit of play), then the block's matches are applied one pass, in
    match-id order. A player without a rating starts at the prior. Returns
    the new ratings of the block's players."""
    seated = {p for m in matches for p in m.players}
    state = {}
    for p in seated:
        r = current.get(p, Rating(MU, SIGMA))
        state[p] = (r.mu, math.sqrt(r.sigma ** 2 + tau ** 2))
    for m in sorted(matches, key=lambda m: m.match_id):
        rated = skill.rate_match(MODEL, [state[p] for p in m.players], m.places)
        for p, raw in zip(m.players, rated, strict=True):
            state[p] = raw
    return {p: Rating(*skill.readback(*raw)) for p, raw in state.items()}


def _apply(env: trueskill.TrueSkill, current: dict[int, trueskill.Rating],
           players: Sequence[int], places: Sequence[int]) -> None:
    """One match's update of `current` (trueskill.Ratings of `env`'s
    parameters, which must be the arena's), through arena.tournament.rating.trueskill_math."""
    # Ranks: lower is better, equal places are a draw (docs/rules.md#core ties).
    rated = skill.rate_match(MODEL, [(current[p].mu, current[p].sigma) for p in players], places)
    for p, (mu, sigma) in zip(players, rated, strict=True):
        current[p] = env.create_rating(mu=mu, sigma=sigma)


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
    fitted: dict[int, Rating] | None = None,
) -> dict[int, tuple[int, int]]:
    """A 95% interval for each bot's rank: resample the duplicate sets with
    replacement, rate each resample, take the 2.5% and 97.5% rank quantiles.
    Bots tied in a resample count with every rank they share. With fewer than
    two duplicate sets to resample there is no interval to estimate: every
    rank is possible (1 to n), rather than a point that looks certain.
    Without resamples the interval is the rank span of the batch fit
    (`fitted`, when the caller has it already)."""
    units: dict[Hashable, list[RatedMatch]] = {}
    for m in sorted(matches, key=lambda m: m.match_id):
        units.setdefault(m.unit, []).append(m)
    if samples <= 0 or not matches:
        spans = rank_spans(fitted if fitted is not None else rate(matches, players)[0])
        return {p: spans[p] for p in players}
    if len(units) < 2:
        return {p: (1, len(players)) for p in players}
    keys = sorted(units, key=repr)
    rng = random.Random(seed)
    ordered = [m for key in keys for m in units[key]]
    first: dict[Hashable, int] = {}
    for i, m in enumerate(ordered):
        first.setdefault(m.unit, i)
    resamples = [[first[keys[index]] + j for index in sorted(rng.randrange(len(keys)) for _ in keys)
                  for j in range(len(units[keys[index]]))] for _ in range(samples)]
    seen: dict[int, list[int]] = {p: [] for p in players}
    for final in _rate_resamples(resamples, ordered, players):
        spans = rank_spans(final)
        for p in players:
            seen[p].extend(spans[p])
    return {p: rank_quantiles(values) for p, values in seen.items()}


def _rate_resamples(resamples: Sequence[Sequence[int]], matches: Sequence[RatedMatch],
                    players: Sequence[int]) -> list[dict[int, Rating]]:
    """The one-pass update from the prior of each resample (indices into
    `matches`, applied in the order given), all resamples at once: step j
    applies every resample's j-th match together (skill.rate_rows), one
    array update per step instead of one library call per match and
    resample. Each resample's numbers are those of rating it alone."""
    column = {p: k for k, p in enumerate(players)}
    seated: dict[int, list[list[int]]] = {}     # seats -> per match: columns, best place first
    ties: dict[int, list[list[bool]]] = {}
    at = []                                     # match -> (seats, its row in those lists)
    for m in matches:
        # Best place first, stably: the library's order of the teams.
        order = sorted(range(len(m.players)), key=lambda i: m.places[i])
        n = len(order)
        at.append((n, len(seated.setdefault(n, []))))
        seated[n].append([column[m.players[i]] for i in order])
        ties.setdefault(n, []).append([m.places[order[x]] == m.places[order[x + 1]]
                                       for x in range(n - 1)])
    cols = {n: np.array(rows, dtype=np.intp) for n, rows in seated.items()}
    drawn = {n: np.array(rows, dtype=bool).reshape(len(rows), n - 1) for n, rows in ties.items()}
    longest = max(len(r) for r in resamples)
    # steps[n][j]: per resample, its j-th match's row among the n-seat matches (-1: none).
    steps = {n: np.full((len(resamples), longest), -1, dtype=np.intp) for n in cols}
    for row, resample in enumerate(resamples):
        for j, index in enumerate(resample):
            n, k = at[index]
            steps[n][row, j] = k
    mu = np.full((len(resamples), len(players)), MU)
    sigma = np.full((len(resamples), len(players)), SIGMA)
    for j in range(longest):
        for n, table in steps.items():
            rows = np.flatnonzero(table[:, j] >= 0)
            if not len(rows):
                continue
            k = table[rows, j]
            picked = rows[:, None], cols[n][k]
            mu[picked], sigma[picked] = skill.rate_rows(MODEL, mu[picked], sigma[picked],
                                                        drawn[n][k])
    return [{p: Rating(*skill.readback(float(mu[row, c]), float(sigma[row, c])))
             for p, c in column.items()} for row in range(len(resamples))]


def rank_quantiles(values: Sequence[int]) -> tuple[int, int]:
    """The 2.5% and 97.5% quantiles (nearest rank, outward) of bootstrap ranks."""
    ordered = sorted(values)
    last = len(ordered) - 1
    return ordered[math.floor(0.025 * last)], ordered[math.ceil(0.975 * last)]
