"""The tournament's SQLite file: bots and versions, matches, faults, ratings.

One file per tournament, in WAL mode. Only the coordinator writes it. Every
write is one transaction, and a finished result is stored with
`match_id` as its key, so a runner killed at any moment (even SIGKILL) loses
no finished match and never counts one twice: a match that was running when
the runner died is simply planned again (`reset_running`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from arena.game.records import DealRecord
from arena.referee.spec import MatchResult, SeatResult
from arena.tournament.errors import TournamentError
from arena.tournament.plan.schedule import match_id as make_match_id
from arena.tournament.plan.schedule import table_key

# 2: match ids name the table by its bots (schedule.table_key), not by its
# position in the schedule; a version-1 store is migrated when opened.
SCHEMA_VERSION = "2"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bots(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    language TEXT NOT NULL,
    path TEXT NOT NULL,               -- snapshot folder, relative to the tournament folder
    source TEXT NOT NULL,             -- 'config' (tournament.toml) or 'submitted' (bot add)
    added_at REAL NOT NULL,
    UNIQUE(name, content_hash)
);
CREATE TABLE IF NOT EXISTS matches(
    match_id TEXT PRIMARY KEY,
    set_no INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    order_no INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    bot_ids TEXT NOT NULL,            -- JSON list of bots.id in seat order
    status TEXT NOT NULL CHECK(status IN ('planned', 'running', 'finished', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    result TEXT,                      -- JSON MatchResult when finished
    replay_path TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    started_at REAL,
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS matches_status ON matches(status);
CREATE TABLE IF NOT EXISTS faults(
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    kind TEXT NOT NULL,
    count INTEGER NOT NULL,
    log TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(match_id, seat, kind)
);
CREATE TABLE IF NOT EXISTS rating_history(
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    step INTEGER NOT NULL,            -- 1-based index of the bot's rated match
    match_id TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY(bot_id, step)
);
"""


class StoreError(TournamentError, ValueError):
    """The store file is unusable (wrong schema, corrupt); names the file."""


# How long opening the store waits for another process's write to end.
BUSY_SECONDS = 30.0


def _unusable(path: Path, exc: sqlite3.DatabaseError) -> str:
    if "locked" in str(exc):  # busy, not damaged: "not a usable store" misled
        return (f"{path}: the tournament store is locked by another process (waited "
                f"{BUSY_SECONDS:g} s for it); try again once that process is done")
    return f"{path}: not a usable tournament store: {exc}"


def _writable(path: Path) -> bool:
    """Whether this process may write the store: the file, and its folder
    (where SQLite keeps the -wal and -shm files of WAL mode). False on a
    read-only mount and for a user without write permission."""
    return os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)


def _read_only(path: Path) -> str:
    return (f"{path}: the tournament store is read-only (its folder or file is not writable "
            "here): this command must write to it; make the folder writable, or work on a "
            "writable copy")


class StoreMissing(StoreError):
    """A reader found no store yet: no file, or one a starting run has just
    created (empty, or its schema not written yet). No results, not damage."""


@dataclass(frozen=True)
class BotRow:
    id: int
    name: str
    version: str
    content_hash: str
    language: str
    path: str
    source: str
    added_at: float

    @property
    def key(self) -> str:
        return f"{self.name}@{self.content_hash}"


@dataclass(frozen=True)
class MatchRow:
    match_id: str
    set_no: int
    table_no: int
    order_no: int
    seed: int
    bot_ids: tuple[int, ...]
    status: str
    attempts: int
    result: MatchResult | None
    replay_path: str
    error: str


class Store:
    """A connection to one tournament's store. Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False) -> None:
        self.path = Path(path)
        # A store this process cannot write (a finished tournament's folder
        # made read-only, another user's) can still be read: status, the
        # leaderboard and the web pages need nothing more. A write through
        # it is then one line saying so (transaction), not "unusable".
        if readonly or (self.path.is_file() and not _writable(self.path)):
            self._open_readonly()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot open the tournament store: {exc}") from None
        self._db.row_factory = sqlite3.Row
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed result survives even a power cut, not only SIGKILL.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self.transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute("INSERT INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
                elif row["value"] == "1":
                    self._migrate_ids()
                elif row["value"] != SCHEMA_VERSION:
                    raise StoreError(f"{self.path}: schema version {row['value']}, "
                                     f"this arena reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(_unusable(self.path, exc)) from None
        except BaseException:
            self._db.close()
            raise

    def _open_readonly(self) -> None:
        """A reader beside a running tournament (arena serve): no schema
        written, no write lock taken, a missing file is an error, not a new
        store. A store of an older schema must be opened by a writer first."""
        if not self.path.is_file():
            raise StoreMissing(f"{self.path}: no tournament store (no results yet)")
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        folder_writable = os.access(self.path.parent, os.W_OK)
        wal = self.path.with_name(self.path.name + "-wal")
        if not folder_writable and not wal.exists():
            # A WAL reader needs the -shm file, which SQLite cannot make in a
            # folder it may not write. With no -wal file the store was closed
            # cleanly and no connection is writing it (a writer keeps one),
            # so it is read as the immutable file it is.
            uri += "&immutable=1"
        try:
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_SECONDS,
                                       check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the tournament store: {exc}") from None
        self._db.row_factory = sqlite3.Row
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if "no such table" in str(exc):  # a file a run has created, schema to come
                raise StoreMissing(f"{self.path}: no tournament store yet (no results yet)") from None
            if not folder_writable and "unable to open" in str(exc):
                raise StoreError(
                    f"{self.path}: cannot read the tournament store: its folder is not "
                    f"writable, and SQLite must write there to read its write-ahead log "
                    f"({wal.name}, left by a run that did not close the store); make the "
                    "folder writable once, or read a copy of it") from None
            raise StoreError(_unusable(self.path, exc)) from None
        if row is None:  # the schema's tables, not its version row yet: as above
            self._db.close()
            raise StoreMissing(f"{self.path}: no tournament store yet (no results yet)")
        if row["value"] != SCHEMA_VERSION:
            self._db.close()
            raise StoreError(f"{self.path}: schema version {row['value']}, "
                             f"this arena reads {SCHEMA_VERSION}")

    def _migrate_ids(self) -> None:
        """Schema 1 -> 2, inside the opening transaction: give every stored
        match the id it has under the table_key scheme. A table's six seat
        orders move together and keep their stored seed (the deals they were,
        or will be, played on), so nothing is replayed or lost. When one set
        holds the same bots at two positions (version 1 replayed a table after
        a bot was added), the one with more finished matches becomes the
        table's first occurrence; the other gets the next occurrence, which the
        plan only contains if the design repeats that table: otherwise its
        results stay stored, unrated, as they were when they left the plan."""
        db = self._db
        db.execute("PRAGMA defer_foreign_keys=ON")  # faults follow their match below
        bots = {r["id"]: (r["name"], f"{r['name']}@{r['content_hash']}")
                for r in db.execute("SELECT id, name, content_hash FROM bots")}
        rows = db.execute("SELECT match_id, set_no, table_no, order_no, bot_ids, status,"
                          " result FROM matches").fetchall()
        groups: dict[tuple[int, int, tuple[int, ...]], list[sqlite3.Row]] = {}
        for r in rows:
            ids = tuple(json.loads(r["bot_ids"]))
            groups.setdefault((r["set_no"], r["table_no"], tuple(sorted(ids))), []).append(r)

        def rank(item: tuple[tuple[int, int, tuple[int, ...]], list[sqlite3.Row]]) -> tuple[
                int, int, int, tuple[int, ...]]:
            (set_no, table_no, ids), members = item
            done = sum(m["status"] == "finished" for m in members)
            return (set_no, -done, table_no, ids)

        occurrence: dict[tuple[int, tuple[int, ...]], int] = {}
        renames: list[tuple[str, str]] = []
        for (set_no, _table_no, ids), members in sorted(groups.items(), key=rank):
            k = occurrence.get((set_no, ids), 0)
            occurrence[(set_no, ids)] = k + 1
            key = table_key([bots[i][0] for i in ids], k)
            for m in members:
                lineup = [bots[i][1] for i in json.loads(m["bot_ids"])]
                renames.append((m["match_id"], make_match_id(set_no, key, m["order_no"], lineup)))
        # Old ids (t + 4 digits) and new ones (t + 10 hex digits) never coincide,
        # so renaming in any order cannot collide.
        for old, new in renames:
            row = db.execute("SELECT result FROM matches WHERE match_id=?", (old,)).fetchone()
            result = row["result"]
            if result is not None:
                data = json.loads(result)
                data["match_id"] = new  # the stored result names its match
                result = json.dumps(data, sort_keys=True, separators=(",", ":"))
            db.execute("UPDATE matches SET match_id=?, result=? WHERE match_id=?",
                       (new, result, old))
            db.execute("UPDATE faults SET match_id=? WHERE match_id=?", (new, old))
            db.execute("UPDATE rating_history SET match_id=? WHERE match_id=?", (new, old))
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (SCHEMA_VERSION,))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
        # Damage past the file's header shows only when a query reaches it:
        # the same one line as damage found on opening, for every caller.
        if isinstance(exc, sqlite3.DatabaseError):
            if "readonly" in str(exc):
                raise StoreError(_read_only(self.path)) from None
            raise StoreError(f"{self.path}: not a usable tournament store: {exc}") from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc):
                raise StoreError(_read_only(self.path)) from None
            raise
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- meta ---------------------------------------------------------------
    def get_meta(self, key: str, default: str = "") -> str:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return default if row is None else str(row["value"])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (key, value))

    def get_json(self, key: str) -> Any:
        """A meta value stored as JSON, or None when absent."""
        text = self.get_meta(key)
        return json.loads(text) if text else None

    def set_json(self, key: str, value: Any) -> None:
        self.set_meta(key, json.dumps(value, sort_keys=True, default=str))

    def has_results(self) -> bool:
        return self._db.execute(
            "SELECT 1 FROM matches WHERE status='finished' LIMIT 1").fetchone() is not None

    def drop_unfinished(self) -> int:
        """Delete every match without a result (planned, running, failed): used
        only while no match has finished, when the settings that fixed their
        seeds changed. Nothing played is lost."""
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM matches WHERE status='finished' LIMIT 1").fetchone():
                raise StoreError(f"{self.path}: has results; unfinished matches are kept")
            db.execute("DELETE FROM faults")
            return db.execute("DELETE FROM matches").rowcount

    # -- bots ---------------------------------------------------------------
    def add_bot(self, name: str, version: str, content_hash: str, language: str,
                path: str, source: str) -> tuple[BotRow, bool]:
        """Register a bot version and make it the name's current one; returns
        (row, created). The same content is the same version: registering an
        older content again makes that version current again, nothing new."""
        with self.transaction() as db:
            row = db.execute("SELECT * FROM bots WHERE name=? AND content_hash=?",
                             (name, content_hash)).fetchone()
            if row is not None:
                latest = self.latest_versions().get(name)
                if latest is not None and latest.id != row["id"]:
                    db.execute("UPDATE bots SET added_at=? WHERE id=?",
                               (max(time.time(), latest.added_at + 1e-6), row["id"]))
                    row = db.execute("SELECT * FROM bots WHERE id=?", (row["id"],)).fetchone()
                return _bot(row), False
            latest = self.latest_versions().get(name)
            now = time.time() if latest is None else max(time.time(), latest.added_at + 1e-6)
            cur = db.execute(
                "INSERT INTO bots(name, version, content_hash, language, path, source, added_at)"
                " VALUES(?, ?, ?, ?, ?, ?, ?)",
                (name, version, content_hash, language, path, source, now),
            )
            new = db.execute("SELECT * FROM bots WHERE id=?", (cur.lastrowid,)).fetchone()
            return _bot(new), True

    def bots(self) -> list[BotRow]:
        return [_bot(r) for r in self._db.execute("SELECT * FROM bots ORDER BY id")]

    def latest_versions(self) -> dict[str, BotRow]:
        """The newest registered version of every bot name."""
        out: dict[str, BotRow] = {}
        for row in sorted(self.bots(), key=lambda b: (b.added_at, b.id)):
            out[row.name] = row  # the most recently registered one wins
        return out

    # -- matches ------------------------------------------------------------
    def plan(self, rows: Iterable[tuple[str, int, int, int, int, Sequence[int]]]) -> int:
        """Insert planned matches that are not stored yet; returns how many were new."""
        with self.transaction() as db:
            before = db.total_changes
            db.executemany(
                "INSERT OR IGNORE INTO matches(match_id, set_no, table_no, order_no, seed,"
                " bot_ids, status) VALUES(?, ?, ?, ?, ?, ?, 'planned')",
                [(m, s, t, o, seed, json.dumps(list(ids))) for m, s, t, o, seed, ids in rows],
            )
            return db.total_changes - before

    def reset_running(self) -> int:
        """Matches left 'running' by a dead runner become 'planned' again."""
        with self.transaction() as db:
            return db.execute(
                "UPDATE matches SET status='planned' WHERE status='running'").rowcount

    def mark_running(self, match_ids: Sequence[str]) -> None:
        with self.transaction() as db:
            db.executemany(
                "UPDATE matches SET status='running', attempts=attempts+1, started_at=?"
                " WHERE match_id=? AND status!='finished'",
                [(time.time(), m) for m in match_ids],
            )

    def finish(self, result: MatchResult) -> bool:
        """Store a result in one transaction. A second result for a finished
        match is ignored (returns False): results are idempotent by match id."""
        with self.transaction() as db:
            row = db.execute("SELECT status, bot_ids FROM matches WHERE match_id=?",
                             (result.match_id,)).fetchone()
            if row is None:
                raise StoreError(f"{self.path}: result for unknown match {result.match_id!r}")
            if row["status"] == "finished":
                return False
            bot_ids = json.loads(row["bot_ids"])
            db.execute(
                "UPDATE matches SET status='finished', result=?, replay_path=?, error='',"
                " finished_at=? WHERE match_id=?",
                (result_to_json(result), result.replay_path, time.time(), result.match_id),
            )
            db.execute("DELETE FROM faults WHERE match_id=?", (result.match_id,))
            for seat in result.seats:
                log = "\n".join(seat.fault_log)
                for kind, count in seat.faults:
                    if count:
                        db.execute("INSERT INTO faults VALUES(?, ?, ?, ?, ?, ?)",
                                   (result.match_id, seat.seat, bot_ids[seat.seat], kind,
                                    count, log))
            return True

    def fail(self, match_id: str, error: str) -> None:
        """The match could not be played (not a bot fault): planned again next run."""
        with self.transaction() as db:
            db.execute("UPDATE matches SET status='failed', error=? WHERE match_id=?"
                       " AND status!='finished'", (error, match_id))

    def matches(self, match_ids: Iterable[str] | None = None) -> list[MatchRow]:
        """Matches in match-id order (all, or those named)."""
        rows = self._db.execute("SELECT * FROM matches ORDER BY match_id").fetchall()
        if match_ids is not None:
            wanted = set(match_ids)
            rows = [r for r in rows if r["match_id"] in wanted]
        return [_match(r) for r in rows]

    def finished_by_bot(self) -> Counter[int]:
        """How many finished matches each bot played (without reading their results)."""
        out: Counter[int] = Counter()
        for (ids,) in self._db.execute("SELECT bot_ids FROM matches WHERE status='finished'"):
            out.update(set(json.loads(ids)))
        return out

    def results_version(self) -> tuple[object, ...]:
        """Changes whenever what a rating table reads changes: a match
        finished (a finished result is never rewritten, except by a schema
        migration, which the meta values show), the bots, the meta values
        (schema, salt, fingerprint); not when a match starts or fails, which
        browse.signature counts too."""
        done = self._db.execute(
            "SELECT COUNT(*), MAX(finished_at) FROM matches WHERE status='finished'").fetchone()
        bots = self._db.execute("SELECT * FROM bots ORDER BY id").fetchall()
        meta = self._db.execute("SELECT key, value FROM meta ORDER BY key").fetchall()
        return tuple(done), tuple(tuple(r) for r in bots), tuple(tuple(r) for r in meta)

    def counts(self) -> dict[str, int]:
        return {r["status"]: r["n"] for r in self._db.execute(
            "SELECT status, COUNT(*) AS n FROM matches GROUP BY status")}

    # -- ratings ------------------------------------------------------------
    def save_rating_history(self, history: Sequence[tuple[int, int, str, float, float]]) -> None:
        """Replace the rating history (bot_id, step, match_id, mu, sigma); it is
        recomputed from the results, in match-id order, after each run."""
        with self.transaction() as db:
            db.execute("DELETE FROM rating_history")
            db.executemany("INSERT INTO rating_history VALUES(?, ?, ?, ?, ?)", history)

    def rating_history(self) -> dict[int, list[tuple[int, str, float, float]]]:
        out: dict[int, list[tuple[int, str, float, float]]] = {}
        for r in self._db.execute("SELECT * FROM rating_history ORDER BY bot_id, step"):
            out.setdefault(r["bot_id"], []).append((r["step"], r["match_id"], r["mu"], r["sigma"]))
        return out


def _bot(row: sqlite3.Row) -> BotRow:
    return BotRow(**{k: row[k] for k in row.keys()})  # noqa: SIM118 (sqlite3.Row)


def _match(row: sqlite3.Row) -> MatchRow:
    return MatchRow(
        match_id=row["match_id"], set_no=row["set_no"], table_no=row["table_no"],
        order_no=row["order_no"], seed=row["seed"], bot_ids=tuple(json.loads(row["bot_ids"])),
        status=row["status"], attempts=row["attempts"],
        result=None if row["result"] is None else result_from_json(row["result"]),
        replay_path=row["replay_path"], error=row["error"],
    )


def result_to_json(result: MatchResult) -> str:
    return json.dumps(asdict(result), sort_keys=True, separators=(",", ":"))


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def result_from_json(text: str) -> MatchResult:
    data = json.loads(text)
    seats = tuple(
        SeatResult(**{k: _tuples(v) for k, v in s.items()}) for s in data.pop("seats"))
    deals = tuple(
        DealRecord(**{k: _tuples(v) for k, v in d.items()}) for d in data.pop("deals"))
    return MatchResult(seats=seats, deals=deals,
                       **{k: _tuples(v) for k, v in data.items()})
