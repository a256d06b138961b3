"""Explicit, platform-independent randomness (splitmix64).

Python's `random` is never used: each deal's shuffle is derived from
(game seed, deal number, redeal count), so the same seed gives the same
game on every machine and Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """Tiny deterministic 64-bit generator (Steele, Lea, Flood 2014)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below(n) needs n > 0, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffled copy of `items`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def derive(seed: int, *parts: int) -> SplitMix64:
    """A generator for one purpose, e.g. derive(seed, deal_number, redeals)."""
    mixer = SplitMix64(seed)
    state = mixer.next64()
    for p in parts:
        state = SplitMix64(state ^ ((p * _GOLDEN) & _MASK) ^ (p & _MASK)).next64()
    return SplitMix64(state)
