"""Ladder folders for the tests: short matches, the sample bots as reference."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from arena.ladder.create import new_ladder

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots"


def short_ladder(folder: Path, *, extra: str = "", quotas: dict[str, int] | None = None,
                 references: tuple[str, ...] = ("random", "greedy")) -> Path:
    """A ladder of the given sample bots as reference bots, one-deal
    matches at the process level, one worker; `quotas` override [quotas]."""
    new_ladder(folder, [SAMPLES / name for name in references], seed=2**62 + 12345)
    path = folder / "ladder.toml"
    text = path.read_text()
    text = text.replace("max_deals = 6", "max_deals = 1").replace('sandbox = "auto"', 'sandbox = "process"')
    text = text.replace("workers = 0 ", "workers = 1 ").replace("cpu_slots = true", "cpu_slots = false")
    for key, value in (quotas or {}).items():
        text, n = re.subn(rf"^{key} = \d+", f"{key} = {value}", text, flags=re.MULTILINE)
        assert n == 1, key
    path.write_text(text + extra)
    return folder


def bot_copy(tmp: Path, sample: str, name: str, version: str = "1") -> Path:
    """A sample bot copied under another name (and version)."""
    folder = tmp / f"{name}-{version}"
    shutil.copytree(SAMPLES / sample, folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "bot.toml"
    text = re.sub(r'^name = ".*"$', f'name = "{name}"', toml.read_text(), flags=re.MULTILINE)
    text = re.sub(r'^version = ".*"$', f'version = "{version}"', text, flags=re.MULTILINE)
    toml.write_text(text)
    return folder
