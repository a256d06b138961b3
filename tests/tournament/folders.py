"""Tournament folders the CLI tests play: random bots under new names and a
quick tournament.toml (process level, one deal, target 500), and the
store's rows as SQL text to compare before and after a refused command."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from builders import tournament_toml
from clihelp import ROOT

RANDOM_B = ROOT / "tournaments" / "sample" / "random_b"


def random_bot(tmp: Path, name: str) -> Path:
    """A copy of the sample tournament's random_b named NAME, in TMP/NAME."""
    folder = tmp / name
    shutil.copytree(RANDOM_B, folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('"random_b"', f'"{name}"'))
    return folder


def write(folder: Path, bots: list[Path], seed: int = 3) -> None:
    """FOLDER/tournament.toml of BOTS: one deal of a 500-point game a match."""
    tournament_toml(folder, bots, name="cli", seed=seed, sandbox="process", replays=False,
                    bootstrap=5, concurrency=2, rules={"target": 500, "max_deals": 1})


def random_tournament(tmp_path: Path, name: str, *, sets: int, deals: int) -> Path:
    """A folder `t` of three random bots at the process level, two matches at once."""
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    return tournament_toml(tmp_path / "t", bots, name=name, seed=8123456789012345,
                           sandbox="process", bootstrap=5, concurrency=2, duplicate_sets=sets,
                           rules={"target": 1000, "max_deals": deals})


def dump(folder: Path) -> list[str]:
    """Every row of FOLDER's store, as SQL."""
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        return list(db.iterdump())
