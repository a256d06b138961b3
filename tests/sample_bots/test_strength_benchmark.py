"""benchmarks/strength.py as a user runs it: a line of whole games written
game by game, resumed without replaying, the table printed; a bad line named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "strength.py"


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=600)


@pytest.mark.slow
def test_games_are_checkpointed_resumed_and_reported(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    first = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:czech", "--out", out)
    assert first.returncode == 0, first.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["seat"] for r in rows) == [0, 1, 2]       # the same deals, focus in each seat
    assert len({r["seed"] for r in rows}) == 1
    assert all(max(r["totals"]) >= 1000 or r["deals"] >= 200 for r in rows)  # whole games
    assert all(r["search_cpu"] for r in rows)
    assert "| search-vs-greedy:czech | 3 |" in first.stdout
    again = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:czech", "--out", out)
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 3  # nothing replayed


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    done = run("--lines", "search-vs-random:standard", "--out", tmp_path / "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "strength.py: bad line 'search-vs-random:standard': want search-vs-greedy:PRESET or "
        "greedy-vs-search:PRESET"]
    assert not (tmp_path / "x.jsonl").exists()
