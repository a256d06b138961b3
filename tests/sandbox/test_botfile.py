"""bot.toml reading: `hashed=False` reads the same fields without hashing the folder."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from clihelp import cli, cli_here, refused

from arena.sandbox.botfile import BotFileError, load_bot

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


def _imaged(root: Path, image: str) -> Path:
    folder = root / "imaged"
    folder.mkdir(exist_ok=True)
    (folder / "bot.toml").write_text('name = "imaged"\nversion = "1"\nlanguage = "python"\n'
                                     f'run = "python3 bot.py"\nimage = "{image}"\n')
    (folder / "bot.py").write_text("")
    return folder


@pytest.mark.parametrize("image", ["arena-bot-greedy:0123456789abcdef", "postgres:15", "arena-pyhton:1",
                                   "localhost:5000/arena-python:1", "python:3.11"])
def test_bot_toml_names_only_the_arenas_images(tmp_path: Path, image: str) -> None:
    """A container sees every file of its image: a name must not put another
    bot's built image (its hash is on the tournament pages) or any image of
    the engine in the bot's reach. `arena play` refuses the folder in one line."""
    folder = _imaged(tmp_path, image)
    with pytest.raises(BotFileError, match="names one of the arena's images"):
        load_bot(folder)
    random = ROOT / "sample_bots" / "random"
    # The first name through the real command, the others in-process (cli_here).
    run = cli if image == "arena-bot-greedy:0123456789abcdef" else cli_here
    refused(run("play", folder, random, random, "--option", "max_deals=1", cwd=tmp_path),
            f"key 'image' = {image!r}")


@pytest.mark.parametrize("image", ["arena-python:1", "arena-node:1", "arena-shell:1", "arena-python:0"])
def test_the_arenas_images_are_named_by_any_tag(tmp_path: Path, image: str) -> None:
    assert load_bot(_imaged(tmp_path, image)).image == image
