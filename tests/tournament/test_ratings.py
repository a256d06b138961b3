from __future__ import annotations

import random

import pytest

from arena.tournament.rating.ratings import (
    MU,
    SIGMA,
    RatedMatch,
    bootstrap_rank_intervals,
    fit,
    rank_quantiles,
    rank_spans,
    ranks_by,
    rate,
    rate_online,
)

from .rated import matches


def test_stronger_bots_rate_higher_and_fresh_bots_start_at_zero() -> None:
    ms = matches({1: 0.0, 2: 1.0, 3: 2.0, 4: 3.0}, sets=5, seed=1)
    ratings, history = rate(ms, [1, 2, 3, 4, 5])
    assert ranks_by(ratings)[4] == 1 and ranks_by(ratings)[1] == 4
    assert ratings[5].mu == MU and ratings[5].sigma == SIGMA and abs(ratings[5].conservative) < 1e-9
    assert [h[1] for h in history if h[0] == 1] == list(range(1, 91))  # 3 tables x 6 orders x 5 sets


def test_order_of_application_is_match_id_not_input_order() -> None:
    ms = matches({1: 0.0, 2: 0.5, 3: 1.0}, sets=3, seed=2)
    shuffled = ms[:]
    random.Random(5).shuffle(shuffled)
    assert rate(ms, [1, 2, 3]) == rate(shuffled, [1, 2, 3])


def test_ties_are_draws() -> None:
    tie = [RatedMatch("m1", 0, (1, 2, 3), (1, 1, 3))]
    ratings, _ = rate(tie, [1, 2, 3])
    assert ratings[1].mu == pytest.approx(ratings[2].mu, abs=0.01)  # iterative solver
    assert ratings[1].mu > ratings[3].mu


def test_bootstrap_interval_is_narrow_for_clear_gaps_and_wide_for_equals() -> None:
    clear = matches({1: 0.0, 2: 3.0, 3: 6.0, 4: 9.0}, sets=4, seed=3)
    intervals = bootstrap_rank_intervals(clear, [1, 2, 3, 4], samples=30, seed=1)
    assert intervals == {4: (1, 1), 3: (2, 2), 2: (3, 3), 1: (4, 4)}
    equal = matches({1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}, sets=4, seed=3)
    wide = bootstrap_rank_intervals(equal, [1, 2, 3, 4], samples=30, seed=1)
    assert any(hi - lo >= 2 for lo, hi in wide.values())
    assert bootstrap_rank_intervals(equal, [1, 2, 3, 4], 30, 1) == wide  # seeded


def test_one_duplicate_set_gives_no_interval_and_ties_share_their_ranks() -> None:
    """One unit to resample is no bootstrap: every rank stays possible rather
    than a point that looks certain. Bots rated exactly alike share ranks."""
    one = [RatedMatch(f"m{i}", 0, (1, 2, 3), (1, 2, 3)) for i in range(6)]
    assert bootstrap_rank_intervals(one, [1, 2, 3], samples=30, seed=1) == {
        1: (1, 3), 2: (1, 3), 3: (1, 3)}
    # 2 and 3 always share last place: alike in every resample.
    tied = [RatedMatch(f"m{i}", i % 3, (1, 2, 3), (1, 2, 2)) for i in range(9)]
    intervals = bootstrap_rank_intervals(tied, [1, 2, 3], samples=30, seed=1)
    assert intervals[1] == (1, 1) and intervals[2] == intervals[3] == (2, 3)
    assert rank_spans(rate(tied, [1, 2, 3])[0]) == {1: (1, 1), 2: (2, 3), 3: (2, 3)}


def test_rank_quantiles() -> None:
    assert rank_quantiles([1] * 39 + [2]) == (1, 2)
    assert rank_quantiles([3]) == (3, 3)


def test_batch_fit_is_the_same_for_any_order_of_the_matches() -> None:
    """The published table is a fit over all matches at once: the same
    results listed (or finished, or numbered) in another order give the same
    table. The one-pass update does not: renumbering the matches so that
    they are applied in another order moves its ratings."""
    ms = matches({1: 0.0, 2: 0.4, 3: 0.8, 4: 1.2}, sets=4, seed=11)
    shuffled = ms[:]
    random.Random(3).shuffle(shuffled)
    a, b = fit(ms, [1, 2, 3, 4]), fit(shuffled, [1, 2, 3, 4])
    for p in a:
        assert a[p].mu == pytest.approx(b[p].mu, abs=1e-5)
        assert a[p].sigma == pytest.approx(b[p].sigma, abs=1e-5)
    # Renumbered in reverse: the published rate() sorts by id, so the one-pass
    # update sees another order; the batch table does not move.
    renumbered = [RatedMatch(f"x{len(ms) - i:05d}", m.unit, m.players, m.places)
                  for i, m in enumerate(ms)]
    table = {p: (round(r.mu, 3), round(r.sigma, 3)) for p, r in rate(ms, [1, 2, 3, 4])[0].items()}
    again = {p: (round(r.mu, 3), round(r.sigma, 3))
             for p, r in rate(renumbered, [1, 2, 3, 4])[0].items()}
    assert table == again
    online = rate_online(ms, [1, 2, 3, 4])[0]
    online_reversed = rate_online(renumbered, [1, 2, 3, 4])[0]
    assert max(abs(online[p].mu - online_reversed[p].mu) for p in online) > 0.05
    # The fixed point keeps the ratings' mean at the prior's (see ratings._recentre).
    assert sum(r.mu for r in a.values()) / 4 == pytest.approx(MU, abs=1e-4)
