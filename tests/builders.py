"""Builders of the files tests write: bot.toml and tournament.toml, from
keyword arguments, so a test names only what it is about and the format is
written in one place. Import as `from builders import bot_toml` (pytest
puts `tests/` on the path)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path


def toml_value(value: object) -> str:
    """A TOML value of a str, bool, int, float or list of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is a JSON string for these texts
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _lines(settings: Mapping[str, object]) -> str:
    return "".join(f"{key} = {toml_value(v)}\n" for key, v in settings.items() if v is not None)


def bot_toml(folder: Path, name: str, run: str | Sequence[str] = "python3 bot.py", *,
             version: str = "1", language: str = "python", **extra: object) -> Path:
    """Write FOLDER/bot.toml (FOLDER made if missing); `extra` adds keys
    (image, description, protocol, ...). Returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    run_value = run if isinstance(run, str) else list(run)
    (folder / "bot.toml").write_text(_lines(
        {"name": name, "version": version, "language": language, "run": run_value, **extra}))
    return folder


def tournament_toml(folder: Path, bots: Sequence[Path | str], *, name: str = "t", seed: int = 3,
                    rules: Mapping[str, object] | None = None,
                    time_control: Mapping[str, object] | None = None,
                    **settings: object) -> Path:
    """Write FOLDER/tournament.toml (FOLDER made if missing): the top-level
    `settings` (sandbox, concurrency, duplicate_sets, ...), then the [rules]
    and [time_control] tables. Returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    text = _lines({"name": name, "seed": seed, **settings, "bots": [str(b) for b in bots]})
    for table, values in (("rules", rules), ("time_control", time_control)):
        if values:
            text += f"[{table}]\n" + _lines(values)
    (folder / "tournament.toml").write_text(text)
    return folder
