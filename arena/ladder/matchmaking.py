"""Which three bots play the next block. Pure: the state and the random
generator are passed in, so the same state and seed pick the same table.

* The seed bot: mostly by fewest blocks (weight 1/(blocks + 1), the
  blocks in play counted as played), partly (`recency_share` of the
  picks) the least recently played. Halite's lesson: seeding by rating
  uncertainty alone starved some bots and handed most games to one that
  kept crashing (its uncertainty never shrank); counting blocks gives
  every bot its turn whatever its results.
* Its two opponents: drawn from the `nearest` bots nearest to it in
  rating (mu), so a block is informative (TrueSkill learns most where
  the outcome is uncertain) and the table mixes over time.
* Never two bots of one author at a table: two bots of one author could
  play for each other (collusion). Reference bots have no author; each is
  its own.
* A bot not yet placed (fewer than `placement_blocks` rated blocks) sits
  in one block at a time: each of its blocks is chosen knowing the result
  of the last, as a placement is meant to be.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    """One active bot version, as matchmaking sees it."""

    id: int                  # submission id
    author: int | None       # None: a reference bot (no author)
    mu: float
    blocks: int              # rated blocks
    last_played: float       # when its last block ended (0: never)
    busy: int = 0            # blocks it sits in now


@dataclass(frozen=True)
class Policy:
    placement_blocks: int = 3
    recency_share: float = 0.25
    nearest: int = 4


def placed(e: Entrant, policy: Policy) -> bool:
    return e.blocks >= policy.placement_blocks


def eligible(entrants: Sequence[Entrant], policy: Policy) -> list[Entrant]:
    """Those that may sit in one more block now."""
    return [e for e in entrants if placed(e, policy) or e.busy == 0]


def _apart(a: Entrant, b: Entrant) -> bool:
    """Not two bots of one author (reference bots are each their own)."""
    return a.author is None or b.author is None or a.author != b.author


def opponents(seed: Entrant, pool: Sequence[Entrant], policy: Policy,
              rng: random.Random) -> tuple[Entrant, Entrant] | None:
    """Two opponents for `seed`: the first drawn among the `nearest` in
    rating allowed beside it, the second among the nearest allowed beside
    both. None if the pool holds no such pair."""
    others = sorted((e for e in pool if e.id != seed.id and _apart(seed, e)),
                    key=lambda e: (abs(e.mu - seed.mu), e.id))
    if len(others) < 2:
        return None
    # Only first picks that leave a second one: with few authors' bots
    # nearby, a first pick may rule out every other.
    firsts = [a for a in others if any(_apart(a, b) for b in others if b.id != a.id)]
    if not firsts:
        return None
    first = rng.choice(firsts[:policy.nearest])
    seconds = [b for b in others if b.id != first.id and _apart(first, b)]
    second = rng.choice(seconds[:policy.nearest])
    return first, second


def pick(entrants: Sequence[Entrant], policy: Policy,
         rng: random.Random) -> tuple[Entrant, Entrant, Entrant] | None:
    """The next block's three bots (seed bot first), or None when no table
    can be made now (fewer than three bots free, or only bots of one author)."""
    pool = eligible(entrants, policy)
    candidates = sorted(pool, key=lambda e: e.id)
    while candidates:
        if rng.random() < policy.recency_share:
            seed = min(candidates, key=lambda e: (e.last_played, e.id))
        else:
            weights = [1.0 / (e.blocks + e.busy + 1) for e in candidates]
            seed = rng.choices(candidates, weights=weights)[0]
        pair = opponents(seed, pool, policy, rng)
        if pair is not None:
            return seed, pair[0], pair[1]
        candidates = [e for e in candidates if e.id != seed.id]  # no table around this one
    return None
