"""A tournament keeps what a faulty bot printed: the logs of seats that had
a fault go to <tournament>/logs/, the others' go with the match's temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import cli

from .folders import random_bot, write

pytestmark = pytest.mark.slow


def test_the_logs_of_faulty_seats_are_kept(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "crashy")]
    # Dies on its first decision, after saying why on stderr.
    (bots[2] / "bot.py").write_text(
        "import sys\n"
        "from arena.sdk import Bot, run\n\n\n"
        "class Crashy(Bot):\n"
        "    def act(self, obs):\n"
        "        print('about to crash', file=sys.stderr, flush=True)\n"
        "        raise SystemExit(3)\n\n\n"
        "raise SystemExit(run(Crashy()))\n")
    folder = tmp_path / "t"
    write(folder, bots, seed=8_123_456_789_012_345)
    done = cli("tournament", "run", folder, "-q")
    assert done.returncode == 0, done.stderr
    logs = sorted((folder / "logs").iterdir())
    assert len(logs) == 6 and all(p.name.endswith("-crashy.log") for p in logs), logs
    assert all("about to crash" in p.read_text() for p in logs)
