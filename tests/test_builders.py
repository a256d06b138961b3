"""The test file builders write files the arena reads back as given."""

from __future__ import annotations

import tomllib
from pathlib import Path

from builders import bot_toml, tournament_toml

from arena.tournament.plan.config import load_config


def test_bot_toml_reads_back_as_written(tmp_path: Path) -> None:
    folder = bot_toml(tmp_path / "b", "b", ["python3", "bot.py", "--x"], image="arena-python:1",
                      description='says "hi"')
    data = tomllib.loads((folder / "bot.toml").read_text())
    assert data == {"name": "b", "version": "1", "language": "python",
                    "run": ["python3", "bot.py", "--x"], "image": "arena-python:1",
                    "description": 'says "hi"'}


def test_tournament_toml_loads_as_a_tournament(tmp_path: Path) -> None:
    bots = [bot_toml(tmp_path / n, n) for n in ("a", "b", "c")]
    for b in bots:
        (b / "bot.py").write_text("")
    folder = tournament_toml(tmp_path / "t", bots, seed=99, sandbox="process", concurrency=2,
                             rules={"target": 500, "max_deals": 1},
                             time_control={"per_move": 5.0})
    config = load_config(folder, check_bots=False)
    assert config.seed == 99 and config.concurrency == 2 and config.match.sandbox == "process"
    assert dict(config.match.rules_options) == {"target": 500, "max_deals": 1}
    assert config.match.time_control.per_move == 5.0
    assert config.bot_paths == tuple(str(b) for b in bots)
