"""`arena ladder new DIR` and `arena ladder user add DIR NAME`: a ladder
folder made, a user given a token."""

from __future__ import annotations

import os
import re
import secrets
import shutil
from pathlib import Path

from arena.ladder import tokens
from arena.ladder.config import CONFIG_NAME, REFERENCE_DIR, example_config, load_config
from arena.ladder.errors import LadderError
from arena.ladder.store import Store, User
from arena.manifest import BotSpec
from arena.sandbox.botfile import BotFileError, load_bot, missing_program

USER_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", ".mypy_cache", ".pytest_cache")


def new_ladder(folder: Path, reference: list[Path], seed: int | None = None) -> Path:
    """Make `folder` a ladder: its reference bots copied into reference/,
    a commented ladder.toml with a random 63-bit seed. Everything is
    checked before anything is written. Returns the ladder.toml."""
    if folder.exists() and not folder.is_dir():
        raise LadderError(f"{folder}: not a folder")
    if (folder / CONFIG_NAME).exists():
        raise LadderError(f"{folder / CONFIG_NAME}: exists already; not overwritten")
    if not reference:
        raise LadderError("at least one --reference bot is needed (the validation match plays "
                          "new bots against them)")
    specs: list[BotSpec] = []
    for path in reference:
        try:
            spec = load_bot(path, hashed=False)
        except BotFileError as exc:
            raise LadderError(f"--reference {path}: {exc}") from None
        missing = missing_program(spec)
        if missing:
            raise LadderError(f"--reference {path}: {missing}")
        if any(s.name == spec.name for s in specs):
            raise LadderError(f"--reference {path}: a second bot named {spec.name!r}")
        if folder.resolve().is_relative_to(Path(spec.path)):
            raise LadderError(f"{folder}: inside the bot folder {spec.path}; choose another")
        specs.append(spec)
    entries = []
    for spec in specs:
        target = folder / REFERENCE_DIR / spec.name
        if target.exists():
            raise LadderError(f"{target}: exists already; not overwritten")
        entries.append(f"{REFERENCE_DIR}/{spec.name}")
    folder.mkdir(parents=True, exist_ok=True)
    for spec, entry in zip(specs, entries, strict=True):
        shutil.copytree(spec.path, folder / entry, symlinks=True, ignore=_IGNORE)
    path = folder / CONFIG_NAME
    text = example_config(folder.resolve().name[:64] or "ladder", entries,
                          secrets.randbelow(2**63) if seed is None else seed)
    # The seed deals every block: the file is the organiser's alone.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    load_config(folder)  # what was written reads back (a bad name would say so now)
    return path


def add_user(folder: Path, name: str, organiser: bool = False) -> tuple[User, str]:
    """A new user of the ladder and their token (shown once: only its hash is stored)."""
    config = load_config(folder)
    if not USER_NAME.match(name):
        raise LadderError(f"user name {name!r}: use 1..32 letters, digits, _ or -")
    token = tokens.new_token()
    with Store(config.store_path) as store:
        return store.add_user(name, token, organiser), token
