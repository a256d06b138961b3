"""What the organiser could not choose: the seed (its commitment), the
schedule (the settings' plan) and every match's deal seed (derived from
the tournament seed and the public match ids), each checked with the
arena's own functions (secrecy.commitment, coordinator.plan_field and
deal_seeds)."""

from __future__ import annotations

from collections import defaultdict

from arena.tournament import SEAT_ORDERS, commitment, deal_seeds, plan_field, table_of
from arena.verify.errors import Mismatch
from arena.verify.load import Bundle


def check_commitment(bundle: Bundle) -> str:
    seed = bundle.seed
    if seed.seed is None:
        return ("commitment: not checked: the seed is not revealed yet "
                f"(committed to {seed.commitment})")
    actual = commitment(seed.salt, seed.seed)
    if actual != seed.commitment:
        raise Mismatch(f"commitment: sha256(\"{seed.salt}:{seed.seed}\") is {actual}, not the "
                       f"published commitment {seed.commitment}: the revealed seed is not the "
                       "one committed to")
    return f"commitment: sha256(\"SALT:SEED\") of the revealed seed is {actual}, as published"


def _names(bundle: Bundle, ids: tuple[int, ...]) -> str:
    return ", ".join(bundle.bots[i].name for i in ids)


def check_schedule(bundle: Bundle) -> str:
    field = bundle.field
    plan = plan_field(bundle.config, field) if len(field) >= 3 else []
    if len(plan) != bundle.planned:
        raise Mismatch(f"schedule: the settings plan {len(plan)} matches for this field, the "
                       f"bundle says {bundle.planned}")
    by_id = {m.match_id: m for m in plan}
    for x in bundle.matches:
        p = by_id.get(x.match_id)
        if p is None:
            raise Mismatch(f"match {x.match_id}: not a match the settings plan for this field")
        seated = tuple(field[i].id for i in p.bots)
        if (p.set_no, p.order_no, seated) != (x.set_no, x.order_no, x.bots):
            raise Mismatch(f"match {x.match_id}: seats {_names(bundle, x.bots)} (set {x.set_no}, "
                           f"order {x.order_no}); the schedule seats {_names(bundle, seated)} "
                           f"(set {p.set_no}, order {p.order_no})")
        if tuple(s.seat for s in x.result.seats) != tuple(range(len(x.bots))) or any(
                s.bot != bundle.bots[b].name for s, b in zip(x.result.seats, x.bots, strict=True)):
            raise Mismatch(f"match {x.match_id}: its result's seats are not the bots it seats")
    present = {x.match_id for x in bundle.matches}
    finished = bundle.leaderboard.get("matches_finished")
    if finished != len(present):
        missing = sorted(set(by_id) - present)
        raise Mismatch(f"schedule: leaderboard.json counts {finished} finished matches, the "
                       f"bundle holds {len(present)}"
                       + (f" (first missing: match {missing[0]})" if missing else ""))
    tables: dict[tuple[int, str], int] = defaultdict(int)
    for x in bundle.matches:
        tables[table_of(x.match_id)] += 1
    planned_tables = {table_of(m) for m in by_id}
    complete = sum(1 for t in planned_tables if tables.get(t) == len(SEAT_ORDERS))
    for x in bundle.matches:
        if x.replay is not None and tables[table_of(x.match_id)] != len(SEAT_ORDERS):
            raise Mismatch(f"match {x.match_id}: its replay is published, but its table's "
                           f"duplicate set holds {tables[table_of(x.match_id)]} of "
                           f"{len(SEAT_ORDERS)} seat orders")
    if len(present) == len(plan):
        return (f"schedule: all {len(plan)} planned matches present, as the settings give them: "
                f"{len(planned_tables)} tables in all {len(SEAT_ORDERS)} seat orders "
                f"({bundle.config.duplicate_sets} duplicate set(s) of {len(field)} bots)")
    return (f"schedule: {len(present)} of {len(plan)} planned matches played, each as the "
            f"settings give it; {complete} of {len(planned_tables)} tables complete "
            f"({len(plan) - len(present)} matches not played yet, as leaderboard.json says)")


def derived_seeds(bundle: Bundle) -> dict[str, int]:
    """Each match's deal seed from the revealed tournament seed (checking
    that its matches name one derivation per table)."""
    seeds = deal_seeds(bundle.config, bundle.field)
    kinds: dict[tuple[int, str], set[str]] = defaultdict(set)
    out: dict[str, int] = {}
    for x in bundle.matches:
        shared, fresh = seeds[x.match_id]
        if x.deals not in ("shared", "fresh"):
            raise Mismatch(f"match {x.match_id}: dealt from a seed neither derivation of the "
                           f"tournament seed gives ({x.deals!r})")
        kinds[table_of(x.match_id)].add(x.deals)
        if len(kinds[table_of(x.match_id)]) > 1:
            raise Mismatch(f"match {x.match_id}: its table's seat orders were not dealt alike "
                           "(shared and fresh deals in one duplicate set)")
        out[x.match_id] = shared if x.deals == "shared" else fresh
    return out


def check_seeds(bundle: Bundle, seeds: dict[str, int] | None) -> str:
    if seeds is None:
        return "deal seeds: not checked: the seed is not revealed yet"
    fresh = 0
    for x in bundle.matches:
        fresh += x.deals == "fresh"
        if x.replay is not None and x.result.seed != seeds[x.match_id]:
            raise Mismatch(f"match {x.match_id}: its result's deal seed {x.result.seed} is not "
                           f"the one the tournament seed gives ({seeds[x.match_id]})")
    return (f"deal seeds: all {len(bundle.matches)} re-derived from the tournament seed and the "
            f"match ids ({len(bundle.matches) - fresh} shared by every version, {fresh} fresh "
            "for a new version)")
