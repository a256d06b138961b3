"""Which bots sit at which table, in which seat order, on which deals.

A tournament is a round robin of three-seat tables (docs/rules.md#core: three
players). The tables form a *balanced design*: every pair of bots sits
together at the same number of tables (lambda), and therefore every bot
plays the same number of tables (r = lambda * (n - 1) / 2).

* Small fields (n <= 6) play all C(n, 3) triples (lambda = n - 2).
* Larger fields play a balanced incomplete block design BIBD(n, 3, lambda)
  with the smallest lambda that exists for n (Hanani): lambda = 1 for
  n = 1, 3 mod 6 (a Steiner triple system), 2 for n = 0, 4 mod 6, 3 for
  n = 5 mod 6 and 6 for n = 2 mod 6. The design is found by Stinson's hill
  climbing, generalised to lambda > 1, from an RNG seeded by n and lambda,
  so it is the same on every machine; it is verified before use, and if the
  search fails the schedule falls back to all triples (always balanced).

Every table is played *duplicate*: all 6 seat orders on the same deal seed,
so every bot gets every seat's cards once (card luck cancels out). One such
group of 6 matches is a "duplicate set"; `duplicate_sets` says how many
times each table is played, each time on a fresh seed. Seeds are derived
from the tournament seed with SHA-256, so the whole tournament is
reproducible and does not depend on Python's hash or random module.
A table's seed and match ids come from its bots' names (`table_key`), not
from its position in the design: adding a bot adds tables without touching
the ones already played.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

from arena.tournament.errors import TournamentError

Design = Literal["auto", "all_triples", "balanced"]
DESIGNS: tuple[str, ...] = ("auto", "all_triples", "balanced")
SEAT_ORDERS: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))  # all 6, sorted
SMALL_FIELD = 6  # up to this many bots, every triple is a table


class ScheduleError(TournamentError, ValueError):
    """The field cannot be scheduled (for example fewer than 3 bots)."""


@dataclass(frozen=True)
class PlannedMatch:
    """One match of the schedule. `bots` are indices into the field, in seat order."""

    match_id: str
    set_no: int
    table_no: int
    order_no: int
    bots: tuple[int, int, int]
    seed: int


def derive_seed(tournament_seed: int, *parts: object) -> int:
    """A 63-bit seed from the tournament seed and a path of labels (SHA-256)."""
    text = ":".join([str(tournament_seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def min_lambda(n: int) -> int:
    """Smallest lambda for which a BIBD(n, 3, lambda) exists (n >= 3)."""
    if n % 6 in (1, 3):
        return 1
    if n % 6 in (0, 4):
        return 2
    if n % 6 == 5:
        return 3
    return 6


def tables(n: int, design: Design = "auto") -> list[tuple[int, int, int]]:
    """The tables (sorted triples of bot indices) for a field of n bots."""
    if n < 3:
        raise ScheduleError(f"a three-seat round robin needs at least 3 bots, got {n}")
    every: list[tuple[int, int, int]] = [
        (a, b, c) for a, b, c in itertools.combinations(range(n), 3)]
    if design == "all_triples" or (design == "auto" and n <= SMALL_FIELD):
        return every
    lam = min_lambda(n)
    if lam >= n - 2:
        return every  # the design would be all triples anyway
    found = _hill_climb(n, lam, random.Random(f"bibd:{n}:{lam}"))
    if found is None or not is_balanced(n, found):
        return every
    return sorted(found)


def pair_counts(n: int, blocks: Sequence[Sequence[int]]) -> Counter[tuple[int, int]]:
    counts: Counter[tuple[int, int]] = Counter()
    for block in blocks:
        for a, b in itertools.combinations(sorted(block), 2):
            counts[(a, b)] += 1
    for pair in itertools.combinations(range(n), 2):
        counts.setdefault(pair, 0)
    return counts


def is_balanced(n: int, blocks: Sequence[Sequence[int]]) -> bool:
    """True if every pair of the n bots shares the same number (> 0) of tables."""
    values = set(pair_counts(n, blocks).values())
    return len(values) == 1 and 0 not in values


def _hill_climb(
    n: int, lam: int, rng: random.Random, max_steps: int = 200_000
) -> list[tuple[int, int, int]] | None:
    """Stinson's hill climbing for a BIBD(n, 3, lam).

    Keeps a partial design in which no pair is covered more than lam times.
    Each step picks a point x with too few blocks and two partners y, z whose
    pairs with x are still short; if {y, z} is short too the block is added,
    otherwise one block holding {y, z} is swapped out for {x, y, z}. Repeated
    blocks are allowed (as in any lambda-fold system)."""
    r = lam * (n - 1) // 2
    goal = lam * n * (n - 1) // 6
    blocks: list[tuple[int, int, int]] = []
    degree = [0] * n
    cover: dict[tuple[int, int], int] = dict.fromkeys(itertools.combinations(range(n), 2), 0)

    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def add(block: tuple[int, int, int]) -> None:
        blocks.append(block)
        for p in block:
            degree[p] += 1
        for a, b in itertools.combinations(block, 2):
            cover[key(a, b)] += 1

    def remove(index: int) -> None:
        block = blocks.pop(index)
        for p in block:
            degree[p] -= 1
        for a, b in itertools.combinations(block, 2):
            cover[key(a, b)] -= 1

    for _ in range(max_steps):
        if len(blocks) == goal:
            return blocks
        live = [p for p in range(n) if degree[p] < r]
        x = rng.choice(live)
        partners = [p for p in range(n) if p != x and cover[key(x, p)] < lam]
        if len(partners) < 2:
            # With lambda > 1 all of x's shortfall can sit on one partner;
            # drop one of x's blocks to open other pairs, and climb on.
            remove(rng.choice([i for i, b in enumerate(blocks) if x in b]))
            continue
        y, z = rng.sample(partners, 2)
        block = tuple(sorted((x, y, z)))
        if cover[key(y, z)] < lam:
            add(block)  # type: ignore[arg-type]
        else:
            holding = [i for i, b in enumerate(blocks) if y in b and z in b]
            remove(rng.choice(holding))
            add(block)  # type: ignore[arg-type]
    return None


def table_key(names: Sequence[str], occurrence: int = 0) -> str:
    """A table's identity: the names of its three bots (in any order) and which
    occurrence of that triple it is in one duplicate set (designs with
    lambda > 1 may repeat a triple). It does not depend on the table's
    position in the schedule, so adding a bot (which renumbers the tables)
    leaves every existing table, its deal seed and its match ids unchanged.
    Names, not versions: a new version of a bot plays the same deals as the
    old one did, unless those deals may be public (`deal_seed`)."""
    return "|".join(sorted(names)) + f"#{occurrence}"


def match_id(set_no: int, table: str, order_no: int, lineup: Sequence[str]) -> str:
    """Sortable id: id order is set, table, seat order. `table` is the
    table_key; a digest keeps ids short and safe as file names. The digest of
    the seated bot versions makes a match with a changed bot a different
    match, so results of an old version are kept apart, never overwritten."""
    digest = hashlib.sha256("|".join(lineup).encode()).hexdigest()[:8]
    return f"s{set_no:03d}-t{table_digest(table)}-o{order_no}-{digest}"


def table_digest(table: str) -> str:
    """The table part of a match id (`t<digest>`), from its table_key."""
    return hashlib.sha256(table.encode()).hexdigest()[:10]


def table_of(match_id_: str) -> tuple[int, str]:
    """(set number, table digest) of a match id made by `match_id`."""
    set_part, table_part = match_id_.split("-")[:2]
    return int(set_part[1:]), table_part[1:]


# (set number, table digest) -> the sets of bot versions (field keys) that
# have finished matches at that table: whose deals may be public.
Played = Mapping[tuple[int, str], AbstractSet[frozenset[str]]]


class _EveryTablePlayed(Mapping[tuple[int, str], AbstractSet[frozenset[str]]]):
    """A `played` in which other versions have played at every table."""

    def __getitem__(self, key: tuple[int, str]) -> AbstractSet[frozenset[str]]:
        return frozenset({frozenset()})

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return iter(())

    def __len__(self) -> int:
        return 0


# With it, `plan` gives every table its fresh seed (deal_seed's second
# derivation): what a published match's seed is checked against when it was
# dealt fresh (arena verify), without the store's history of who played where.
EVERY_TABLE_PLAYED: Played = _EveryTablePlayed()


def deal_seed(tournament_seed: int, set_no: int, key: str, versions: Iterable[str],
              played: Played | None) -> int:
    """The deal seed of one table in one set. The same for every version of
    its bots (duplicate across versions: comparable results), unless
    `played` is given and other versions have finished matches there: their
    replays show those deals, so a new version gets a seed of its own
    (derived from the versions seated) that no one has seen."""
    base = derive_seed(tournament_seed, "deal", set_no, key)
    if played is None:
        return base
    mine = frozenset(versions)
    if not any(other != mine for other in played.get((set_no, table_digest(key)), ())):
        return base
    return derive_seed(tournament_seed, "deal", set_no, key, "versions", "|".join(sorted(mine)))


def plan(
    field: Sequence[str], duplicate_sets: int, tournament_seed: int, design: Design = "auto",
    names: Sequence[str] | None = None, played: Played | None = None,
) -> list[PlannedMatch]:
    """Every match of the tournament, in match-id order.

    `field` holds one key per bot version (for example "name@content-hash"),
    in a fixed order (the tournament sorts bots by name); `names` the bots'
    names in the same order (default: the keys), which identify the tables.
    `table_no` is the table's position in this plan only: ids and seeds do
    not depend on it. With `played`, a table whose deals other versions of
    its bots have played gets fresh deals (`deal_seed`)."""
    n = len(field)
    labels = list(field if names is None else names)
    if len(labels) != n:
        raise ScheduleError(f"{n} bots but {len(labels)} names")
    if duplicate_sets < 1:
        raise ScheduleError(f"duplicate_sets must be at least 1, got {duplicate_sets}")
    out: list[PlannedMatch] = []
    design_tables = tables(n, design)
    for set_no in range(duplicate_sets):
        seen: Counter[tuple[int, int, int]] = Counter()
        for table_no, triple in enumerate(design_tables):
            key = table_key([labels[i] for i in triple], seen[triple])
            seen[triple] += 1
            # One seed for the 6 seat orders: the duplicate deal (same cards per seat).
            seed = deal_seed(tournament_seed, set_no, key, (field[i] for i in triple), played)
            for order_no, order in enumerate(SEAT_ORDERS):
                seated = (triple[order[0]], triple[order[1]], triple[order[2]])
                lineup = [field[i] for i in seated]
                out.append(PlannedMatch(
                    match_id=match_id(set_no, key, order_no, lineup), set_no=set_no,
                    table_no=table_no, order_no=order_no, bots=seated, seed=seed,
                ))
    out.sort(key=lambda m: m.match_id)
    return out
