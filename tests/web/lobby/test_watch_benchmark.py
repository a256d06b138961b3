"""benchmarks/watch.py: it times what it says (every position of whole
games, a frame for each public change) and prints its figures."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

import pytest


def test_the_benchmark_plays_whole_games_and_prints_its_figures(
    load_script: Callable[[str, str], ModuleType], capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_script("benchmarks/watch.py", "watch_bench")
    engine, public, frame, positions, frames, size = bench.one_game(
        bench.Rules.preset("standard").replace(max_deals=2), 3)
    assert positions > 20 and 0 < frames <= positions and size > 100 * frames
    assert engine > 0 and public > 0 and frame > 0
    assert bench.main(["--games", "2", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"standard, 2 games, \d+ positions, \d+ frames \(\d\.\d\d a position\), mean frame \d+ bytes", out)
    assert re.search(r"engine step [\d.]+ us, public view [\d.]+ us, frame [\d.]+ us", out), out
