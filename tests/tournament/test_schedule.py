from __future__ import annotations

import itertools
from collections import Counter

import pytest

from arena.tournament.schedule import (
    SEAT_ORDERS,
    ScheduleError,
    derive_seed,
    is_balanced,
    min_lambda,
    pair_counts,
    plan,
    tables,
)


@pytest.mark.parametrize("n", range(3, 21))
def test_every_pair_meets_equally_often(n: int) -> None:
    blocks = tables(n)
    counts = pair_counts(n, blocks)
    assert len(counts) == n * (n - 1) // 2
    assert len(set(counts.values())) == 1 and min(counts.values()) > 0
    # ... and so every bot plays the same number of tables.
    per_bot = Counter(p for block in blocks for p in block)
    assert len(set(per_bot.values())) == 1 and len(per_bot) == n
    assert all(len(set(b)) == 3 for b in blocks)


@pytest.mark.parametrize("n", [7, 9, 10, 12, 13, 15, 16, 17, 19])
def test_large_fields_use_the_smallest_balanced_design(n: int) -> None:
    blocks = tables(n)
    lam = min_lambda(n)
    assert len(blocks) == lam * n * (n - 1) // 6
    assert set(pair_counts(n, blocks).values()) == {lam}
    assert len(blocks) < len(list(itertools.combinations(range(n), 3)))


def test_small_fields_and_all_triples_play_every_triple() -> None:
    assert tables(5) == list(itertools.combinations(range(5), 3))
    assert tables(9, "all_triples") == list(itertools.combinations(range(9), 3))
    assert is_balanced(9, tables(9, "balanced"))


def test_too_few_bots_is_a_clear_error() -> None:
    with pytest.raises(ScheduleError, match="at least 3 bots, got 2"):
        tables(2)


def test_design_is_deterministic() -> None:
    assert tables(13) == tables(13)
    assert plan(list("abcdefg"), 2, 5) == plan(list("abcdefg"), 2, 5)


def test_plan_is_duplicate_all_six_orders_on_one_seed() -> None:
    field = ["a", "b", "c", "d"]
    matches = plan(field, duplicate_sets=2, tournament_seed=11)
    assert len(matches) == 2 * 4 * 6
    assert [m.match_id for m in matches] == sorted(m.match_id for m in matches)
    assert len({m.match_id for m in matches}) == len(matches)
    groups: dict[tuple[int, int], list] = {}
    for m in matches:
        groups.setdefault((m.set_no, m.table_no), []).append(m)
    seeds = set()
    for group in groups.values():
        assert len(group) == 6
        assert len({m.seed for m in group}) == 1
        assert {m.bots for m in group} == set(itertools.permutations(group[0].bots))
        seeds.add(group[0].seed)
    assert len(seeds) == len(groups)  # every table and set has its own deal
    # each bot sits in each seat equally often
    seats = Counter((m.bots[s], s) for m in matches for s in range(3))
    assert len(set(seats.values())) == 1
    assert len(SEAT_ORDERS) == 6


def test_seeds_follow_the_tournament_seed_and_ids_follow_versions() -> None:
    a = plan(["a", "b", "c"], 1, 1)
    b = plan(["a", "b", "c"], 1, 2)
    assert [m.seed for m in a] != [m.seed for m in b]
    assert derive_seed(1, "deal", 0, 0) == derive_seed(1, "deal", 0, 0) < 2**63
    changed = plan(["a", "b2", "c"], 1, 1)
    assert {m.match_id for m in a}.isdisjoint(m.match_id for m in changed)
