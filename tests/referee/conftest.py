from __future__ import annotations

from pathlib import Path

import pytest

from arena.sandbox.botfile import BotSpec, load_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def random_bot() -> BotSpec:
    return load_bot(ROOT / "sample_bots" / "random")
