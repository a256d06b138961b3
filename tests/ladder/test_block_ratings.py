"""TrueSkill per block (arena.tournament.rate_block and arena/ladder/blocks.py), in-process."""

from __future__ import annotations

import math

from arena.ladder import blocks
from arena.tournament import RATING_SIGMA, RatedMatch, Rating, rate_block
from arena.tournament.rating.ratings import rate_online


def block(places: list[tuple[int, int, int]]) -> list[RatedMatch]:
    from arena.tournament import SEAT_ORDERS

    seats = (1, 2, 3)
    out = []
    for order_no, order in enumerate(SEAT_ORDERS):
        seated = tuple(seats[i] for i in order)
        # places[k] = the places of bots 1, 2, 3 in that match
        by_bot = dict(zip(seats, places[order_no], strict=True))
        out.append(RatedMatch(f"b1-o{order_no}", 1, seated, tuple(by_bot[b] for b in seated)))
    return out


def test_with_tau_zero_a_block_is_the_one_pass_update_of_its_matches() -> None:
    matches = block([(1, 2, 3)] * 6)
    after = rate_block({}, matches, tau=0.0)
    online, _ = rate_online(matches, [1, 2, 3])
    for p in (1, 2, 3):
        assert math.isclose(after[p].mu, online[p].mu) and math.isclose(after[p].sigma, online[p].sigma)
    assert after[1].mu > after[2].mu > after[3].mu
    assert all(after[p].sigma < RATING_SIGMA for p in after)


def test_tau_widens_sigma_once_per_block() -> None:
    start = {1: Rating(30.0, 1.0), 2: Rating(25.0, 1.0), 3: Rating(20.0, 1.0)}
    ties = block([(1, 1, 1)] * 6)  # no information about order: only the drift shows
    calm = rate_block(start, ties, tau=0.0)
    drifting = rate_block(start, ties, tau=2.0)
    assert all(drifting[p].sigma > calm[p].sigma for p in start)
    # The drift is added once, not six times: a widening of sqrt(1 + 4) at most.
    assert all(drifting[p].sigma < math.sqrt(1.0 + 4.0) for p in start)


def test_a_stronger_result_raises_the_rating_more() -> None:
    good = rate_block({}, block([(1, 2, 3)] * 6), tau=0.2)
    mixed = rate_block({}, block([(1, 2, 3), (2, 1, 3)] * 3), tau=0.2)
    assert good[1].mu > mixed[1].mu


def test_match_ids_name_public_facts_and_seeds_are_fresh_per_block() -> None:
    keys = {1: "a@x", 2: "b@y", 3: "c@z"}
    seed1, ms1 = blocks.plan(12345, 1, (1, 2, 3), keys)
    seed2, ms2 = blocks.plan(12345, 2, (1, 2, 3), keys)
    assert seed1 != seed2 and len(ms1) == 6 and len({m[0] for m in ms1}) == 6
    assert sorted(m[2] for m in ms1) == sorted({m[2] for m in ms1})  # six distinct seat orders
    assert all(m[0].startswith("b0000001-o") for m in ms1)
    assert "12345" not in "".join(m[0] for m in ms1 + ms2)
    assert blocks.plan(12345, 1, (1, 2, 3), keys) == (seed1, ms1)  # same seed, same block
    assert blocks.plan(54321, 1, (1, 2, 3), keys)[0] != seed1
