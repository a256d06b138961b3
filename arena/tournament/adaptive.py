"""The adaptive stop of a tournament (`stop = "settled"`): play duplicate
sets only where they still tell something, until neighbours are separated.

The plan is the fixed one (`duplicate_sets` sets of every table); the
adaptive stop plays a part of it, round by round, round r from set r:

* Round 0 plays every table, so every pair of bots has met.
* After each round the field is ordered by the batch TrueSkill fit of
  everything played (ratings.fit). For each pair of neighbours (a above b)
  the duplicate sets of tables holding both give one head-to-head score
  each: the share of that set's matches in which a finished ahead of b
  (ties 1/2). The pair is **settled** when the GSPRT of arena.tournament.sprt
  on those scores (elo0 0, elo1 SETTLE_ELO, alpha = beta = 0.05, read over
  all of them) accepts either hypothesis: H1, a is stronger than b by
  SETTLE_ELO or more (the two are separated), or H0, a is not stronger by
  that much (too close to tell at that resolution: more play would mostly
  confirm a tie). The test needs at least sprt.MIN_SETS sets of a pair.
* The tournament stops when every neighbouring pair is settled, or at the
  last set of the plan. Otherwise the next round plays the fewest tables
  that hold every unsettled neighbouring pair: greedily the table holding
  the most of them, the third seat taken in turn (by round) among the
  tables that hold the pair, so that a pair meets different third bots.

Every choice depends only on results of earlier rounds, in a fixed order,
so a resumed tournament makes the same choices, and the same results give
the same tournament.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from arena.tournament import ratings, sprt

SETTLE_ELO = 20.0
SETTLE = sprt.SprtParams(elo0=0.0, elo1=SETTLE_ELO, alpha=0.05, beta=0.05)
# A set's head-to-head score moves in steps of 1/12: six matches, each 0, 1/2 or 1.
RESOLUTION = 1.0 / 12.0


@dataclass(frozen=True)
class Played:
    """A finished match, as the adaptive stop sees it."""

    match_id: str
    unit: tuple[int, int]           # (set_no, deal seed): its duplicate set
    players: tuple[int, ...]        # bot ids in seat order
    places: tuple[int, ...]


@dataclass(frozen=True)
class Pair:
    above: int
    below: int
    sets: int
    llr: float
    decision: sprt.Decision | None


def order(played: Sequence[Played], bots: Sequence[int]) -> list[int]:
    """The field best first, by the batch fit of what was played."""
    rated = [ratings.RatedMatch(p.match_id, p.unit, p.players, p.places) for p in played]
    ranks = ratings.ranks_by(ratings.fit(sorted(rated, key=lambda m: m.match_id), bots))
    return sorted(bots, key=lambda b: ranks[b])


def head_to_head(played: Sequence[Played], a: int, b: int) -> list[float]:
    """a's score against b per duplicate set holding both, in set order."""
    units: dict[tuple[int, int], list[float]] = {}
    for p in played:
        if a in p.players and b in p.players:
            pa, pb = p.places[p.players.index(a)], p.places[p.players.index(b)]
            units.setdefault(p.unit, []).append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
    return [sum(v) / len(v) for _, v in sorted(units.items())]


def pairs(played: Sequence[Played], bots: Sequence[int]) -> list[Pair]:
    """Every neighbouring pair of the current order and its test."""
    ranked = order(played, bots)
    out = []
    for a, b in itertools.pairwise(ranked):
        scores = head_to_head(played, a, b)
        st = sprt.state(scores, SETTLE, RESOLUTION, sequential=False)
        out.append(Pair(a, b, len(scores), st.llr, st.decision))
    return out


def next_tables(tables: Sequence[tuple[int, ...]], open_pairs: Sequence[Pair],
                round_no: int) -> list[tuple[int, ...]]:
    """The tables (bot-id triples) of the next round: each open pair sits at
    one of them (see the module's docstring)."""
    chosen: list[tuple[int, ...]] = []
    todo = [(p.above, p.below) for p in open_pairs]

    def holds(t: tuple[int, ...], pair: tuple[int, int]) -> bool:
        return pair[0] in t and pair[1] in t

    while todo:
        first = todo[0]
        candidates = [t for t in tables if holds(t, first) and t not in chosen]
        if not candidates:
            todo.pop(0)
            continue
        best = max(sum(holds(t, q) for q in todo) for t in candidates)
        tied = [t for t in candidates if sum(holds(t, q) for q in todo) == best]
        pick = tied[round_no % len(tied)]
        chosen.append(pick)
        todo = [q for q in todo if not holds(pick, q)]
    return sorted(chosen)
