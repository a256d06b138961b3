"""Who sat where and who finished where, for every finished match of a
tournament: what head-to-head and the per-bot pages count.

Reading the places means parsing each stored result; a tournament of ten
thousand matches takes a second or more. The index is kept per tournament
and refreshed incrementally: a finished match never changes (results are
idempotent by match id), so a refresh reads only the matches finished
since the last one. `warm` builds it in a background thread when the app
starts, so the first visitor does not wait for it.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from arena.tournament import Store


@dataclass
class Placings:
    rows: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    finished_at: float = -1.0
    lock: threading.Lock = field(default_factory=threading.Lock)


_all: dict[str, Placings] = {}
_all_lock = threading.Lock()


def placings(key: str, store: Store) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """match_id -> (bot ids in seat order, place per seat) of every finished match."""
    with _all_lock:
        index = _all.setdefault(key, Placings())
    with index.lock:
        db = store._db
        count = db.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone()[0]
        if count < len(index.rows):  # a store made anew: start over
            index.rows.clear()
            index.finished_at = -1.0
        if count != len(index.rows):
            new = db.execute(
                "SELECT match_id, bot_ids, finished_at, (SELECT json_group_array(json_extract("
                "value, '$.place')) FROM json_each(result, '$.seats')) AS places FROM matches"
                " WHERE status = 'finished' AND result IS NOT NULL AND"
                " COALESCE(finished_at, 0) >= ?", (index.finished_at,)).fetchall()
            for r in new:
                index.rows[r["match_id"]] = (tuple(json.loads(r["bot_ids"])),
                                             tuple(json.loads(r["places"])))
                index.finished_at = max(index.finished_at, r["finished_at"] or 0.0)
        return dict(sorted(index.rows.items()))
