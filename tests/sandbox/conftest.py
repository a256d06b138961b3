"""Fixtures for sandbox tests: throwaway bot folders and the levels to run at."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.sandbox import LEVELS, available_levels
from arena.sandbox.botfile import BotSpec, load_bot

MakeBot = Callable[..., BotSpec]


@pytest.fixture
def make_bot(tmp_path: Path) -> MakeBot:
    """make_bot(name, source) -> BotSpec of a folder with bot.py = `source`."""

    def make(name: str, source: str, *, image: str = "arena-python:1") -> BotSpec:
        folder = tmp_path / "bots" / name
        folder.mkdir(parents=True)
        (folder / "bot.py").write_text(textwrap.dedent(source))
        image_line = f'image = "{image}"\n' if image else ""
        (folder / "bot.toml").write_text(
            f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
            f'run = "python3 bot.py"\n{image_line}')
        return load_bot(folder)

    return make


def level_params() -> list[object]:
    """Every level, each skipped (with the reason) where the machine lacks it."""
    have = available_levels()
    params: list[object] = []
    for level in LEVELS:
        marks = [getattr(pytest.mark, level)] if level != "process" else []
        if level not in have:
            marks.append(pytest.mark.skip(reason=f"sandbox level {level!r} unavailable here"))
        params.append(pytest.param(level, marks=marks, id=level))
    return params
