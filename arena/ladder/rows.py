"""The ladder store's schema and its rows as values (store.py reads and
writes them)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from arena.referee.spec import MatchResult
from arena.tournament import result_from_json

SCHEMA_VERSION = "1"
STATES = ("queued", "building", "validating", "active", "refused", "replaced")
PENDING = ("queued", "building", "validating")
# A submission on the ladder, or about to be: what the active-bots quota counts.
LIVE = (*PENDING, "active")
BLOCK_STATES = ("running", "finished", "discarded", "failed")

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,     -- tokens.digest of the token (the token is never stored)
    organiser INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS bots(
    name TEXT PRIMARY KEY,               -- a bot name belongs to one author on a ladder
    user_id INTEGER REFERENCES users(id) -- NULL: a reference bot of the organiser
);
CREATE TABLE IF NOT EXISTS submissions(
    id INTEGER PRIMARY KEY,
    user_id INTEGER REFERENCES users(id),
    bot TEXT NOT NULL REFERENCES bots(name),
    version TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    language TEXT NOT NULL,
    path TEXT NOT NULL,                  -- the bot's folder, relative to the ladder folder
    state TEXT NOT NULL CHECK(state IN ({", ".join(repr(s) for s in STATES)})),
    reason TEXT NOT NULL DEFAULT '',
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    mu REAL,                             -- NULL until its first block is rated
    sigma REAL,
    blocks INTEGER NOT NULL DEFAULT 0,   -- rated blocks
    last_played REAL NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0, -- validation matches that could not be played
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS submissions_state ON submissions(state);
CREATE INDEX IF NOT EXISTS submissions_user ON submissions(user_id, created_at);
CREATE TABLE IF NOT EXISTS blocks(
    id INTEGER PRIMARY KEY,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,                 -- JSON: the three submission ids
    status TEXT NOT NULL CHECK(status IN ({", ".join(repr(s) for s in BLOCK_STATES)})),
    reason TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    finished_at REAL,
    overhead REAL NOT NULL DEFAULT 0     -- seconds of the ladder's own work for it (not play)
);
CREATE INDEX IF NOT EXISTS blocks_status ON blocks(status);
CREATE TABLE IF NOT EXISTS matches(
    match_id TEXT PRIMARY KEY,
    block_id INTEGER REFERENCES blocks(id),           -- NULL: a validation match
    submission_id INTEGER REFERENCES submissions(id), -- a validation match's submission
    order_no INTEGER NOT NULL,
    seats TEXT NOT NULL,                 -- JSON: submission ids in seat order
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK(status IN ('planned', 'running', 'finished', 'failed')),
    result TEXT,
    replay_path TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    started_at REAL,
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS matches_block ON matches(block_id);
CREATE TABLE IF NOT EXISTS history(
    submission_id INTEGER NOT NULL REFERENCES submissions(id),
    block_id INTEGER NOT NULL REFERENCES blocks(id),
    step INTEGER NOT NULL,               -- the submission's rated blocks after this one
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY(submission_id, step)
);
"""


@dataclass(frozen=True)
class User:
    id: int
    name: str
    organiser: bool
    created_at: float


@dataclass(frozen=True)
class Submission:
    id: int
    user_id: int | None      # None: a reference bot
    author: str              # the user's name; "" for a reference bot
    bot: str
    version: str
    content_hash: str
    language: str
    path: str
    state: str
    reason: str
    files: int
    bytes: int
    mu: float | None
    sigma: float | None
    blocks: int
    last_played: float
    attempts: int
    created_at: float
    updated_at: float

    @property
    def reference(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class Block:
    id: int
    seed: int
    seats: tuple[int, int, int]
    status: str
    reason: str
    created_at: float
    finished_at: float | None
    overhead: float = 0.0


@dataclass(frozen=True)
class MatchRow:
    match_id: str
    block_id: int | None
    submission_id: int | None
    order_no: int
    seats: tuple[int, ...]
    seed: int
    status: str
    result: MatchResult | None
    replay_path: str
    error: str
    started_at: float | None
    finished_at: float | None


SUBMISSIONS_QUERY = ("SELECT s.*, COALESCE(u.name, '') AS author FROM submissions s"
                " LEFT JOIN users u ON u.id = s.user_id")


def user_of(row: sqlite3.Row) -> User:
    return User(row["id"], row["name"], bool(row["organiser"]), row["created_at"])


def submission_of(row: sqlite3.Row) -> Submission:
    return Submission(**{k: row[k] for k in row.keys()})  # noqa: SIM118 (sqlite3.Row)


def block_of(row: sqlite3.Row) -> Block:
    return Block(row["id"], row["seed"], tuple(json.loads(row["seats"])), row["status"],
                 row["reason"], row["created_at"], row["finished_at"], row["overhead"])


def match_of(row: sqlite3.Row) -> MatchRow:
    return MatchRow(
        match_id=row["match_id"], block_id=row["block_id"], submission_id=row["submission_id"],
        order_no=row["order_no"], seats=tuple(json.loads(row["seats"])), seed=row["seed"],
        status=row["status"],
        result=None if row["result"] is None else result_from_json(row["result"]),
        replay_path=row["replay_path"], error=row["error"], started_at=row["started_at"],
        finished_at=row["finished_at"])
