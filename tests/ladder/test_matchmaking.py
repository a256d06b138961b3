"""Matchmaking (arena/ladder/matchmaking.py), in-process: who plays the next block."""

from __future__ import annotations

import random
from collections import Counter

from arena.ladder.matchmaking import Entrant, Policy, pick

POLICY = Policy(placement_blocks=3, recency_share=0.25, nearest=4)


def field(n: int, authors: list[int | None] | None = None, blocks: int = 10) -> list[Entrant]:
    authors = authors or list(range(n))
    return [Entrant(i, authors[i], mu=20.0 + i, blocks=blocks, last_played=100.0 + i)
            for i in range(n)]


def test_never_two_bots_of_one_author_at_a_table() -> None:
    # Authors 0 and 1 have three bots each, one reference bot (None).
    entrants = field(7, [0, 0, 0, 1, 1, 1, None])
    for k in range(300):
        chosen = pick(entrants, POLICY, random.Random(k))
        assert chosen is not None
        authors = [e.author for e in chosen if e.author is not None]
        assert len(authors) == len(set(authors)), chosen


def test_reference_bots_have_no_author_and_may_sit_together() -> None:
    entrants = field(3, [None, None, 5])
    chosen = pick(entrants, POLICY, random.Random(1))
    assert chosen is not None and sorted(e.id for e in chosen) == [0, 1, 2]


def test_no_table_when_only_one_author_is_left() -> None:
    assert pick(field(4, [7, 7, 7, 7]), POLICY, random.Random(0)) is None
    assert pick(field(2), POLICY, random.Random(0)) is None
    assert pick(field(3, [7, 7, None]), POLICY, random.Random(0)) is None


def test_a_bot_not_placed_sits_in_one_block_at_a_time() -> None:
    new = Entrant(9, 9, mu=25.0, blocks=1, last_played=0.0, busy=1)
    placed_busy = Entrant(8, 8, mu=25.0, blocks=5, last_played=0.0, busy=2)
    entrants = [*field(4), new, placed_busy]
    seen = Counter(e.id for k in range(300) for e in (pick(entrants, POLICY, random.Random(k)) or ()))
    assert seen[9] == 0          # busy and not placed: never
    assert seen[8] > 0           # placed: may play several blocks at once


def test_the_seed_bot_is_mostly_the_one_with_fewest_blocks() -> None:
    entrants = [Entrant(i, i, mu=25.0, blocks=b, last_played=500.0 - i)
                for i, b in enumerate([0, 20, 20, 20, 20, 20])]
    seeds = Counter(pick(entrants, Policy(recency_share=0.0), random.Random(k))[0].id  # type: ignore[index]
                    for k in range(600))
    # weight 1 against 1/21 each: about 1/(1 + 5/21) = 81% of the seeds.
    assert 0.72 < seeds[0] / 600 < 0.9, seeds


def test_recency_share_picks_the_least_recently_played() -> None:
    entrants = [Entrant(i, i, mu=25.0, blocks=10, last_played=float(100 - i)) for i in range(6)]
    seeds = Counter(pick(entrants, Policy(recency_share=1.0), random.Random(k))[0].id  # type: ignore[index]
                    for k in range(50))
    assert seeds == Counter({5: 50})


def test_opponents_come_from_the_nearest_in_rating() -> None:
    entrants = [Entrant(i, i, mu=float(10 * i), blocks=10, last_played=0.0) for i in range(10)]
    for k in range(200):
        chosen = pick(entrants, Policy(recency_share=0.0, nearest=2), random.Random(k))
        assert chosen is not None
        seed, a, b = chosen
        others = sorted((e for e in entrants if e.id != seed.id), key=lambda e: abs(e.mu - seed.mu))
        near = {e.id for e in others[:3]}   # the 2 nearest, and a tie at the edge
        assert {a.id, b.id} <= near, (seed.id, a.id, b.id)


def test_the_same_state_and_seed_pick_the_same_block() -> None:
    entrants = field(8, [0, 1, 2, 3, 0, 1, None, None])
    assert [pick(entrants, POLICY, random.Random(k)) for k in range(20)] == \
        [pick(entrants, POLICY, random.Random(k)) for k in range(20)]
