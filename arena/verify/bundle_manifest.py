"""The bundle's manifest (manifest.json): every file's SHA-256 and the chain over the matches.

Checked before anything else is believed: a file changed after the
manifest was written, a replay removed, added or moved to another match,
two matches swapped in order, each breaks a hash or a link here, and the
line names the file or match where it first does.
"""

from __future__ import annotations

from typing import Any

from arena.tournament import bundle_format as fmt
from arena.verify.errors import Mismatch, VerifyError
from arena.verify.load import Bundle


def check(bundle: Bundle, head: str | None = None) -> str:
    """The manifest line; Mismatch at the first file or link that differs."""
    m = bundle.manifest
    where = str(bundle.folder / fmt.MANIFEST)
    files = m.get("files")
    entries = m.get("matches")
    if not isinstance(files, dict) or not isinstance(entries, list) \
            or not all(isinstance(e, dict) for e in entries):
        raise VerifyError(f"{where}: no 'files' table or 'matches' list")
    hashes: dict[str, str] = {}
    for name in (fmt.BUNDLE, fmt.LEADERBOARD):
        actual = fmt.sha256((bundle.folder / name).read_bytes())
        if files.get(name) != actual:
            raise Mismatch(f"manifest: {name} is not the file the manifest hashed "
                           f"(SHA-256 {actual[:16]}..., manifest {str(files.get(name))[:16]}...)")
        hashes[name] = actual
    start = fmt.chain_start(hashes[fmt.BUNDLE], hashes[fmt.LEADERBOARD])
    if m.get("start") != start:
        raise Mismatch("manifest: the chain does not start from bundle.json and leaderboard.json")
    listed = [e.get("match_id") for e in entries]
    ids = [x.match_id for x in bundle.matches]
    if listed != ids:
        first = next((i for i, (a, b) in enumerate(zip(listed, ids, strict=False)) if a != b),
                     min(len(listed), len(ids)))
        raise Mismatch(f"manifest: its match {first + 1} is "
                       f"{listed[first] if first < len(listed) else 'missing'}, bundle.json's is "
                       f"{ids[first] if first < len(ids) else 'missing'}")
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        raise Mismatch("manifest: the matches are not in match-id order, each once")
    link = start
    for entry, match in zip(entries, bundle.matches, strict=True):
        link = _link(bundle, entry, match.replay, link)
    on_disk = {f"{fmt.REPLAYS}/{p.name}" for p in (bundle.folder / fmt.REPLAYS).glob("*")} \
        if (bundle.folder / fmt.REPLAYS).is_dir() else set()
    extra = sorted(on_disk - {x.replay for x in bundle.matches if x.replay})
    if extra:
        raise Mismatch(f"manifest: {extra[0]} is in the bundle but in no match's entry")
    if m.get("head") != link:
        raise Mismatch("manifest: its head is not the chain's last link")
    if head is not None and head.lower() != link:
        raise Mismatch(f"manifest: head {link} is not the one given ({head}): "
                       "this is not the bundle that was published with it")
    return (f"manifest: {len(hashes)} files and {len(entries)} matches hashed, chain intact, "
            f"head {link}")


def _link(bundle: Bundle, entry: dict[str, Any], replay: str | None, previous: str) -> str:
    match_id = str(entry["match_id"])
    if entry.get("replay") != replay:
        raise Mismatch(f"match {match_id}: the manifest names replay {entry.get('replay')!r}, "
                       f"bundle.json {replay!r}")
    if replay is None:
        digest = fmt.NO_REPLAY
    else:
        path = bundle.folder / replay
        if not path.is_file():
            raise Mismatch(f"match {match_id}: its replay {replay} is missing from the bundle")
        digest = fmt.sha256(path.read_bytes())
    if entry.get("sha256") != digest:
        raise Mismatch(f"match {match_id}: {replay or 'its withheld replay'} is not the file "
                       f"the manifest hashed (SHA-256 {digest[:16]}..., manifest "
                       f"{str(entry.get('sha256'))[:16]}...)")
    link = fmt.chain_link(previous, match_id, digest)
    if entry.get("chain") != link:
        raise Mismatch(f"match {match_id}: the manifest's chain breaks here")
    return link
