"""The results bundle's layout and its manifest chain, shared by the
writer (arena.tournament.results.bundle) and the checker (arena.verify).

A bundle is a folder:

  bundle.json       what the table was computed from: the tournament's
                    settings, the bots, the seed (commitment; seed and salt
                    once revealed), the rating settings, every rated
                    match's result, the arena version
  leaderboard.json  the published table, as `leaderboard publish` wrote it
  replays/ID.jsonl  every rated match's replay whose table is complete
  manifest.json     the SHA-256 of each file above and a chain over the
                    matches in match-id order

The chain starts from the hashes of bundle.json and leaderboard.json and
takes in each match in turn (its id and its replay's hash), so a replay
removed, changed, or two swapped, changes every link from there on and the
head: a reader who keeps the head the organiser printed can tell a bundle
altered afterwards, even one altered consistently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from importlib import metadata

FORMAT = "arena-results-bundle"
FORMAT_VERSION = 1
BUNDLE = "bundle.json"
LEADERBOARD = "leaderboard.json"
MANIFEST = "manifest.json"
REPLAYS = "replays"
FOLDER = "bundle"   # the bundle's folder inside a published leaderboard folder
NO_REPLAY = "-"     # a match's hash in the chain when its replay is withheld


def arena_version() -> str:
    """The installed arena's version (the package's metadata)."""
    try:
        return metadata.version("thousand-arena")
    except metadata.PackageNotFoundError:
        return "unknown"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def chain_start(bundle_hash: str, leaderboard_hash: str) -> str:
    return sha256(f"{FORMAT}:{FORMAT_VERSION}:{bundle_hash}:{leaderboard_hash}".encode())


def chain_link(previous: str, match_id: str, replay_hash: str) -> str:
    return sha256(f"{previous}:{match_id}:{replay_hash}".encode())


def chain(start: str, matches: Iterable[tuple[str, str]]) -> list[str]:
    """Every link after `start` for (match id, replay hash) pairs in order."""
    out: list[str] = []
    link = start
    for match_id, replay_hash in matches:
        link = chain_link(link, match_id, replay_hash)
        out.append(link)
    return out


def replay_name(match_id: str) -> str:
    return f"{REPLAYS}/{match_id}.jsonl"
