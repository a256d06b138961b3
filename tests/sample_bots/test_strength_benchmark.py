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
    # Each seat's contracts: declared at least as often as made, and every
    # deal with a declarer counted once.
    for r in rows:
        assert all(0 <= made <= n for n, made in r["declared"])
        assert 0 < sum(n for n, _ in r["declared"]) <= r["deals"]
    assert "| search-vs-greedy:czech | 3 |" in first.stdout
    assert "search-vs-greedy:czech: contracts made, focus bot " in first.stdout
    again = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:czech", "--out", out)
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 3  # nothing replayed


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    done = run("--lines", "search-vs-random:standard", "--out", tmp_path / "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "strength.py: bad line 'search-vs-random:standard': want search-vs-greedy:PRESET or "
        "greedy-vs-search:PRESET"]
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.slow
def test_an_experiment_is_recorded_and_resumed_apart(tmp_path: Path) -> None:
    """--set and --auction-work are part of a game's key: the same seeds
    under another setting are played again, not taken for the default's."""
    out = tmp_path / "s.jsonl"
    base = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:standard", "--out", out)
    assert base.returncode == 0, base.stderr
    varied = run("--games", 3, "--work", 2, "--auction-work", 4, "--set", "scoring.SECOND=-600",
                 "--lines", "search-vs-greedy:standard", "--out", out)
    assert varied.returncode == 0, varied.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 6
    assert [(r["auction_work"], r["settings"]) for r in rows[3:]] == [
        (4, {"scoring.SECOND": -600})] * 3
    assert "4 per auction, give, contract or offer" in varied.stdout
    assert "scoring.SECOND = -600" in varied.stdout


@pytest.mark.parametrize("item", ["NOPE=1", "scoring.SECOND=x", "Context=1", "scoring.Scorer=2"])
def test_a_bad_setting_is_named(tmp_path: Path, item: str) -> None:
    done = run("--set", item, "--out", tmp_path / "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"strength.py: bad --set {item!r}: want NAME=INT for a constant of search_policy "
        "(or scoring.NAME)"]
    assert not (tmp_path / "x.jsonl").exists()
