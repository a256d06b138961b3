"""The engine's randomness: a one-way, platform-independent derivation.

Every random value of a game (the first dealer, each deal's shuffle, hence
the hands, the talon, the stock and the banks) comes from the game seed
through SHA-256 only, so that what a bot sees (its hand, the cards played)
tells nothing about the seed nor about any other deal. An invertible
generator (the splitmix64 used before) would not do: some 40 bits of its
output per deal against a 64-bit state let a solver recover the state, and
with it every later deal of the match.

The derivation (docs/rules.md#randomness repeats it; a test
recomputes it independently):

    key    = the seed's low 64 bits, 8 bytes big-endian
    stream = HMAC-SHA256(key, "arena-1000:" + label + ":" + parts joined by ":")
    block i (i = 0, 1, ...) = SHA-256(stream || i as 8 bytes big-endian)
    words  = the blocks' bytes, read 8 at a time as big-endian 64-bit integers

A draw below n takes the next word x and rejects it while x >= 2**64 -
(2**64 mod n) (no modulo bias), then returns x mod n. A shuffle is
Fisher-Yates from the last position down: for i = len-1 .. 1, swap i with
below(i + 1). Python's `random` is never used, so the same seed gives the
same game on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_DOMAIN = "arena-1000"


def seed_key(seed: int) -> bytes:
    """The HMAC key of a seed: its low 64 bits (the CLI caps seeds there)."""
    return (seed & _MASK).to_bytes(8, "big")


class DrawStream:
    """Uniform 64-bit words from SHA-256 in counter mode over a 32-byte secret."""

    __slots__ = ("_counter", "_secret", "_words")

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._counter = 0
        self._words: list[int] = []

    def next64(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._secret + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            # Reversed so that pop() hands the words out in block order.
            self._words = [int.from_bytes(block[k:k + 8], "big") for k in (24, 16, 8, 0)]
        return self._words.pop()

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


def derive(seed: int, label: str, *parts: int) -> DrawStream:
    """The stream for one purpose, e.g. derive(seed, "deal", deal_number, redeals).
    Streams of different labels or parts are independent without the seed."""
    if ":" in label:
        raise ValueError(f"derive: label {label!r} must not contain ':'")
    message = ":".join([_DOMAIN, label, *(str(int(p)) for p in parts)]).encode()
    return DrawStream(hmac.new(seed_key(seed), message, hashlib.sha256).digest())
