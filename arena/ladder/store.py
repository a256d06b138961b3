"""The ladder's SQLite file: users, bots, submissions, blocks, matches, ratings.

One file per ladder (ladder.sqlite, WAL mode), written by the one
`arena ladder serve` process (its match lanes and its web handlers, one
connection behind a lock) and by `arena ladder user add`. Every write is
one transaction, so a server killed at any moment loses no finished
match and never counts a block twice: a block that was running when the
server died is closed as failed on the next start (`recover`), never
rated, and a submission that was being built or validated is queued again.

Tokens are stored as their SHA-256 (tokens.py), never as given.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from arena.ladder import tokens
from arena.ladder.errors import LadderError
from arena.ladder.rows import (
    LIVE,
    PENDING,
    SCHEMA,
    SCHEMA_VERSION,
    STATES,
    SUBMISSIONS_QUERY,
    Block,
    MatchRow,
    Submission,
    User,
    block_of,
    match_of,
    submission_of,
    user_of,
)
from arena.referee.spec import MatchResult
from arena.tournament import result_to_json

__all__ = ["LIVE", "PENDING", "STATES", "Block", "MatchRow", "Ratings", "Store", "StoreError",
           "Submission", "User"]

class StoreError(LadderError, ValueError):
    """The ladder's store is unusable (another schema, damaged); names the file."""


# (mu, sigma) per submission id: what a block's rating step reads and writes.
Ratings = dict[int, tuple[float, float]]


class Store:
    """The ladder's store; safe to share between threads (one lock)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self._lock = threading.RLock()
        self._commits = 0   # this connection's; PRAGMA data_version counts the others'
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                       check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot open the ladder store: {exc}") from None
        self._db.row_factory = sqlite3.Row
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self.transaction() as db:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    db.execute("INSERT INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
                elif row["value"] != SCHEMA_VERSION:
                    raise StoreError(f"{self.path}: ladder store schema {row['value']}, this "
                                     f"arena reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path}: not a usable ladder store: {exc}") from None
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._commits += 1

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _one(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Row | None:
        with self._lock:
            row: sqlite3.Row | None = self._db.execute(sql, args).fetchone()
            return row

    # -- meta -----------------------------------------------------------------
    def get_meta(self, key: str, default: str = "") -> str:
        row = self._one("SELECT value FROM meta WHERE key=?", (key,))
        return default if row is None else str(row["value"])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (key, value))

    def meta_once(self, key: str, make: Callable[[], str]) -> str:
        """The meta value of `key`, made by `make` and kept on first use."""
        with self.transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            if row is not None:
                return str(row["value"])
            value = make()
            db.execute("INSERT INTO meta VALUES(?, ?)", (key, value))
            return value

    # -- users ----------------------------------------------------------------
    def add_user(self, name: str, token: str, organiser: bool = False) -> User:
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM users WHERE name=?", (name,)).fetchone():
                raise LadderError(f"{self.path}: a user named {name!r} exists already")
            now = self.clock()
            cur = db.execute("INSERT INTO users(name, token_hash, organiser, created_at)"
                             " VALUES(?, ?, ?, ?)", (name, tokens.digest(token), int(organiser), now))
            return User(int(cur.lastrowid or 0), name, organiser, now)

    def user_for_token(self, token: str) -> User | None:
        """The user whose token this is; None for any other string."""
        if not tokens.plausible(token):
            return None
        row = self._one("SELECT * FROM users WHERE token_hash=?", (tokens.digest(token),))
        if row is None or not tokens.same(row["token_hash"], token):
            return None
        return user_of(row)

    def user(self, user_id: int) -> User | None:
        row = self._one("SELECT * FROM users WHERE id=?", (user_id,))
        return None if row is None else user_of(row)

    def user_named(self, name: str) -> User | None:
        row = self._one("SELECT * FROM users WHERE name=?", (name,))
        return None if row is None else user_of(row)

    def users(self) -> list[User]:
        return [user_of(r) for r in self._all("SELECT * FROM users ORDER BY id")]

    # -- bots and submissions -------------------------------------------------
    def bot_owner(self, name: str) -> tuple[bool, int | None]:
        """(whether the bot name is taken, its author's id: None for a reference bot)."""
        row = self._one("SELECT user_id FROM bots WHERE name=?", (name,))
        return (False, None) if row is None else (True, row["user_id"])

    def add_submission(self, user_id: int | None, bot: str, version: str, content_hash: str,
                       language: str, path: Callable[[int], str], files: int, size: int,
                       state: str = "queued", place: Callable[[int], None] | None = None) -> int:
        """Record a submission (claiming its bot name for its author) and,
        inside the same transaction, `place(id)` its files: a failure there
        leaves nothing recorded. Returns its id."""
        with self.transaction() as db:
            row = db.execute("SELECT user_id FROM bots WHERE name=?", (bot,)).fetchone()
            if row is None:
                db.execute("INSERT INTO bots VALUES(?, ?)", (bot, user_id))
            elif row["user_id"] != user_id:
                raise LadderError(f"bot name {bot!r} belongs to another author on this ladder")
            now = self.clock()
            cur = db.execute(
                "INSERT INTO submissions(user_id, bot, version, content_hash, language, path,"
                " state, files, bytes, created_at, updated_at)"
                " VALUES(?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?)",
                (user_id, bot, version, content_hash, language, state, files, size, now, now))
            new = int(cur.lastrowid or 0)
            db.execute("UPDATE submissions SET path=? WHERE id=?", (path(new), new))
            if place is not None:
                place(new)
            return new

    def set_state(self, submission_id: int, state: str, reason: str = "") -> None:
        """A submission's new state; an active one replaces the author's
        active version of the same bot (`replaced`), unless a newer version
        is active already (then this one is `replaced` at once)."""
        with self.transaction() as db:
            row = db.execute("SELECT * FROM submissions WHERE id=?", (submission_id,)).fetchone()
            if row is None:
                raise LadderError(f"no submission {submission_id}")
            now = self.clock()
            if state == "active":
                newer = db.execute("SELECT 1 FROM submissions WHERE bot=? AND state='active'"
                                   " AND id>?", (row["bot"], submission_id)).fetchone()
                if newer is not None:
                    state, reason = "replaced", "a newer version was active already"
                else:
                    db.execute("UPDATE submissions SET state='replaced', reason=?, updated_at=?"
                               " WHERE bot=? AND state='active' AND id<?",
                               (f"replaced by submission {submission_id}", now, row["bot"],
                                submission_id))
            db.execute("UPDATE submissions SET state=?, reason=?, updated_at=? WHERE id=?",
                       (state, reason, now, submission_id))

    def count_attempt(self, submission_id: int) -> int:
        with self.transaction() as db:
            db.execute("UPDATE submissions SET attempts=attempts+1 WHERE id=?", (submission_id,))
            row = db.execute("SELECT attempts FROM submissions WHERE id=?", (submission_id,)).fetchone()
            return int(row["attempts"]) if row else 0

    def submission(self, submission_id: int) -> Submission | None:
        row = self._one(SUBMISSIONS_QUERY + " WHERE s.id=?", (submission_id,))
        return None if row is None else submission_of(row)

    def submissions(self, *, state: str | None = None, user_id: int | None = None,
                    bot: str | None = None) -> list[Submission]:
        where, args = [], []
        for column, value in (("s.state", state), ("s.user_id", user_id), ("s.bot", bot)):
            if value is not None:
                where.append(f"{column}=?")
                args.append(value)
        sql = SUBMISSIONS_QUERY + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY s.id"
        return [submission_of(r) for r in self._all(sql, args)]

    def submissions_since(self, user_id: int, since: float) -> int:
        row = self._one("SELECT COUNT(*) AS n FROM submissions WHERE user_id=? AND created_at>=?",
                        (user_id, since))
        return int(row["n"]) if row else 0

    def live_bots(self, user_id: int) -> set[str]:
        """The author's bots on the ladder or on their way to it."""
        marks = ", ".join("?" * len(LIVE))
        return {r["bot"] for r in self._all(
            f"SELECT DISTINCT bot FROM submissions WHERE user_id=? AND state IN ({marks})",
            (user_id, *LIVE))}

    def next_pending(self) -> Submission | None:
        """The oldest queued submission."""
        row = self._one(SUBMISSIONS_QUERY + " WHERE s.state='queued' ORDER BY s.id LIMIT 1")
        return None if row is None else submission_of(row)

    # -- blocks and matches ---------------------------------------------------
    def new_block(self, seats: tuple[int, int, int],
                  plan: Callable[[int], tuple[int, list[tuple[str, int, tuple[int, ...]]]]]) -> int:
        """A running block of `seats`: `plan(block id)` gives its deal seed
        and its matches (match id, seat order number, submission ids by seat)."""
        with self.transaction() as db:
            now = self.clock()
            cur = db.execute("INSERT INTO blocks(seed, seats, status, created_at)"
                             " VALUES(0, ?, 'running', ?)", (json.dumps(list(seats)), now))
            block_id = int(cur.lastrowid or 0)
            seed, matches = plan(block_id)
            db.execute("UPDATE blocks SET seed=? WHERE id=?", (seed, block_id))
            db.executemany(
                "INSERT INTO matches(match_id, block_id, order_no, seats, seed, status)"
                " VALUES(?, ?, ?, ?, ?, 'planned')",
                [(m, block_id, o, json.dumps(list(s)), seed) for m, o, s in matches])
            return block_id

    def plan_validation(self, match_id: str, submission_id: int, seats: tuple[int, ...],
                        seed: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM matches WHERE match_id=? AND status!='finished'", (match_id,))
            db.execute("INSERT OR IGNORE INTO matches(match_id, submission_id, order_no, seats,"
                       " seed, status) VALUES(?, ?, 0, ?, ?, 'planned')",
                       (match_id, submission_id, json.dumps(list(seats)), seed))

    def mark_running(self, match_id: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE matches SET status='running', started_at=? WHERE match_id=?",
                       (self.clock(), match_id))

    def finish_match(self, result: MatchResult) -> None:
        with self.transaction() as db:
            db.execute("UPDATE matches SET status='finished', result=?, replay_path=?,"
                       " finished_at=? WHERE match_id=? AND status!='finished'",
                       (result_to_json(result), result.replay_path, self.clock(),
                        result.match_id))

    def fail_match(self, match_id: str, error: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE matches SET status='failed', error=?, finished_at=?"
                       " WHERE match_id=? AND status!='finished'",
                       (error, self.clock(), match_id))

    def match(self, match_id: str) -> MatchRow | None:
        row = self._one("SELECT * FROM matches WHERE match_id=?", (match_id,))
        return None if row is None else match_of(row)

    def block_matches(self, block_id: int) -> list[MatchRow]:
        return [match_of(r) for r in self._all(
            "SELECT * FROM matches WHERE block_id=? ORDER BY match_id", (block_id,))]

    def validation_match(self, submission_id: int) -> MatchRow | None:
        row = self._one("SELECT * FROM matches WHERE submission_id=? ORDER BY match_id DESC"
                        " LIMIT 1", (submission_id,))
        return None if row is None else match_of(row)

    def block(self, block_id: int) -> Block | None:
        row = self._one("SELECT * FROM blocks WHERE id=?", (block_id,))
        return None if row is None else block_of(row)

    def blocks(self, *, status: str | None = None, submission_id: int | None = None,
               limit: int = 0) -> list[Block]:
        rows = self._all("SELECT * FROM blocks" + (" WHERE status=?" if status else "")
                         + " ORDER BY id DESC", (status,) if status else ())
        found = [block_of(r) for r in rows]
        if submission_id is not None:
            found = [b for b in found if submission_id in b.seats]
        return found[:limit] if limit else found

    def close_block(self, block_id: int, rate: Callable[[list[MatchRow], Ratings], Ratings]) -> Block:
        """End a block, in one transaction: `failed` if a match of it could
        not be played, `discarded` if a bot of it is no longer the active
        version (replaced while the block was played: its results say
        nothing of the bot now on the ladder), else `finished`, rated by
        `rate(its matches, the seats' current ratings)`."""
        with self.transaction() as db:
            block = block_of(db.execute("SELECT * FROM blocks WHERE id=?", (block_id,)).fetchone())
            if block.status != "running":
                return block
            matches = [match_of(r) for r in db.execute(
                "SELECT * FROM matches WHERE block_id=? ORDER BY match_id", (block_id,))]
            seats = {r["id"]: r for r in db.execute(
                f"SELECT * FROM submissions WHERE id IN ({', '.join('?' * len(block.seats))})",
                block.seats)}
            now = self.clock()
            status, reason = "finished", ""
            failed = [m for m in matches if m.status != "finished"]
            gone = [seats[s] for s in block.seats if seats[s]["state"] != "active"]
            if gone:  # first: a replaced bot's block stops early, its matches unplayed
                status = "discarded"
                reason = (f"{gone[0]['bot']} {gone[0]['version']} left the ladder while the block "
                          f"was played ({gone[0]['state']})")
            elif failed:
                status = "failed"
                reason = f"match {failed[0].match_id}: {failed[0].error or 'not played'}"
            if status == "finished":
                current = {s: (seats[s]["mu"], seats[s]["sigma"]) for s in block.seats
                           if seats[s]["mu"] is not None}
                for sid, (mu, sigma) in rate(matches, current).items():
                    step = seats[sid]["blocks"] + 1
                    db.execute("UPDATE submissions SET mu=?, sigma=?, blocks=?, last_played=?"
                               " WHERE id=?", (mu, sigma, step, now, sid))
                    db.execute("INSERT INTO history VALUES(?, ?, ?, ?, ?, ?)",
                               (sid, block_id, step, mu, sigma, now))
            db.execute("UPDATE blocks SET status=?, reason=?, finished_at=? WHERE id=?",
                       (status, reason, now, block_id))
            return block_of(db.execute("SELECT * FROM blocks WHERE id=?", (block_id,)).fetchone())

    def add_overhead(self, block_id: int, seconds: float) -> None:
        with self.transaction() as db:
            db.execute("UPDATE blocks SET overhead=overhead+? WHERE id=?", (seconds, block_id))

    def history(self, submission_id: int) -> list[tuple[int, int, float, float, float]]:
        """(step, block id, mu, sigma, time) of a submission's rated blocks."""
        return [(r["step"], r["block_id"], r["mu"], r["sigma"], r["at"]) for r in self._all(
            "SELECT * FROM history WHERE submission_id=? ORDER BY step", (submission_id,))]

    def in_flight(self) -> dict[int, int]:
        """Running blocks per submission id."""
        out: dict[int, int] = {}
        for block in self.blocks(status="running"):
            for s in block.seats:
                out[s] = out.get(s, 0) + 1
        return out

    def recover(self) -> tuple[int, int]:
        """After a server that stopped (or died): its running blocks are
        failed (never rated; their deals are never dealt again), its
        submissions being built or validated are queued again. Returns how
        many of each."""
        with self.transaction() as db:
            now = self.clock()
            blocks = db.execute("UPDATE blocks SET status='failed', reason='the server stopped "
                                "while it was played', finished_at=? WHERE status='running'",
                                (now,)).rowcount
            db.execute("UPDATE matches SET status='failed', error='the server stopped'"
                       " WHERE status IN ('planned', 'running')")
            pending = db.execute("UPDATE submissions SET state='queued', updated_at=?"
                                 " WHERE state IN ('building', 'validating')", (now,)).rowcount
            return blocks, pending

    def counts(self) -> dict[str, int]:
        return {r["status"]: r["n"] for r in self._all(
            "SELECT status, COUNT(*) AS n FROM blocks GROUP BY status")}

    def version(self) -> tuple[int, int]:
        """Changes whenever anything stored may have (the pages' cache key):
        this connection's commits, and SQLite's data_version, which moves
        when another connection commits (`arena ladder freeze` from another
        process). Two counters: no table is read, so it costs the same on
        the millionth block as on the first."""
        with self._lock:
            row = self._db.execute("PRAGMA data_version").fetchone()
            return (self._commits, int(row[0]))
