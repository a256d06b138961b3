"""Checks of command-line values shared by several commands."""

from __future__ import annotations

import math


def seconds_problem(option: str, value: float, *, zero_ok: bool = False) -> str:
    """What is wrong with a time option in seconds ("" if nothing): it must be
    finite and positive (or 0 with `zero_ok`). Written as `not x > 0` rather
    than `x <= 0`: NaN fails every comparison, so it would pass the latter."""
    if zero_ok:
        if not (math.isfinite(value) and value >= 0):
            return f"{option} {value}: expected a number of seconds, 0 or more"
    elif not (math.isfinite(value) and value > 0):
        return f"{option} {value}: expected a positive number of seconds"
    return ""


# The largest deal seed: the engine keeps a seed's low 64 bits
# (arena.game.rng), so a larger one would deal the very games of a smaller one.
SEED_MAX = 2**64 - 1
