"""Golden playthroughs: one seeded whole game per preset, compared line by
line with `tests/game/golden/<preset>.txt`.

After an intended rules change, regenerate and review the diff:

    .venv/bin/python -m tests.game.golden.regenerate
    git diff tests/game/golden/
"""

from __future__ import annotations

import difflib

import pytest

from .golden.regenerate import path_for
from .golden.transcript import PRESETS, transcript


@pytest.mark.parametrize("preset", PRESETS)
def test_golden_playthrough_is_unchanged(preset: str) -> None:
    path = path_for(preset)
    assert path.exists(), f"{path.name} missing: run python -m tests.game.golden.regenerate {preset}"
    want = path.read_text(encoding="utf-8")
    got = transcript(preset)
    if got != want:
        diff = "".join(difflib.unified_diff(
            want.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=f"golden/{path.name}", tofile="engine now", n=2,
        ))
        head = diff[:6000] + ("\n... (diff cut)" if len(diff) > 6000 else "")
        pytest.fail(f"golden playthrough {preset} changed; if intended, regenerate "
                    f"(python -m tests.game.golden.regenerate {preset}):\n{head}")


@pytest.mark.parametrize("preset", PRESETS)
def test_transcript_is_deterministic(preset: str) -> None:
    assert transcript(preset, seed=99) == transcript(preset, seed=99)
