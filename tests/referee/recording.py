"""Recording bots (tests/bots/recorder) for tests that check the bytes a
bot receives: a bot folder that runs the recorder, and its record read back."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

from testbots import FAULT_BOTS, carry_plumbing

from arena.referee.spec import MatchResult
from arena.sandbox.api import Limits
from arena.sandbox.botfile import BotSpec, load_bot

# A whole match's messages fit in the log (base64 lines; default 1 MB).
LIMITS = Limits(log_bytes=64 * 1024 * 1024)

RECORDER = FAULT_BOTS / "recorder" / "bot.py"


def recorder(folder: Path, mode: str) -> BotSpec:
    """A bot folder whose command runs the recorder, recording on its log
    (run its match with `limits=LIMITS` and a `work_dir`, so the log is kept)."""
    folder.mkdir(parents=True)
    # The recorder and its plumbing inside the folder: a sandboxed bot sees nothing beside it.
    shutil.copy(RECORDER, folder / "recorder.py")
    carry_plumbing(folder)
    (folder / "bot.toml").write_text(
        f'name = "recorder"\nversion = "1.0.0"\nlanguage = "python"\n'
        f'run = ["python3", "recorder.py", "arena-fault-bot", "-", "{mode}"]\n'
    )
    return load_bot(folder)


def read_messages(result: MatchResult, seat: int) -> list[bytes]:
    """Every message the recorder of `seat` received, in order (from its log)."""
    path = Path(result.seats[seat].log_path)
    lines = path.read_text().splitlines()
    assert not any("log truncated" in line for line in lines), f"{path}: truncated record"
    return [base64.b64decode(line[4:]) for line in lines if line.startswith("REC ")]
