"""arena.tournament.rating.trueskill_math against the trueskill library it replaces on the
hot paths: the same numbers for one match, and the same tables (fit, one-pass
history, bootstrap rank intervals) as the library-driven code they had before."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

import numpy as np
import pytest
import trueskill

from arena.tournament.rating import ratings
from arena.tournament.rating import trueskill_math as skill
from arena.tournament.rating.ratings import RatedMatch

from .rated import matches

ENV = ratings.environment()


def library(rs: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    rated = ENV.rate([(ENV.create_rating(mu, s),) for mu, s in rs], ranks=[p - 1 for p in places])
    return [(r.mu, r.sigma) for (r,) in rated]


def tables(rng: random.Random, n: int, count: int) -> list[tuple[list[tuple[float, float]], list[int]]]:
    """Random ratings and places (ties included, often) that the library can rate."""
    out = []
    while len(out) < count:
        rs = [(rng.uniform(5, 45), rng.uniform(0.3, ratings.SIGMA)) for _ in range(n)]
        places = [rng.randint(1, n) for _ in range(n)]
        try:
            library(rs, places)
        except FloatingPointError:
            continue
        out.append((rs, places))
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_one_match_is_the_librarys_to_the_last_bit(n: int) -> None:
    rng = random.Random(n)
    cases = tables(rng, n, 400)
    assert any(len(set(p)) < n for _, p in cases)            # ties are in the sample
    for rs, places in cases:
        got = [skill.readback(*r) for r in skill.rate_match(ratings.MODEL, rs, places)]
        assert got == library(rs, places), (rs, places)


def test_out_of_range_is_an_error_as_in_the_library() -> None:
    hopeless = [(-400.0, 0.5), (400.0, 0.5)]                  # the far weaker one wins
    with pytest.raises(FloatingPointError):
        library(hopeless, [1, 2])
    with pytest.raises(FloatingPointError):
        skill.rate_match(ratings.MODEL, hopeless, [1, 2])
    with pytest.raises(ValueError, match="2 or more seats"):
        skill.rate_match(ratings.MODEL, [(25.0, 8.0)], [1])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rows_at_once_are_each_rated_as_alone(n: int) -> None:
    """Rows that settle after different numbers of sweeps, ties and wins
    mixed, rated together: each equals its own scalar update (to rounding:
    numpy's exp and pow may differ from math's in the last bit)."""
    rng = random.Random(10 + n)
    cases = [(rs, sorted(p)) for rs, p in tables(rng, n, 300)]
    mu = np.array([[r[0] for r in rs] for rs, _ in cases])
    sigma = np.array([[r[1] for r in rs] for rs, _ in cases])
    draw = np.array([[p[x] == p[x + 1] for x in range(n - 1)] for _, p in cases])
    assert draw.any() and not draw.all()
    new_mu, new_sigma = skill.rate_rows(ratings.MODEL, mu, sigma, draw)
    for row, (rs, places) in enumerate(cases):
        for col, (m, s) in enumerate(skill.rate_match(ratings.MODEL, rs, places)):
            assert new_mu[row, col] == pytest.approx(m, abs=1e-10)
            assert new_sigma[row, col] == pytest.approx(s, abs=1e-10)


# The code of the ratings before arena.tournament.rating.trueskill_math, on the library: the reference.

def library_online(found: Sequence[RatedMatch], players: Sequence[int]) -> list[tuple]:
    current = {p: ENV.create_rating() for p in players}
    steps = dict.fromkeys(players, 0)
    history = []
    for m in sorted(found, key=lambda m: m.match_id):
        rated = ENV.rate([(current[p],) for p in m.players], ranks=[x - 1 for x in m.places])
        for p, (r,) in zip(m.players, rated, strict=True):
            current[p] = r
            steps[p] += 1
            history.append((p, steps[p], m.match_id, r.mu, r.sigma))
    return history


def library_fit(found: Sequence[RatedMatch], players: Sequence[int]) -> dict[int, ratings.Rating]:
    prior = (1.0 / ratings.SIGMA**2, ratings.MU / ratings.SIGMA**2)
    post = dict.fromkeys(players, prior)
    messages = [[(0.0, 0.0)] * len(m.players) for m in found]
    for _ in range(ratings.FIT_PASSES):
        moved = 0.0
        for k, m in enumerate(found):
            cavity = [(post[p][0] - msg[0], post[p][1] - msg[1])
                      for p, msg in zip(m.players, messages[k], strict=True)]
            groups = [(ENV.create_rating(mu=tau / pi, sigma=math.sqrt(1.0 / pi)),)
                      for pi, tau in cavity]
            rated = ENV.rate(groups, ranks=[place - 1 for place in m.places])
            for i, (p, (r,)) in enumerate(zip(m.players, rated, strict=True)):
                pi = 1.0 / r.sigma**2
                old_pi, old_tau = post[p]
                moved = max(moved, abs(r.mu - old_tau / old_pi), abs(r.sigma - math.sqrt(1.0 / old_pi)))
                messages[k][i] = (pi - cavity[i][0], r.mu * pi - cavity[i][1])
                post[p] = (pi, r.mu * pi)
        if moved <= ratings.FIT_TOLERANCE:
            break
        ratings._recentre(post, messages, found, prior)
    return {p: ratings.Rating(post[p][1] / post[p][0], math.sqrt(1.0 / post[p][0])) for p in players}


def library_bootstrap(found: Sequence[RatedMatch], players: Sequence[int], samples: int,
                      seed: int) -> dict[int, tuple[int, int]]:
    units: dict[Hashable, list[RatedMatch]] = {}
    for m in sorted(found, key=lambda m: m.match_id):
        units.setdefault(m.unit, []).append(m)
    keys = sorted(units, key=repr)
    rng = random.Random(seed)
    seen: dict[int, list[int]] = {p: [] for p in players}
    for _ in range(samples):
        chosen = sorted(rng.randrange(len(keys)) for _ in keys)
        current = {p: ENV.create_rating() for p in players}
        for index in chosen:
            for m in units[keys[index]]:
                rated = ENV.rate([(current[p],) for p in m.players], ranks=[x - 1 for x in m.places])
                for p, (r,) in zip(m.players, rated, strict=True):
                    current[p] = r
        spans = ratings.rank_spans({p: ratings.Rating(r.mu, r.sigma) for p, r in current.items()})
        for p in players:
            seen[p].extend(spans[p])
    return {p: ratings.rank_quantiles(v) for p, v in seen.items()}


def field(seed: int) -> tuple[list[RatedMatch], list[int]]:
    """Five bots, two of equal strength; some ties; duplicate sets of
    unequal size (a few matches missing, as in a tournament still running)."""
    found = matches({0: 0.0, 1: 0.6, 2: 0.6, 3: 1.3, 4: 2.5}, sets=4, seed=seed)
    rng = random.Random(seed)
    out = []
    for m in found:
        if rng.random() < 0.05:
            continue
        if rng.random() < 0.03:                                # a tie for first
            best = m.places.index(min(m.places))
            other = (best + 1) % 3
            places = list(m.places)
            places[other] = places[best]
            m = RatedMatch(m.match_id, m.unit, m.players, tuple(places))
        out.append(m)
    return out, [0, 1, 2, 3, 4]


@pytest.mark.parametrize("seed", [1, 2])
def test_fit_and_history_are_those_of_the_library(seed: int) -> None:
    found, players = field(seed)
    assert any(len(set(m.places)) < 3 for m in found)
    canonical = sorted(found, key=lambda m: m.match_id)
    assert ratings.fit(canonical, players) == library_fit(canonical, players)
    assert ratings.rate_online(found, players)[1] == library_online(found, players)


@pytest.mark.parametrize("seed", [1, 2])
def test_bootstrap_intervals_are_those_of_the_library(seed: int) -> None:
    found, players = field(seed)
    assert len({m.unit for m in found}) > 2 and len({len([x for x in found if x.unit == u])
                                                     for u in {m.unit for m in found}}) > 1
    got = ratings.bootstrap_rank_intervals(found, players, 15, seed)
    assert got == library_bootstrap(found, players, 15, seed)
    assert len(set(got.values())) > 1                          # a table that tells bots apart


def test_a_table_of_two_sizes_is_bootstrapped_as_each_alone() -> None:
    """A field whose matches have 3 and 2 seats (a preset change is refused,
    but the function does not rely on it)."""
    found, players = field(4)
    pairs = [RatedMatch(f"z{m.match_id}", m.unit, m.players[:2],
                        (1, 2) if m.places[0] <= m.places[1] else (2, 1)) for m in found[::3]]
    both = found + pairs
    assert ratings.bootstrap_rank_intervals(both, players, 8, 5) == library_bootstrap(
        both, players, 8, 5)


def test_the_model_is_the_environments() -> None:
    assert ratings.MODEL.beta == ENV.beta and ratings.MODEL.tau == ENV.tau
    assert ratings.MODEL.draw_margin == trueskill.calc_draw_margin(ENV.draw_probability, 2, ENV)
