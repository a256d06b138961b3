"""The three sample bots (Python random and greedy, Node.js) play a match
together at every sandbox level available: the levels run real bots, not
only the test scripts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox.botfile import load_bot

from .conftest import level_params

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("level", level_params())
def test_sample_bots_play_a_match(tmp_path: Path, level: str) -> None:
    js = ROOT / "sample_bots" / "javascript"
    if not (js / "node_modules").is_dir() or shutil.which("node") is None:
        pytest.skip("the JavaScript sample bot is not set up (node, npm ci)")
    bots = tuple(load_bot(ROOT / "sample_bots" / name) for name in ("random", "greedy", "javascript"))
    spec = MatchSpec(match_id=f"samples-{level}", bots=bots, seed=9, sandbox=level,
                     rules_options=(("max_deals", 2),), work_dir=str(tmp_path),
                     time_control=TimeControl(per_move=5.0, bank=20.0, startup=120.0))
    result = run_match(spec)
    for seat in result.seats:
        log = Path(seat.log_path).read_text(errors="replace")[-1500:] if seat.log_path else ""
        assert seat.status == "ok", (seat, log)
        assert all(n == 0 for _, n in seat.faults), (seat, log)
        assert seat.decisions > 0
        assert seat.sandbox == level
