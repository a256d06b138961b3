"""Player data of replay files, serialised once per file version and viewer.

A replay is re-played through the engine the first time a viewer asks for
it; the JSON bytes are kept (a few recent files), keyed by the file's size
and modification time, so a replay rewritten by a resumed tournament is
re-played again.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from arena.referee.replay import ReplayError, read_replay
from arena.web.player import player_data

_KEEP = 24
_lock = threading.Lock()
_cache: OrderedDict[tuple[str, int, int, int | None], bytes] = OrderedDict()


def dumps(data: Any) -> bytes:
    """The one serialisation of view data: compact, key order as built."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def player_json(path: Path, viewer: int | None) -> bytes:
    """The player data of `path` for `viewer`; ReplayError if it cannot be read or re-played."""
    try:
        st = path.stat()
    except OSError as exc:
        raise ReplayError(f"{path.name}: cannot read replay: {exc.strerror}") from None
    key = (str(path), st.st_mtime_ns, st.st_size, viewer)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    data = dumps(player_data(read_replay(path), viewer))
    with _lock:
        _cache[key] = data
        while len(_cache) > _KEEP:
            _cache.popitem(last=False)
    return data


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
