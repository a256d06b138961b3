"""Player data of replay files, serialised once per file version and viewer.

A replay is re-played through the engine the first time a viewer asks for
it; the JSON bytes are kept, keyed by the file's size and modification time
(a replay rewritten by a resumed tournament is re-played again), up to
KEEP_BYTES in all, the least recently used dropped first (it kept 24
answers, whatever their size: a few long matches' views and the rest went).
A long match (chunks.py) is served in parts: `player_start_json` (its page)
and `player_deals_json` (the next deals), from a `Cursor` kept per file.
`decision_json` is one seat's decision seen by its bot (referee/botseye.py),
with the lines of the seat's kept log between its request and the next.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.referee.botseye import decision_view
from arena.referee.marks import MarksError, marks_path, read_marks
from arena.referee.replay import ReplayError, read_replay
from arena.web.chunks import Cursor, deals_part, is_long, start_part
from arena.web.player import player_data

KEEP_BYTES = 256 * 1024 * 1024
KEEP_CURSORS = 16
_lock = threading.Lock()
_cache: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_cached_bytes = 0
_cursors: OrderedDict[tuple[str, int, int], Cursor] = OrderedDict()


def dumps(data: Any) -> bytes:
    """The one serialisation of view data: compact, key order as built."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _version(path: Path) -> tuple[str, int, int]:
    try:
        st = path.stat()
    except OSError as exc:
        raise ReplayError(f"{path.name}: cannot read replay: {exc.strerror}") from None
    return (str(path), st.st_mtime_ns, st.st_size)


def _kept(key: tuple[Any, ...], build: Callable[[], bytes]) -> bytes:
    global _cached_bytes
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    data = build()
    with _lock:
        if key not in _cache:
            _cache[key] = data
            _cached_bytes += len(data)
        while _cached_bytes > KEEP_BYTES and len(_cache) > 1:
            _, dropped = _cache.popitem(last=False)
            _cached_bytes -= len(dropped)
    return data


def _cursor(version: tuple[str, int, int]) -> Cursor:
    with _lock:
        hit = _cursors.get(version)
        if hit is not None:
            _cursors.move_to_end(version)
            return hit
    cursor = Cursor(read_replay(version[0]))
    with _lock:
        cursor = _cursors.setdefault(version, cursor)
        while len(_cursors) > KEEP_CURSORS:
            _cursors.popitem(last=False)
    return cursor


def player_json(path: Path, viewer: int | None) -> bytes:
    """The player data of `path` for `viewer`, every step; ReplayError if it
    cannot be read or re-played."""
    version = _version(path)
    return _kept((*version, viewer, "all"), lambda: dumps(player_data(read_replay(path), viewer)))


def player_start_json(path: Path, viewer: int | None) -> bytes:
    """What the player's page starts with: a long match's start part
    (chunks.start_part), a short one's whole data (player_json)."""
    version = _version(path)

    def build() -> bytes:
        cursor = _cursor(version)
        if not is_long(cursor.replay):
            return player_json(path, viewer)
        return dumps(start_part(cursor, viewer))

    return _kept((*version, viewer, "start"), build)


def player_deals_json(path: Path, viewer: int | None, first: int) -> bytes:
    """A long match's steps of deals `first`.. (chunks.deals_part)."""
    version = _version(path)
    return _kept((*version, viewer, "deals", first),
                 lambda: dumps(deals_part(_cursor(version), viewer, first)))


def decision_json(path: Path, seat: int, n: int, log: Path | None) -> bytes:
    """Decision `n` of `seat` (botseye.decision_view) with its lines of the
    log at `log` (the seat's kept log, None if none) and its marks; `log_note`
    says why there are no lines. DecisionError if action `n` is not the
    seat's, ReplayError if the replay cannot be read or re-played."""
    version = _version(path)
    marks_file = marks_path(log) if log is not None else None
    logs = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size)
                 for p in (log, marks_file) if p is not None and p.is_file())

    def build() -> bytes:
        marks = data = None
        note = ("no log was kept for this seat (a tournament keeps every seat's with "
                'keep_logs = "all", else those of seats that had a fault)')
        if log is not None and marks_file is not None:
            try:
                marks = read_marks(marks_file)
                data = log.read_bytes()
                note = ""
            except MarksError as exc:
                note = str(exc)
            except OSError as exc:
                note = f"{log.name}: cannot read the log: {exc.strerror}"
        view = decision_view(_cursor(version).replay, seat, n, marks, data)
        return dumps({**view, "log_note": note})

    return _kept((*version, seat, "decision", n, logs), build)


def seats_of(path: Path) -> int:
    """How many seats the replay's match has (from its header line only)."""
    try:
        with path.open(encoding="utf-8") as fh:
            header = json.loads(fh.readline())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise ReplayError(f"{path.name}: not a replay (its first line is no header)") from None
    bots = header.get("bots") if isinstance(header, dict) else None
    if not isinstance(bots, list) or not bots:
        raise ReplayError(f"{path.name}: not a replay (its first line is no header)")
    return len(bots)
