"""The TrueSkill update of one match whose teams are single players, as
plain arithmetic, and the same update of many independent rating sets at
once (numpy): the bootstrap's resamples.

`trueskill.TrueSkill.rate` builds a factor graph of objects for every call
(about 250 µs of CPU for a table of three on the project's machine, 30 µs
here); the batch fit calls it for every match in every pass, the bootstrap
for every match of every resample, so a 10,000-match tournament spent 13 s
of CPU in it without a bootstrap and 8 minutes more with the default 200
resamples (docs/performance.md, "The rating table"). This module runs the same
schedule on bare numbers: the same layers, the same message order, the
same convergence test (min_delta 1e-4, at most 10 sweeps of the chain of
team differences) and the same rational approximation of erfc as the
library's pure-Python backend, which the arena uses (`backend=None`), so
its results agree with the library's to rounding
(tests/tournament/test_skill.py compares them on random tables with
ties, of 2 to 4 players).

A match is given with its players' (mu, sigma) in seat order and their
places (1 = first; equal places are a tie); teams are sorted by place
(stably, as the library does) and the difference of each neighbouring pair
is truncated: a win beyond the draw margin, or a draw within it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

MIN_DELTA = 1e-4     # trueskill.DELTA: a sweep that moves no message more than this ends the loop
SWEEPS = 10          # the library's bound on sweeps of the chain of differences
_SQRT2 = math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


@dataclass(frozen=True)
class Model:
    """The parameters of the update: beta, tau (the dynamic) and the draw
    margin for two single-player teams (trueskill.calc_draw_margin)."""

    beta: float
    tau: float
    draw_margin: float


# -- the scalar update (the batch fit, the one-pass history) -----------------

def _erfc(x: float) -> float:
    # Numerical Recipes' erfcc (fractional error < 1.2e-7): the
    # approximation trueskill's pure-Python backend uses, kept so the
    # two agree to rounding rather than to 1e-7.
    z = abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277)))))))))
    return 2.0 - r if x < 0 else r


def _cdf(x: float) -> float:
    return 0.5 * _erfc(-x / _SQRT2)


def _pdf(x: float) -> float:
    return _INV_SQRT_2PI * math.exp(-(x ** 2 / 2))


def _truncate(diff: float, margin: float, draw: bool) -> tuple[float, float]:
    """TrueSkill's V and W for a difference `diff` (in units of its sigma)."""
    if not draw:
        x = diff - margin
        denom = _cdf(x)
        v = _pdf(x) / denom if denom else -x
        w = v * (v + x)
        if not 0 < w < 1:
            raise FloatingPointError(f"TrueSkill win update out of range (w = {w!r})")
        return v, w
    a, b = margin - abs(diff), -margin - abs(diff)
    denom = _cdf(a) - _cdf(b)
    if not denom:
        raise FloatingPointError("TrueSkill draw update out of range")
    v_abs = (_pdf(b) - _pdf(a)) / denom
    v = v_abs * (-1 if diff < 0 else +1)
    w = v_abs ** 2 + (a * _pdf(a) - b * _pdf(b)) / denom
    return v, w


def rate_match(model: Model, ratings: Sequence[tuple[float, float]],
               places: Sequence[int]) -> list[tuple[float, float]]:
    """The (mu, sigma) of each seat after one match (seat order in and out)."""
    n = len(ratings)
    if n < 2 or len(places) != n:
        raise ValueError(f"a match needs 2 or more seats with a place each, got {n} and {len(places)}")
    order = sorted(range(n), key=lambda i: places[i])
    beta2 = model.beta ** 2
    # Gaussians as (pi, tau) = (1/variance, mean/variance).
    prior = []
    perf = []          # performance marginals
    team = []          # team performance marginals
    from_perf = []     # the message each team variable got from its performance
    for i in order:
        # As trueskill.Rating keeps it (pi, tau) and its prior reads it back.
        pi_in = ratings[i][1] ** -2
        tau_in = pi_in * ratings[i][0]
        mu, sigma = tau_in / pi_in, math.sqrt(1 / pi_in)
        pi = math.sqrt(sigma ** 2 + model.tau ** 2) ** -2
        prior.append((pi, pi * mu))
        a = 1.0 / (1.0 + beta2 * pi)
        pp, tp = a * pi, a * (pi * mu)
        perf.append((pp, tp))
        t_pi = 1.0 / (1.0 / pp)
        msg = (t_pi, t_pi * (tp / pp))
        from_perf.append(msg)
        team.append(msg)
    links = n - 1
    # Per difference x (team x minus team x+1): its marginal, the messages it
    # got from its sum factor and from its truncation, and the messages the
    # sum factor sent to its left and right team.
    d = [(0.0, 0.0)] * links
    d_sum = [(0.0, 0.0)] * links
    d_trunc = [(0.0, 0.0)] * links
    to_left = [(0.0, 0.0)] * links
    to_right = [(0.0, 0.0)] * links
    draw = [places[order[x]] == places[order[x + 1]] for x in range(links)]

    def down(x: int) -> None:
        left = (team[x][0] - to_left[x][0], team[x][1] - to_left[x][1])
        right = (team[x + 1][0] - to_right[x][0], team[x + 1][1] - to_right[x][1])
        mean = left[1] / left[0] - right[1] / right[0]
        pi = 1.0 / (1.0 / left[0] + 1.0 / right[0])
        new = (pi, pi * mean)
        old = d_sum[x]
        d_sum[x] = new
        d[x] = (d[x][0] - old[0] + new[0], d[x][1] - old[1] + new[1])

    def truncate(x: int) -> float:
        cav = (d[x][0] - d_trunc[x][0], d[x][1] - d_trunc[x][1])
        sqrt_pi = math.sqrt(cav[0])
        v, w = _truncate(cav[1] / sqrt_pi, model.draw_margin * sqrt_pi, draw[x])
        value = (cav[0] / (1.0 - w), (cav[1] + sqrt_pi * v) / (1.0 - w))
        old = d_trunc[x]
        d_trunc[x] = (value[0] + old[0] - d[x][0], value[1] + old[1] - d[x][1])
        pi_delta = abs(d[x][0] - value[0])
        delta = 0.0 if pi_delta == math.inf else max(abs(d[x][1] - value[1]), math.sqrt(pi_delta))
        d[x] = value
        return delta

    def send(x: int, side: int) -> None:
        """The sum factor of difference x to its right team (side 1: left minus
        difference) or its left team (side 0: difference plus right)."""
        trunc = (d[x][0] - d_sum[x][0], d[x][1] - d_sum[x][1])
        if side == 1:
            other = (team[x][0] - to_left[x][0], team[x][1] - to_left[x][1])
            mean = other[1] / other[0] - trunc[1] / trunc[0]
        else:
            other = (team[x + 1][0] - to_right[x][0], team[x + 1][1] - to_right[x][1])
            mean = trunc[1] / trunc[0] + other[1] / other[0]
        pi = 1.0 / (1.0 / trunc[0] + 1.0 / other[0]) if side == 0 else \
            1.0 / (1.0 / other[0] + 1.0 / trunc[0])
        new = (pi, pi * mean)
        k, store = (x + 1, to_right) if side == 1 else (x, to_left)
        old = store[x]
        store[x] = new
        team[k] = (team[k][0] - old[0] + new[0], team[k][1] - old[1] + new[1])

    for _ in range(SWEEPS):
        if links == 1:
            down(0)
            delta = truncate(0)
        else:
            delta = 0.0
            for x in range(links - 1):
                down(x)
                delta = max(delta, truncate(x))
                send(x, 1)
            for x in range(links - 1, 0, -1):
                down(x)
                delta = max(delta, truncate(x))
                send(x, 0)
        if delta <= MIN_DELTA:
            break
    send(0, 0)
    send(links - 1, 1)
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for k, i in enumerate(order):
        # What the differences told team k, passed up to its performance
        # variable and through it (beta) to the rating.
        up = (team[k][0] - from_perf[k][0], team[k][1] - from_perf[k][1])
        u_pi = 1.0 / (1.0 / up[0])
        u_tau = u_pi * (up[1] / up[0])
        pp, tp = perf[k]
        m_pi, m_tau = (pp + u_pi) - pp, (tp + u_tau) - tp
        a = 1.0 / (1.0 + beta2 * m_pi)
        pi, tau = prior[k][0] + a * m_pi, prior[k][1] + a * m_tau
        out[i] = (tau / pi, math.sqrt(1 / pi))
    return out


# -- many rating sets at once (the bootstrap) ---------------------------------

def _erfc_array(x: Floats) -> Floats:
    z = np.abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    r = t * np.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277)))))))))
    out: Floats = np.where(x < 0, 2.0 - r, r)
    return out


def _cdf_array(x: Floats) -> Floats:
    return 0.5 * _erfc_array(-x / _SQRT2)


def _pdf_array(x: Floats) -> Floats:
    out: Floats = _INV_SQRT_2PI * np.exp(-(x ** 2 / 2))
    return out


def _truncate_array(diff: Floats, margin: Floats,
                    draw: npt.NDArray[np.bool_]) -> tuple[Floats, Floats]:
    """`_truncate` of every row: the win and the draw form, each row taking its own."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = diff - margin
        denom = _cdf_array(x)
        v_win = np.where(denom != 0, _pdf_array(x) / denom, -x)
        w_win = v_win * (v_win + x)
        if not draw.any():   # ties are rare (docs/tournaments.md): most steps have none
            if not ((w_win > 0) & (w_win < 1)).all():
                raise FloatingPointError("TrueSkill update out of range in a bootstrap resample")
            return v_win, w_win
        a, b = margin - np.abs(diff), -margin - np.abs(diff)
        d_denom = _cdf_array(a) - _cdf_array(b)
        v_abs = (_pdf_array(b) - _pdf_array(a)) / d_denom
        v_draw = v_abs * np.where(diff < 0, -1.0, 1.0)
        w_draw = v_abs ** 2 + (a * _pdf_array(a) - b * _pdf_array(b)) / d_denom
    bad = np.where(draw, d_denom == 0, ~((w_win > 0) & (w_win < 1)))
    if bad.any():
        raise FloatingPointError("TrueSkill update out of range in a bootstrap resample")
    return np.where(draw, v_draw, v_win), np.where(draw, w_draw, w_win)


def rate_rows(model: Model, mu: Floats, sigma: Floats,
              draw: npt.NDArray[np.bool_]) -> tuple[Floats, Floats]:
    """`rate_match` of every row at once: row r is one match of its own
    rating set, its columns the seats sorted by place (best first), `draw[r, x]`
    whether columns x and x+1 tied. Returns the new (mu, sigma), same shape.
    Each row stops sweeping when its own messages settle, as it would alone."""
    rows, n = mu.shape
    links = n - 1
    beta2 = model.beta ** 2
    pi_in = 1.0 / sigma ** 2
    tau_in = pi_in * mu
    mu, sigma = tau_in / pi_in, np.sqrt(1 / pi_in)
    p0 = 1.0 / (sigma ** 2 + model.tau ** 2)
    t0 = p0 * mu
    a = 1.0 / (1.0 + beta2 * p0)
    pp, tp = a * p0, a * t0
    f_pi = 1.0 / (1.0 / pp)
    f_tau = f_pi * (tp / pp)
    team_pi, team_tau = f_pi.copy(), f_tau.copy()
    zeros = np.zeros((rows, links))
    d_pi, d_tau = zeros.copy(), zeros.copy()
    s_pi, s_tau = zeros.copy(), zeros.copy()      # sum factor -> difference
    c_pi, c_tau = zeros.copy(), zeros.copy()      # truncation -> difference
    l_pi, l_tau = zeros.copy(), zeros.copy()      # sum factor -> left team
    r_pi, r_tau = zeros.copy(), zeros.copy()      # sum factor -> right team
    margin = np.full(rows, model.draw_margin)
    live = np.ones(rows, dtype=bool)
    every = [True]     # whether every row is still sweeping (no masking needed)

    def keep(new: Floats, old: Floats) -> Floats:
        if every[0]:
            return new
        out: Floats = np.where(live, new, old)
        return out

    def down(x: int) -> None:
        lp, lt = team_pi[:, x] - l_pi[:, x], team_tau[:, x] - l_tau[:, x]
        rp, rt = team_pi[:, x + 1] - r_pi[:, x], team_tau[:, x + 1] - r_tau[:, x]
        mean = lt / lp - rt / rp
        pi = 1.0 / (1.0 / lp + 1.0 / rp)
        new_pi, new_tau = pi, pi * mean
        d_pi[:, x] = keep(d_pi[:, x] - s_pi[:, x] + new_pi, d_pi[:, x])
        d_tau[:, x] = keep(d_tau[:, x] - s_tau[:, x] + new_tau, d_tau[:, x])
        s_pi[:, x] = keep(new_pi, s_pi[:, x])
        s_tau[:, x] = keep(new_tau, s_tau[:, x])

    def truncate(x: int) -> Floats:
        cp, ct = d_pi[:, x] - c_pi[:, x], d_tau[:, x] - c_tau[:, x]
        sqrt_pi = np.sqrt(cp)
        v, w = _truncate_array(ct / sqrt_pi, margin * sqrt_pi, draw[:, x])
        value_pi, value_tau = cp / (1.0 - w), (ct + sqrt_pi * v) / (1.0 - w)
        delta: Floats = np.maximum(np.abs(d_tau[:, x] - value_tau),
                                   np.sqrt(np.abs(d_pi[:, x] - value_pi)))
        c_pi[:, x] = keep(value_pi + c_pi[:, x] - d_pi[:, x], c_pi[:, x])
        c_tau[:, x] = keep(value_tau + c_tau[:, x] - d_tau[:, x], c_tau[:, x])
        d_pi[:, x] = keep(value_pi, d_pi[:, x])
        d_tau[:, x] = keep(value_tau, d_tau[:, x])
        return delta

    def send(x: int, side: int) -> None:
        tp_, tt_ = d_pi[:, x] - s_pi[:, x], d_tau[:, x] - s_tau[:, x]
        if side == 1:
            op, ot = team_pi[:, x] - l_pi[:, x], team_tau[:, x] - l_tau[:, x]
            mean = ot / op - tt_ / tp_
            pi = 1.0 / (1.0 / op + 1.0 / tp_)
            k, m_pi, m_tau = x + 1, r_pi, r_tau
        else:
            op, ot = team_pi[:, x + 1] - r_pi[:, x], team_tau[:, x + 1] - r_tau[:, x]
            mean = tt_ / tp_ + ot / op
            pi = 1.0 / (1.0 / tp_ + 1.0 / op)
            k, m_pi, m_tau = x, l_pi, l_tau
        new_pi, new_tau = pi, pi * mean
        team_pi[:, k] = keep(team_pi[:, k] - m_pi[:, x] + new_pi, team_pi[:, k])
        team_tau[:, k] = keep(team_tau[:, k] - m_tau[:, x] + new_tau, team_tau[:, k])
        m_pi[:, x] = keep(new_pi, m_pi[:, x])
        m_tau[:, x] = keep(new_tau, m_tau[:, x])

    for _ in range(SWEEPS):
        if links == 1:
            down(0)
            delta = truncate(0)
        else:
            delta = np.zeros(rows)
            for x in range(links - 1):
                down(x)
                delta = np.maximum(delta, truncate(x))
                send(x, 1)
            for x in range(links - 1, 0, -1):
                down(x)
                delta = np.maximum(delta, truncate(x))
                send(x, 0)
        live &= ~(delta <= MIN_DELTA)
        every[0] = bool(live.all())
        if not live.any():
            break
    every[0] = True
    send(0, 0)
    send(links - 1, 1)
    up_pi, up_tau = team_pi - f_pi, team_tau - f_tau
    u_pi = 1.0 / (1.0 / up_pi)
    u_tau = u_pi * (up_tau / up_pi)
    m_pi, m_tau = (pp + u_pi) - pp, (tp + u_tau) - tp
    a = 1.0 / (1.0 + beta2 * m_pi)
    pi, tau = p0 + a * m_pi, t0 + a * m_tau
    return tau / pi, np.sqrt(1 / pi)


def readback(mu: float, sigma: float) -> tuple[float, float]:
    """(mu, sigma) as a trueskill.Rating made of them reports them: it keeps
    (pi, tau), so what it reads back may differ from what it was given in
    the last bit. The fit and the tables read ratings so, as they did when
    they called the library."""
    pi = sigma ** -2
    tau = pi * mu
    return tau / pi, math.sqrt(1 / pi)
