"""Read-only queries over a tournament's store, for pages that list matches.

`Store` loads every match with its whole result (what ratings need); a page
shows fifty. These queries filter and page in SQLite and read only the
columns a page needs, so a store of ten thousand matches answers in
milliseconds (benchmarks/web.py). Nothing here writes: open the store with
`Store(path, readonly=True)` beside a running tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.tournament.store import MatchRow, Store, _match

STATUSES = ("planned", "running", "finished", "failed")


@dataclass(frozen=True)
class MatchFilter:
    """Which matches a list shows; empty fields do not filter."""

    bot_ids: tuple[int, ...] = ()       # a seat holds one of these (one bot's versions)
    vs_ids: tuple[int, ...] = ()        # ... and another seat one of these
    table: str = ""                     # the table's digest: the "t..." part of a match id
    set_no: int | None = None
    status: str = ""                    # one of STATUSES
    fault: str = ""                     # a fault kind, or "any"


@dataclass(frozen=True)
class FaultRow:
    match_id: str
    seat: int
    bot_id: int
    kind: str
    count: int
    log: str


def _where(f: MatchFilter) -> tuple[str, list[object]]:
    clauses: list[str] = []
    args: list[object] = []
    for ids in (f.bot_ids, f.vs_ids):
        if ids:
            marks = ",".join("?" * len(ids))
            clauses.append(f"EXISTS (SELECT 1 FROM json_each(matches.bot_ids) WHERE value IN ({marks}))")
            args.extend(ids)
    if f.table:
        clauses.append("instr(match_id, ?) > 0")
        args.append(f"-{f.table}-")
    if f.set_no is not None:
        clauses.append("set_no = ?")
        args.append(f.set_no)
    if f.status:
        clauses.append("status = ?")
        args.append(f.status)
    if f.fault:
        sub = "SELECT 1 FROM faults WHERE faults.match_id = matches.match_id"
        if f.bot_ids:
            sub += f" AND faults.bot_id IN ({','.join('?' * len(f.bot_ids))})"
            args.extend(f.bot_ids)
        if f.fault != "any":
            sub += " AND faults.kind = ?"
            args.append(f.fault)
        clauses.append(f"EXISTS ({sub})")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args


def count_matches(store: Store, f: MatchFilter) -> int:
    where, args = _where(f)
    row = store._db.execute(f"SELECT COUNT(*) FROM matches{where}", args).fetchone()
    return int(row[0])


def match_page(store: Store, f: MatchFilter, offset: int, limit: int) -> list[MatchRow]:
    """One page of the matches `f` selects, in match-id order."""
    where, args = _where(f)
    rows = store._db.execute(
        f"SELECT * FROM matches{where} ORDER BY match_id LIMIT ? OFFSET ?",
        [*args, limit, offset]).fetchall()
    return [_match(r) for r in rows]


def match(store: Store, match_id: str) -> MatchRow | None:
    row = store._db.execute("SELECT * FROM matches WHERE match_id = ?", (match_id,)).fetchone()
    return None if row is None else _match(row)


def faults(store: Store, bot_ids: Sequence[int] = (), match_ids: Sequence[str] = ()) -> list[FaultRow]:
    """Stored faults, of some bots' versions or of some matches, in match order."""
    sql = "SELECT * FROM faults"
    args: list[object] = []
    if bot_ids:
        sql += f" WHERE bot_id IN ({','.join('?' * len(bot_ids))})"
        args.extend(bot_ids)
    elif match_ids:
        sql += f" WHERE match_id IN ({','.join('?' * len(match_ids))})"
        args.extend(match_ids)
    sql += " ORDER BY match_id, seat, kind"
    return [FaultRow(r["match_id"], r["seat"], r["bot_id"], r["kind"], r["count"], r["log"])
            for r in store._db.execute(sql, args)]


def signature(store: Store) -> tuple[object, ...]:
    """Changes whenever a match starts, finishes or fails, or a bot is added:
    what a live page polls to know it must refresh."""
    row = store._db.execute(
        "SELECT COUNT(*), SUM(status = 'finished'), SUM(status = 'running'),"
        " SUM(status = 'failed'), MAX(finished_at), MAX(started_at),"
        " (SELECT COUNT(*) FROM bots) FROM matches").fetchone()
    return tuple(row)
