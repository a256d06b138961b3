"""A bot that never made a move is not credited with its seat's deals: the
referee played them with the default action, not the bot."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from clihelp import cli

from .folders import random_bot, write

pytestmark = pytest.mark.slow


def test_a_bot_that_forfeits_before_its_first_move_gets_no_deal_statistics(
        tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "mute")]
    # Exits at once: no hello, a crash before its first decision, every match.
    (bots[2] / "bot.py").write_text("raise SystemExit(0)\n")
    folder = tmp_path / "t"
    write(folder, bots, seed=8_123_456_789_012_345)
    done = cli("tournament", "run", folder, "-q")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "board"
    published = cli("leaderboard", "publish", folder, "--out", out)
    assert published.returncode == 0, published.stderr

    rows = {r["bot"]: r for r in json.loads((out / "leaderboard.json").read_text())["rows"]}
    mute, live = rows["mute"], rows["rb"]
    assert mute["matches"] == 6 and mute["crashes"] == 6 and mute["rank"] == 3
    assert mute["average_deal_score"] is None and mute["made_percent"] is None
    assert mute["auctions_won"] == 0
    # The bots that played keep theirs (one deal a match: each has a score).
    assert isinstance(live["average_deal_score"], float)
    assert "contracts" not in live and "auctions_won" in live

    md = (out / "leaderboard.md").read_text()
    header = next(line for line in md.splitlines() if line.startswith("| Rank"))
    assert "Auctions won" in header and "Contracts" not in md
    mute_line = next(line for line in md.splitlines() if line.startswith("| 3 | mute "))
    cells = [c.strip() for c in mute_line.strip("|").split("|")]
    titles = [c.strip() for c in header.strip("|").split("|")]
    assert cells[titles.index("Avg deal score")] == "–"
    assert cells[titles.index("Made %")] == "–"
    assert "forfeited without one legal move" in md  # the footnote says what – means

    with (out / "leaderboard.csv").open() as f:
        table = {r["bot"]: r for r in csv.DictReader(f)}
    assert table["mute"]["average_deal_score"] == "" and "auctions_won" in table["mute"]
    page = (out / "index.html").read_text()
    assert "<th>Auctions won</th>" in page and "Contracts won" not in page
