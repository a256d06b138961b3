"""Learned sample bot: a small numpy network trained with arena.env
(train.py in this folder), played through arena.env.policy.PolicyBot.

Run by the arena as `python3 bot.py` in this folder; it needs only
`arena.sdk` (and numpy) and its weights file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from arena.env.policy import MLPPolicy, PolicyBot
from arena.sdk import run

WEIGHTS = Path(__file__).resolve().parent / "weights.npz"

if __name__ == "__main__":
    sys.exit(run(PolicyBot(MLPPolicy.load(WEIGHTS), name="learned", version="1.0.0")))
