"""Read-only queries over a tournament's store, for pages that list matches.

`Store` loads every match with its whole result (what ratings need); a page
shows fifty. These queries filter and page in SQLite and read only the
columns a page needs, so a store of ten thousand matches answers in
milliseconds (benchmarks/web.py). Nothing here writes: open the store with
`Store(path, readonly=True)` beside a running tournament.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
class MatchSummary:
    """What a list shows of a match: read in SQLite from the stored result,
    without building the whole MatchResult (its deals) in Python."""

    match_id: str
    set_no: int
    bot_ids: tuple[int, ...]
    status: str
    error: str
    seats: tuple[tuple[int, int, str], ...]   # per seat: place, total, status ((): no result)
    deals: int | None
    reason: str
    replay_path: str


_SUMMARY = (
    "SELECT match_id, set_no, bot_ids, status, error,"
    " (SELECT json_group_array(json_array(json_extract(value, '$.place'),"
    "  json_extract(value, '$.total'), json_extract(value, '$.status')))"
    "  FROM json_each(result, '$.seats')) AS seats,"
    " json_array_length(result, '$.deals') AS deals,"
    " json_extract(result, '$.reason') AS reason,"
    " json_extract(result, '$.replay_path') AS replay FROM matches")


def _summary(r: Any) -> MatchSummary:
    return MatchSummary(
        match_id=r["match_id"], set_no=r["set_no"], bot_ids=tuple(json.loads(r["bot_ids"])),
        status=r["status"], error=r["error"],
        seats=tuple(tuple(x) for x in json.loads(r["seats"])) if r["seats"] else (),
        deals=r["deals"], reason=r["reason"] or "", replay_path=r["replay"] or "")


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


def match_page(store: Store, f: MatchFilter, offset: int, limit: int) -> list[MatchSummary]:
    """One page of the matches `f` selects, in match-id order."""
    where, args = _where(f)
    rows = store._db.execute(f"{_SUMMARY}{where} ORDER BY match_id LIMIT ? OFFSET ?",
                             [*args, limit, offset]).fetchall()
    return [_summary(r) for r in rows]


def summaries(store: Store, match_ids: Sequence[str]) -> dict[str, MatchSummary]:
    """The summaries of some matches, by id."""
    if not match_ids:
        return {}
    rows = store._db.execute(
        f"{_SUMMARY} WHERE match_id IN ({','.join('?' * len(match_ids))})", list(match_ids))
    return {r["match_id"]: _summary(r) for r in rows}


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


def table_key(match_id: str, set_no: int) -> tuple[int, str]:
    """The duplicate table a match belongs to: its set and the "t..." part
    of its id (the seat orders of a table, and of a gauntlet set, share
    their deals). An id without a table part is a table of its own."""
    parts = match_id.split("-")
    return set_no, (parts[1] if len(parts) > 1 and parts[1].startswith("t") else match_id)


def withheld(store: Store, matches: Sequence[tuple[str, int]]) -> set[str]:
    """The ids among `matches` ((match id, set number) pairs) whose cards
    must not be shown yet: their table (table_key) has a match not finished
    (planned, running, or failed and to be played again). A replay, a seat's
    view, a fault's decision and a seat log of such a match would tell the
    bots still to play those deals what they will be dealt. `arena serve`
    and `arena leaderboard publish` both decide with this one function."""
    tables: dict[tuple[int, str], list[str]] = {}
    for mid, set_no in matches:
        tables.setdefault(table_key(mid, set_no), []).append(mid)
    out: set[str] = set()
    for (set_no, part), mids in tables.items():
        if part == mids[0]:  # no table part: the match alone
            row = store._db.execute("SELECT 1 FROM matches WHERE match_id = ? AND"
                                    " status != 'finished'", (part,)).fetchone()
        else:
            # The ids of a table share "<set>-<table>-" (schedule.match_id,
            # gauntlet): a range of the primary key, not a scan of the store.
            prefix = mids[0][:mids[0].index(part) + len(part)] + "-"
            row = store._db.execute(
                "SELECT 1 FROM matches WHERE match_id >= ? AND match_id < ? AND set_no = ?"
                " AND instr(match_id, ?) > 0 AND status != 'finished' LIMIT 1",
                (prefix, prefix[:-1] + ".", set_no, f"-{part}-")).fetchone()
        if row is not None:
            out.update(mids)
    return out


def signature(store: Store) -> tuple[object, ...]:
    """Changes whenever the store is written (a match planned, started,
    finished or failed, a bot added): what a live page polls, and what keeps
    a page's cached figures fresh. The store's files' sizes and times, not a
    query: SQLite in WAL mode appends every commit to the -wal file and a
    checkpoint rewrites the main file."""
    out: list[object] = []
    for suffix in ("", "-wal"):
        try:
            st = os.stat(f"{store.path}{suffix}")
        except FileNotFoundError:
            out.append(None)
        else:
            out.append((st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def rating_history(store: Store, bot_ids: Sequence[int]) -> dict[int, list[tuple[int, str, float, float]]]:
    """The stored rating history (step, match_id, mu, sigma) of some bots."""
    out: dict[int, list[tuple[int, str, float, float]]] = {b: [] for b in bot_ids}
    rows = store._db.execute(
        f"SELECT * FROM rating_history WHERE bot_id IN ({','.join('?' * len(bot_ids))})"
        " ORDER BY bot_id, step", list(bot_ids))
    for r in rows:
        out[r["bot_id"]].append((r["step"], r["match_id"], r["mu"], r["sigma"]))
    return out
