"""Lobby stores as an older arena wrote them (schema 1), for the upgrade tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def make_schema_1_store(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_1)
    db.close()


# The schema a lobby kept before per-move times were stored (SCHEMA_VERSION "1").
SCHEMA_1 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games(id TEXT PRIMARY KEY, created_at REAL NOT NULL, rules TEXT NOT NULL,
    status TEXT NOT NULL CHECK(status IN ('waiting', 'playing', 'finished', 'failed')),
    seed INTEGER NOT NULL, replay_path TEXT NOT NULL DEFAULT '', result TEXT,
    error TEXT NOT NULL DEFAULT '', finished_at REAL);
CREATE TABLE seats(game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK(kind IN ('person', 'bot')), name TEXT NOT NULL, place INTEGER,
    total INTEGER, status TEXT, contracts INTEGER NOT NULL DEFAULT 0, made INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(game, seat));
CREATE INDEX seats_name ON seats(kind, name);
INSERT INTO meta VALUES('schema', '1');
INSERT INTO games VALUES('old', 1.0, '{"preset": "standard", "options": {}}', 'finished', 5, '',
    '{"reason": "target", "totals": [1000, 400, 20], "places": [1, 2, 3]}', '', 2.0);
INSERT INTO seats VALUES('old', 0, 'person', 'ann', 1, 1000, 'ok', 2, 2);
INSERT INTO seats VALUES('old', 1, 'bot', 'greedy', 2, 400, 'ok', 1, 0);
INSERT INTO seats VALUES('old', 2, 'bot', 'random', 3, 20, 'ok', 0, 0);
"""


