"""Match results of bots of known order, for the rating tests."""

from __future__ import annotations

import itertools
import random

from arena.tournament.rating.ratings import (
    RatedMatch,
)


def matches(strength: dict[int, float], sets: int, seed: int) -> list[RatedMatch]:
    """Duplicate sets over all triples; places from strength plus seat luck."""
    rng = random.Random(seed)
    out = []
    for s in range(sets):
        for t, triple in enumerate(itertools.combinations(sorted(strength), 3)):
            luck = [rng.gauss(0, 1) for _ in range(3)]
            for o, order in enumerate(itertools.permutations(triple)):
                score = [strength[b] + luck[seat] for seat, b in enumerate(order)]
                places = tuple(1 + sum(x > mine for x in score) for mine in score)
                out.append(RatedMatch(f"s{s:03d}-t{t:04d}-o{o}", (s, t), order, places))
    return out
