"""The sequential test's arithmetic, against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from arena.tournament.stop.sprt import (
    MIN_SETS,
    SprtError,
    SprtParams,
    bounds,
    decide,
    elo_of,
    expected_score,
    llr,
    state,
)

# 400 log10(3) Elo is a pairwise score of exactly 3/4: 1 / (1 + 10^-log10(3)) = 1 / (1 + 1/3).
ELO_THREE_QUARTERS = 400 * math.log10(3)


def test_expected_score_and_its_inverse() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(ELO_THREE_QUARTERS) == pytest.approx(0.75)
    assert expected_score(-ELO_THREE_QUARTERS) == pytest.approx(0.25)
    assert elo_of(0.75) == pytest.approx(ELO_THREE_QUARTERS)
    assert elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf
    # Equal strength is +0, not -0.0 (the verdict said "elo -0", its JSON -0.0).
    assert math.copysign(1.0, elo_of(0.5)) == 1.0 and f"{elo_of(0.5):+.0f}" == "+0"


def test_wald_bounds() -> None:
    # log(0.05 / 0.95) = -2.944439, log(0.95 / 0.05) = +2.944439 (Fishtest's +-2.94)
    low, high = bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944439, abs=1e-6) and high == pytest.approx(2.944439, abs=1e-6)
    # alpha 0.1, beta 0.2: log(0.2 / 0.9) = -1.504077, log(0.8 / 0.1) = 2.079442
    assert bounds(0.1, 0.2) == pytest.approx((-1.504077, 2.079442), abs=1e-6)


def test_llr_by_hand() -> None:
    # s0 = 0.5, s1 = 0.75. Scores (1, 0.5, 0.75, 0.75) twice: n = 8, mean 0.75,
    # squared deviations 4 * 0.0625 = 0.25, variance 0.25 / 7 = 0.0357143.
    # LLR = 8 * 0.25 * (1.5 - 1.25) / (2 * 0.25 / 7) = 0.5 * 7 / 0.5 = 7.
    scores = [1.0, 0.5, 0.75, 0.75] * 2
    assert llr(scores, 0, ELO_THREE_QUARTERS, 1 / 24) == pytest.approx(7.0)
    # Mean 0.5: 2 * 0.5 - 1.25 = -0.25, the same variance: LLR = -7.
    assert llr([0.25, 0.75, 0.5, 0.5] * 2, 0, ELO_THREE_QUARTERS, 1 / 24) == pytest.approx(-7.0)
    # No spread: the variance is floored at resolution^2 / 12 = (1/24)^2 / 12 = 1/6912.
    # Eight sets at 0.5: LLR = 8 * 0.25 * (1 - 1.25) / (2 / 6912) = -0.5 * 3456 = -1728.
    assert llr([0.5] * 8, 0, ELO_THREE_QUARTERS, 1 / 24) == pytest.approx(-1728.0)
    # Fewer than MIN_SETS (8) sets decide nothing.
    assert MIN_SETS == 8 and llr([1.0] * 7, 0, ELO_THREE_QUARTERS, 1 / 24) == 0.0


def test_decision_and_state() -> None:
    params = SprtParams(elo0=0, elo1=ELO_THREE_QUARTERS, alpha=0.05, beta=0.05)
    assert decide(4.0, params) == "H1" and decide(-4.0, params) == "H0"
    assert decide(2.9, params) is None
    # (1, 0.25) four times: mean 0.625 = (s0 + s1) / 2, so LLR = 0: open.
    # A ninth set at 0.75: sum 5.75, mean 0.638889, squared deviations
    # 4 * 0.361111^2 + 4 * 0.388889^2 + 0.111111^2 = 1.138889, variance / 8 =
    # 0.142361; LLR = 9 * 0.25 * (1.277778 - 1.25) / (2 * 0.142361) = 0.219512.
    assert state([1.0, 0.25] * 4, params, 1 / 24).llr == pytest.approx(0.0, abs=1e-12)
    open_ = state([1.0, 0.25] * 4 + [0.75], params, 1 / 24)
    assert open_.decision is None and open_.llr == pytest.approx(0.219512, abs=1e-6)
    # The LLR-7 sets of test_llr_by_hand cross at the 8th; a 9th set in
    # flight at the decision changes nothing.
    s = state([1.0, 0.5, 0.75, 0.75] * 2 + [0.0], params, 1 / 24)
    assert s.decision == "H1" and s.sets == 8 and s.llr == pytest.approx(7.0)
    assert s.mean == pytest.approx(0.75) and s.elo == pytest.approx(ELO_THREE_QUARTERS)
    assert s.elo_low < s.elo < s.elo_high
    # The interval holds the estimate every time, and is unknown from one set.
    assert all(math.isnan(x) for x in (state([0.0], params, 1 / 24).elo_low,
                                        state([1.0], params, 1 / 24).elo_high))
    for scores in ([0.0] * 3, [1.0] * 3, [0.0, 1 / 24], [1.0, 23 / 24]):
        t = state(scores, params, 1 / 24)
        assert t.elo_low <= t.elo <= t.elo_high, (scores, t)
    # Read once, not sequentially (a fixed number of sets): all of them count.
    whole = state([1.0, 0.5, 0.75, 0.75] * 2 + [0.0], params, 1 / 24, sequential=False)
    assert whole.sets == 9 and whole.llr < 7.0


def test_bad_parameters() -> None:
    with pytest.raises(SprtError, match="alpha"):
        SprtParams(alpha=0.7)
    with pytest.raises(SprtError, match="elo1"):
        SprtParams(elo0=5, elo1=5)
