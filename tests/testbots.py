"""The misbehaving test bots of tests/bots/ as folders that carry what they
need: a copy of the bot's folder with the shared plumbing (faultbot.py)
inside it, so the bot runs wherever the checkout lies. A sandboxed bot sees
its own folder and the arena's Python, nothing beside them: at the process
level as root, /tmp, /var/tmp and /dev/shm are private tmpfs, so a bot that
imported ../faultbot.py from a checkout under /tmp found nothing there."""

from __future__ import annotations

import shutil
from pathlib import Path

FAULT_BOTS = Path(__file__).resolve().parent / "bots"
PLUMBING = FAULT_BOTS / "faultbot.py"


def carry_plumbing(folder: Path) -> Path:
    """Put faultbot.py in `folder` (a bot folder whose bot.py imports it)."""
    shutil.copy(PLUMBING, folder / PLUMBING.name)
    return folder


def fault_bot_copy(name: str, parent: Path, as_name: str | None = None) -> Path:
    """tests/bots/NAME copied to PARENT/AS_NAME (default NAME), with its plumbing."""
    source = FAULT_BOTS / name
    if not (source / "bot.toml").is_file():
        raise FileNotFoundError(f"{source}: no such test bot (tests/bots/ has "
                                f"{', '.join(sorted(p.name for p in FAULT_BOTS.iterdir() if p.is_dir()))})")
    folder = parent / (as_name or name)
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return carry_plumbing(folder)
