"""bot.toml reading: `hashed=False` reads the same fields without hashing the folder."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parents[2]


def test_an_unhashed_read_has_every_field_but_the_content_hash(tmp_path: Path) -> None:
    folder = tmp_path / "greedy"
    shutil.copytree(ROOT / "sample_bots" / "greedy", folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    full, light = load_bot(folder), load_bot(folder, hashed=False)
    assert len(full.content_hash) == 64 and light.content_hash == ""
    assert dataclasses.replace(light, content_hash=full.content_hash) == full
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# changed\n")
    assert load_bot(folder).content_hash != full.content_hash  # the hashed read sees content
