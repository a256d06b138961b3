"""What `arena serve` shows: tournament folders and single replay files.

Every source gets a short name used in URLs; a URL names a source and a
match by these names only, never by a path, so no URL can reach a file
outside what was served (path traversal and absolute paths have nothing to
resolve against). Files are found from the tournament's own folder and the
match ids its store holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.tournament import TournamentConfig, TournamentConfigError, load_config

REPLAYS_DIR = "replays"
LOGS_DIR = "logs"
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")
MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


class SourceError(ValueError):
    """A folder or file given to `arena serve` that it cannot show."""


@dataclass(frozen=True)
class Tournament:
    name: str
    root: Path
    config: TournamentConfig

    @property
    def store_path(self) -> Path:
        return self.config.store_path

    def replay_path(self, match_id: str) -> Path | None:
        """The replay file of a match id the caller found in the store."""
        if not MATCH_ID.fullmatch(match_id):
            return None
        folder = (self.root / REPLAYS_DIR).resolve()
        path = (folder / f"{match_id}.jsonl").resolve()
        return path if path.parent == folder and path.is_file() else None

    def log_path(self, match_id: str, seat: int) -> Path | None:
        """The kept log of a seat that had a fault (arena.referee keeps it as
        logs/<match id>-seat<N>-<bot>.log)."""
        if not MATCH_ID.fullmatch(match_id):
            return None
        folder = (self.root / LOGS_DIR).resolve()
        if not folder.is_dir():
            return None
        for path in sorted(folder.glob(f"{match_id}-seat{seat}-*.log")):
            if path.resolve().parent == folder and path.is_file():
                return path
        return None


@dataclass(frozen=True)
class ReplayFile:
    name: str
    path: Path


@dataclass
class Catalog:
    tournaments: dict[str, Tournament]
    replays: dict[str, ReplayFile]


def _name(text: str, taken: set[str]) -> str:
    base = _SAFE.sub("-", text).strip("-.")[:64] or "source"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    taken.add(name)
    return name


def catalog(paths: Sequence[str | Path]) -> Catalog:
    """The sources named on the command line. A folder with a tournament.toml
    is a tournament; a folder without one contributes the tournaments and
    replay files directly inside it; a file is a replay. SourceError names
    the first path that is none of these."""
    tournaments: dict[str, Tournament] = {}
    replays: dict[str, ReplayFile] = {}
    taken_t: set[str] = set()
    taken_r: set[str] = set()

    def add_tournament(folder: Path) -> None:
        try:
            config = load_config(folder, check_bots=False)
        except TournamentConfigError as exc:
            raise SourceError(str(exc)) from None
        name = _name(config.name, taken_t)
        tournaments[name] = Tournament(name, folder.resolve(), config)

    def add_replay(path: Path) -> None:
        name = _name(path.stem, taken_r)
        replays[name] = ReplayFile(name, path.resolve())

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            if (p / "tournament.toml").is_file():
                add_tournament(p)
                continue
            found = False
            for child in sorted(p.iterdir()):
                if child.is_dir() and (child / "tournament.toml").is_file():
                    add_tournament(child)
                    found = True
                elif child.is_file() and child.suffix == ".jsonl":
                    add_replay(child)
                    found = True
            if not found:
                raise SourceError(f"{p}: no tournament.toml here, nor tournaments or replay "
                                  "files (*.jsonl) inside")
        elif p.is_file() and p.name == "tournament.toml":
            # Listed as a replay, it was a link to a 404: the folder was meant.
            raise SourceError(f"{p}: a tournament's settings file; give its folder ({p.parent})")
        elif p.is_file():
            add_replay(p)
        else:
            raise SourceError(f"{p}: no such file or folder")
    return Catalog(tournaments, replays)
