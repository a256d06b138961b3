"""Rewrite the golden playthroughs after an intended rules change:

    .venv/bin/python -m tests.game.golden.regenerate            # all presets
    .venv/bin/python -m tests.game.golden.regenerate czech      # one preset

Run from the repository root, then review `git diff tests/game/golden/`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .transcript import PRESETS, transcript

HERE = Path(__file__).resolve().parent


def path_for(preset: str) -> Path:
    return HERE / f"{preset}.txt"


def main(argv: list[str]) -> int:
    chosen = argv or list(PRESETS)
    for preset in chosen:
        if preset not in PRESETS:
            print(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}", file=sys.stderr)
            return 2
        text = transcript(preset)
        path_for(preset).write_text(text, encoding="utf-8")
        print(f"wrote {path_for(preset).name}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
