"""benchmarks/analysis.py as a user runs it, small: the figures printed,
the same labels (their digest) for the same seed, kept matches reused."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "analysis.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, check=False, timeout=600)


@pytest.mark.slow
def test_the_benchmark_reports_recall_false_flags_and_speed(tmp_path: Path) -> None:
    small = ("--matches", 1, "--deals", 1, "--work", 4, "--bot-work", 4, "--inject", 0.5,
             "--truth-deals", 2)
    first = run(*small, "--json", tmp_path / "a.json", "--keep", tmp_path / "kept")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert re.search(r"recall \(injected moves costing >= 20 points, labelled\): ", out)
    assert re.search(r"false flags: \d+\.\d\d per 100 unchanged decisions", out)
    assert re.search(r"speed: \d+\.\d\d decisions analysed per CPU second", out)
    figures = json.loads((tmp_path / "a.json").read_text())
    injected = figures["injected"]
    assert injected and all(i["played"] != i["bot"] for i in injected)
    decisions = figures["decisions"]
    assert sum(d["injected"] for d in decisions) == len(injected)
    flagged, unchanged = figures["false_flags"]
    assert unchanged == sum(not d["injected"] for d in decisions)
    assert flagged == sum(bool(d["label"]) and not d["injected"] for d in decisions)
    digest = re.search(r"labels sha256: (\w+)", out)
    assert digest is not None
    assert "ms CPU per decision" in out
    # The kept matches are analysed again without being played again: the same labels.
    again = run(*small, "--keep", tmp_path / "kept")
    assert f"labels sha256: {digest.group(1)}" in again.stdout
    assert "ms CPU per decision" not in again.stdout
    # A fresh run of the same seed plays the same matches.
    fresh = run(*small)
    assert f"labels sha256: {digest.group(1)}" in fresh.stdout
