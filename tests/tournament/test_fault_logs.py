"""A tournament keeps what a faulty bot printed: the logs of seats that had
a fault go to <tournament>/logs/, the others' go with the match's temp
folder; with `keep_logs = "all"` every seat's, each with its decision marks."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import tournament_toml
from clihelp import cli

from arena.referee.marks import marks_path, read_marks
from arena.web.export import publish_site

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
    logs = sorted((folder / "logs").glob("*.log"))
    assert len(logs) == 6 and all(p.name.endswith("-crashy.log") for p in logs), logs
    assert all("about to crash" in p.read_text() for p in logs)
    # Each with its marks, and nothing else kept.
    assert sorted((folder / "logs").iterdir()) == sorted([*logs, *map(marks_path, logs)])


def test_keep_logs_all_keeps_every_seats_log_with_its_decision_marks(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    folder = tournament_toml(tmp_path / "t", bots, name="cli", seed=8_123_456_789_012_345,
                             sandbox="process", replays=True, keep_logs="all", bootstrap=5,
                             concurrency=2, rules={"target": 500, "max_deals": 1})
    done = cli("tournament", "run", folder, "-q")
    assert done.returncode == 0, done.stderr
    logs = sorted((folder / "logs").glob("*.log"))
    assert len(logs) == 18, logs  # six matches, three seats each
    for log in logs:
        marks = read_marks(marks_path(log))
        assert marks.decisions and marks.end >= marks.decisions[-1].at
    # The organiser's own: a published site still holds faulty seats' logs only.
    site = tmp_path / "site"
    publish_site(folder, site)
    assert len(list(site.glob("match/*.html"))) == 6 and not list(site.glob("log/*"))


def test_keep_logs_takes_faults_or_all(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    folder = tournament_toml(tmp_path / "t", bots, keep_logs="some", sandbox="process")
    done = cli("tournament", "run", folder, "-q")
    assert done.returncode != 0
    assert "keep_logs" in done.stderr and "'some'" in done.stderr and "faults, all" in done.stderr
