from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

BotMaker = Callable[..., Path]
TournamentMaker = Callable[..., Path]


@pytest.fixture
def make_bot(tmp_path: Path) -> BotMaker:
    """A bot folder (bot.toml + bot.py) under tmp_path/src/NAME."""

    def make(name: str, description: str = "strength 1", version: str = "1.0",
             code: str = "print('hi')\n") -> Path:
        folder = tmp_path / "src" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "bot.toml").write_text(
            f'name = "{name}"\nversion = "{version}"\nlanguage = "python"\n'
            f'run = "python3 bot.py"\ndescription = "{description}"\n')
        (folder / "bot.py").write_text(code)
        return folder

    return make


@pytest.fixture
def make_tournament(tmp_path: Path) -> TournamentMaker:
    """A tournament folder tmp_path/NAME with a tournament.toml listing `bots`."""

    def make(bots: list[Path], name: str = "t", extra: str = "", rules: str = "target = 500",
             seed: int = 7, duplicate_sets: int = 1) -> Path:
        folder = tmp_path / name
        folder.mkdir(exist_ok=True)
        listed = ", ".join(f'"{b}"' for b in bots)
        head = f'name = "{name}"\nseed = {seed}\n'
        defaults = {"duplicate_sets": str(duplicate_sets), "bootstrap": "20", "replays": "false"}
        head += "".join(f"{k} = {v}\n" for k, v in defaults.items() if f"{k} =" not in extra)
        (folder / "tournament.toml").write_text(
            f'{head}bots = [{listed}]\n{extra}\n[rules]\n'
            + ("" if "preset =" in rules else 'preset = "standard"\n') + f"{rules}\n")
        return folder

    return make
