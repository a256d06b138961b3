from __future__ import annotations

import itertools
from collections import Counter

import pytest

from arena.tournament.plan.schedule import (
    SEAT_ORDERS,
    ScheduleError,
    derive_seed,
    is_balanced,
    min_lambda,
    pair_counts,
    plan,
    table_key,
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


def test_adding_a_bot_keeps_every_existing_match_and_its_deal() -> None:
    """A match is named by its table's bots, not by the table's position:
    with a new bot that sorts first (every index shifts), the 3-bot plan is
    still part of the 4-bot plan, with the same ids and seeds."""
    three = plan(["b@1", "c@1", "d@1"], 2, 9, names=["b", "c", "d"])
    four = plan(["a@1", "b@1", "c@1", "d@1"], 2, 9, names=["a", "b", "c", "d"])
    by_id = {m.match_id: m.seed for m in four}
    assert all(by_id.get(m.match_id) == m.seed for m in three)
    assert len(four) == len(three) + 2 * 3 * 6  # only the new bot's 3 tables are new
    # a new version of a bot gets new ids, but plays its table's deals
    changed = plan(["b@2", "c@1", "d@1"], 2, 9, names=["b", "c", "d"])
    assert {m.match_id for m in changed}.isdisjoint(m.match_id for m in three)
    assert [m.seed for m in changed] == [m.seed for m in three]
    # the deal depends on the set and the table's bots (in any order) only
    assert {m.seed for m in three if m.set_no == 0} == {
        derive_seed(9, "deal", 0, table_key(["d", "b", "c"]))}


@pytest.mark.parametrize("n", range(7, 15))
def test_ids_stay_unique_when_a_design_repeats_a_table(n: int) -> None:
    matches = plan([f"bot{i}" for i in range(n)], 2, 3)
    assert len({m.match_id for m in matches}) == len(matches)
    assert [m.match_id for m in matches] == sorted(m.match_id for m in matches)
