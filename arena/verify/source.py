"""Where a bundle is read from: a folder, or a URL of a published folder.

A URL's files (manifest.json, then the files it lists) are downloaded into
a temporary folder first, so every check reads local files. The names a
manifest lists are checked before anything is fetched or opened: a
tampered manifest cannot send the reader outside the bundle.
"""

from __future__ import annotations

import json
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.tournament import bundle_format as fmt
from arena.verify.errors import VerifyError

# A replay's name in a bundle: replays/<match id>.jsonl, nothing else.
_REPLAY = re.compile(r"replays/[A-Za-z0-9_.-]{1,120}\.jsonl")
MAX_BYTES = 64 * 2**20        # per file: far above a replay, below a mistaken download
TIMEOUT = 30.0


def safe_replay_name(name: object) -> bool:
    return isinstance(name, str) and bool(_REPLAY.fullmatch(name)) and ".." not in name


@contextmanager
def opened(where: str) -> Iterator[Path]:
    """The bundle folder named by `where` (a bundle folder, a published
    leaderboard folder holding bundle/, or an http(s) URL of either)."""
    if where.startswith(("http://", "https://")):
        with tempfile.TemporaryDirectory(prefix="arena-verify-") as tmp:
            yield _download(where.rstrip("/"), Path(tmp))
        return
    folder = Path(where)
    if not folder.exists():
        raise VerifyError(f"{folder}: no such folder")
    if not folder.is_dir():
        raise VerifyError(f"{folder}: not a folder (give the bundle's folder, which holds "
                          f"{fmt.MANIFEST})")
    if not (folder / fmt.MANIFEST).is_file() and (folder / fmt.FOLDER / fmt.MANIFEST).is_file():
        folder = folder / fmt.FOLDER  # the published leaderboard folder
    if not (folder / fmt.MANIFEST).is_file():
        raise VerifyError(f"{folder}: no {fmt.MANIFEST}: not a results bundle "
                          "(`arena leaderboard publish` writes one into OUT/bundle/)")
    yield folder


def _get(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            data: bytes = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise VerifyError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise VerifyError(f"{url}: cannot fetch: {reason}") from None
    if len(data) > MAX_BYTES:
        raise VerifyError(f"{url}: larger than {MAX_BYTES // 2**20} MiB: not a bundle's file")
    return data


def _download(base: str, into: Path) -> Path:
    try:
        manifest_bytes = _get(f"{base}/{fmt.MANIFEST}")
    except VerifyError:
        if base.endswith(f"/{fmt.FOLDER}"):
            raise
        base = f"{base}/{fmt.FOLDER}"  # the published leaderboard folder's URL
        manifest_bytes = _get(f"{base}/{fmt.MANIFEST}")
    (into / fmt.MANIFEST).write_bytes(manifest_bytes)
    names = [fmt.BUNDLE, fmt.LEADERBOARD]
    try:
        listed = json.loads(manifest_bytes)["matches"]
        names += [m["replay"] for m in listed if m.get("replay") is not None]
    except (ValueError, KeyError, TypeError, AttributeError):
        return into  # load.py names what is wrong with the manifest
    (into / fmt.REPLAYS).mkdir()
    for name in names:
        if name not in (fmt.BUNDLE, fmt.LEADERBOARD) and not safe_replay_name(name):
            raise VerifyError(f"{base}/{fmt.MANIFEST}: lists {str(name)[:80]!r}, not a "
                              "replay's name in a bundle (replays/ID.jsonl)")
        (into / name).write_bytes(_get(f"{base}/{name}"))
    return into
