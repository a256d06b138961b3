"""A sampled deal: the value the sampler (belief.py) makes and the search
replays (sampled_state.py), in a module of its own so neither imports the
other for it."""

from __future__ import annotations

from dataclasses import dataclass

from arena.game.cards import Card


@dataclass(frozen=True, slots=True)
class Deal:
    """One sampled deal at the observed point.

    `hands`: every seat's cards now; `talon`: the cards still face down in
    the talon (empty once taken); `dealt_talon`: the talon as dealt;
    `given`: every give (from, to, card) with its card; `discarded`: the
    declarer's discards (exchange = discard)."""

    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]
    dealt_talon: tuple[Card, ...]
    given: tuple[tuple[int, int, Card], ...]
    discarded: tuple[Card, ...]
