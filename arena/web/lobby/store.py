"""The lobby's SQLite file: its games, who sat where, and people's records.

One file per lobby folder (`lobby.sqlite`), WAL mode, one transaction per
write. A game is stored when it is created and again, with each seat's
place, total and deals, when its match ends; a person's record is computed
from those rows (games, wins, average place, contracts made), never kept
as counters that could drift.

Schema 2 records the clocks people played under: the game's per-move time
of its people's seats (games.per_move) and a person's own, where one was
given over the game's (seats.per_move). A schema-1 file (a lobby kept
before) is migrated in place when opened: its games keep NULL there, "not
recorded", and everything else as it was.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from arena.referee.spec import MatchResult

SCHEMA_VERSION = "2"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    rules TEXT NOT NULL,             -- JSON {"preset": ..., "options": {...}}
    status TEXT NOT NULL CHECK(status IN ('waiting', 'playing', 'finished', 'failed')),
    seed INTEGER NOT NULL,
    replay_path TEXT NOT NULL DEFAULT '',
    result TEXT,                     -- JSON {"reason", "totals", "places"} when finished
    error TEXT NOT NULL DEFAULT '',
    finished_at REAL,
    per_move REAL                    -- seconds per move of its people's seats (schema 2)
);
CREATE TABLE IF NOT EXISTS seats(
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK(kind IN ('person', 'bot')),
    name TEXT NOT NULL,
    place INTEGER,
    total INTEGER,
    status TEXT,                     -- ok | forfeit
    contracts INTEGER NOT NULL DEFAULT 0,   -- deals it declared
    made INTEGER NOT NULL DEFAULT 0,        -- ... and made
    per_move REAL,                   -- a person's own seconds per move; NULL: the game's (schema 2)
    PRIMARY KEY(game, seat)
);
CREATE INDEX IF NOT EXISTS seats_name ON seats(kind, name);
"""

# From each older schema to the next: what a file of that version needs.
_MIGRATIONS = {
    "1": ("ALTER TABLE games ADD COLUMN per_move REAL", "ALTER TABLE seats ADD COLUMN per_move REAL"),
}


@dataclass(frozen=True)
class PersonRecord:
    name: str
    games: int
    wins: int
    average_place: float
    contracts: int
    made: int


class LobbyStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise ValueError(f"{self.path}: cannot open the lobby store: {exc}") from None
        self.db.row_factory = sqlite3.Row
        try:
            # A lobby's store is small: check every page now, so damage is one
            # line at the start rather than a failing page later.
            problems = [r[0] for r in self.db.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError("; ".join(problems[:3]))
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_SCHEMA)  # a new file: the tables as they are now
            found = self._migrate()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise ValueError(f"{self.path}: not a usable lobby store: {exc}") from None
        if found is not None:
            self.db.close()
            raise ValueError(f"{self.path}: lobby store schema {found}, expected {SCHEMA_VERSION} "
                             "or an older one")

    def _migrate(self) -> str | None:
        """Bring an older file to SCHEMA_VERSION, in one transaction (two servers
        opening it at once agree); the version found if it is one this code does
        not know (a newer arena's), else None."""
        with self._tx() as db:
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            found = version = row["value"] if row is not None else SCHEMA_VERSION
            while version in _MIGRATIONS:
                for statement in _MIGRATIONS[version]:
                    db.execute(statement)
                version = str(int(version) + 1)
            if version != SCHEMA_VERSION:
                return str(found)
            db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
        return None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def add_game(self, game_id: str, preset: str, options: dict[str, Any], seed: int,
                 seats: Sequence[tuple[str, str]], per_move: float | None = None,
                 seat_per_move: Mapping[int, float] | None = None) -> None:
        """A new game waiting for its people; `seats` are (kind, name) in seat order;
        `per_move`: its people's seconds per move; `seat_per_move`: a person's own, by seat."""
        own = seat_per_move or {}
        with self._tx() as db:
            db.execute("INSERT INTO games(id, created_at, rules, status, seed, per_move) "
                       "VALUES(?, ?, ?, 'waiting', ?, ?)",
                       (game_id, time.time(), json.dumps({"preset": preset, "options": options}), seed,
                        per_move))
            db.executemany("INSERT INTO seats(game, seat, kind, name, per_move) VALUES(?, ?, ?, ?, ?)",
                           [(game_id, i, kind, name, own.get(i)) for i, (kind, name) in enumerate(seats)])

    def set_seat(self, game_id: str, seat: int, kind: str, name: str, keep_time: bool = False) -> None:
        """Who fills a seat after all (a bot in a seat nobody took; the person
        who sat at an open seat, `keep_time`: the seat's own clock stays)."""
        with self._tx() as db:
            if keep_time:
                db.execute("UPDATE seats SET kind=?, name=? WHERE game=? AND seat=?",
                           (kind, name, game_id, seat))
            else:  # a bot plays the bots' clock: a person's own time no longer applies
                db.execute("UPDATE seats SET kind=?, name=?, per_move=NULL WHERE game=? AND seat=?",
                           (kind, name, game_id, seat))

    def set_status(self, game_id: str, status: str, error: str = "") -> None:
        with self._tx() as db:
            db.execute("UPDATE games SET status=?, error=? WHERE id=?", (status, error, game_id))

    def finish(self, game_id: str, result: MatchResult) -> None:
        """The match's result: each seat's place, total and contracts, in one transaction."""
        declared = [0] * len(result.seats)
        made = [0] * len(result.seats)
        for deal in result.deals:
            if deal.declarer is not None and 0 <= deal.declarer < len(declared):
                declared[deal.declarer] += 1
                made[deal.declarer] += int(deal.made)
        with self._tx() as db:
            db.execute("UPDATE games SET status='finished', result=?, replay_path=?, finished_at=? WHERE id=?",
                       (json.dumps({"reason": result.reason, "totals": [s.total for s in result.seats],
                                    "places": [s.place for s in result.seats]}),
                        result.replay_path, time.time(), game_id))
            for s in result.seats:
                db.execute("UPDATE seats SET place=?, total=?, status=?, contracts=?, made=? "
                           "WHERE game=? AND seat=?",
                           (s.place, s.total, s.status, declared[s.seat], made[s.seat], game_id, s.seat))

    def people(self) -> list[PersonRecord]:
        """Every person's record over finished games, best win rate first."""
        rows = self.db.execute("""
            SELECT s.name AS name, COUNT(*) AS games, SUM(s.place = 1) AS wins,
                   AVG(s.place) AS average_place, SUM(s.contracts) AS contracts, SUM(s.made) AS made
            FROM seats s JOIN games g ON g.id = s.game
            WHERE s.kind = 'person' AND g.status = 'finished'
            GROUP BY s.name
            ORDER BY CAST(SUM(s.place = 1) AS REAL) / COUNT(*) DESC, AVG(s.place), s.name
        """).fetchall()
        return [PersonRecord(r["name"], r["games"], r["wins"], round(r["average_place"], 2),
                             r["contracts"], r["made"]) for r in rows]

    def games(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM games ORDER BY created_at DESC LIMIT ?", (limit,)).fetchall()
        return [self._game(r) for r in rows]

    def game(self, game_id: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return self._game(row) if row is not None else None

    def _game(self, r: sqlite3.Row) -> dict[str, Any]:
        seats = self.db.execute("SELECT * FROM seats WHERE game=? ORDER BY seat", (r["id"],)).fetchall()
        return {**dict(r), "rules": json.loads(r["rules"]),
                "result": json.loads(r["result"]) if r["result"] else None,
                "seats": [dict(s) for s in seats]}

    def interrupted(self) -> None:
        """Games a stopped server left waiting or playing cannot go on: failed."""
        with self._tx() as db:
            db.execute("UPDATE games SET status='failed', error='the server stopped before the match ended' "
                       "WHERE status IN ('waiting', 'playing')")
