"""The worked scoring example of seed 001 (docs/rules.md) as a fixed deal
and its tricks, for the scoring, barrel, blind and table-size tests."""

from __future__ import annotations

from . import deals
from .helpers import deal, play

HANDS, TALON = deals.EXAMPLE_001
TRICKS = [step for trick in deals.EXAMPLE_001_TRICKS for step in trick]


# The same deal played without declaring the clubs marriage (so no trump all
# deal): the declarer takes 36, seat 1 27, seat 2 57.
TRICKS_NO_MARRIAGE = [
    "0: play AH", "1: play 9H", "2: play JH",
    "0: play TH", "1: play KH", "2: play QH",
    "0: play KC", "1: play JC", "2: play 9C",
    "0: play QD", "1: play AD", "2: play TD",
    "1: play 9D", "2: play 9S", "0: play QC",
    "1: play KS", "2: play AS", "0: play QS",
    "2: play JS", "0: play TC", "1: play JD",
    "2: play TS", "0: play AC", "1: play KD",
]


def example_001(preset: str = "standard", contract: int = 120, totals: list[int] | None = None,
                tricks: list[str] = TRICKS, **options: object):  # type: ignore[no-untyped-def]
    g = deal(preset, HANDS, TALON, dealer=2, totals=totals, **options)
    g = play(g, "1: bid 110", "2: pass", "0: bid 120", "1: pass", *deals.EXAMPLE_001_GIVES,
             f"0: contract {contract}")
    return play(g, *tricks)
