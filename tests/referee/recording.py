"""Recording bots (tests/bots/recorder) for tests that check the bytes a
bot receives: a bot folder that runs the recorder, and its record read back."""

from __future__ import annotations

import struct
from pathlib import Path

from arena.sandbox.botfile import BotSpec, load_bot

RECORDER = Path(__file__).resolve().parents[1] / "bots" / "recorder" / "bot.py"


def recorder(folder: Path, out: Path, mode: str) -> BotSpec:
    """A bot folder whose command runs the recorder, writing to `out`."""
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(
        f'name = "recorder"\nversion = "1.0.0"\nlanguage = "python"\n'
        f'run = ["python3", "{RECORDER}", "arena-fault-bot", "{out}", "{mode}"]\n'
    )
    return load_bot(folder)


def read_messages(path: Path) -> list[bytes]:
    """Every message the recorder wrote to `path`, in the order received."""
    data = path.read_bytes()
    out: list[bytes] = []
    i = 0
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    assert i == len(data), f"{path}: truncated record"
    return out
