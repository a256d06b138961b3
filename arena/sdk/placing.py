"""Uniform random placement of cards into places with fixed counts, each
card allowed only in some places: exact counting, then drawing card by card
in proportion to the completions (the sampler's core, arena.sdk.belief)."""

from __future__ import annotations

import random
from collections.abc import Sequence


class Places:
    """Uniform draws of an assignment of n cards to places, card i to one of
    `allowed[i]`, with exactly `counts[k]` cards per place: the number of
    completions is counted (memoised on the cards left per place) and each
    card's place drawn in proportion to it."""

    def __init__(self, allowed: tuple[tuple[int, ...], ...], counts: tuple[int, ...]) -> None:
        self.allowed = allowed
        self.counts = counts
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, i: int, left: tuple[int, ...]) -> int:
        if i == len(self.allowed):
            return 1
        key = (i, left)
        got = self._memo.get(key)
        if got is None:
            got = 0
            for k in self.allowed[i]:
                if left[k]:
                    got += self.count(i + 1, (*left[:k], left[k] - 1, *left[k + 1:]))
            self._memo[key] = got
        return got

    def total(self) -> int:
        return self.count(0, self.counts)

    def draw(self, rng: random.Random) -> list[int]:
        left = self.counts
        out = []
        for i in range(len(self.allowed)):
            options = []
            for k in self.allowed[i]:
                if left[k]:
                    nxt = (*left[:k], left[k] - 1, *left[k + 1:])
                    options.append((k, nxt, self.count(i + 1, nxt)))
            k, left, _ = options[weighted(rng, [w for _, _, w in options])]
            out.append(k)
        return out


def weighted(rng: random.Random, weights: Sequence[int]) -> int:
    """An index drawn in proportion to `weights` (whole numbers, not all 0)."""
    pick = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        pick -= w
        if pick < 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)  # float rounding at the top end
