"""Stored tournaments for the web tests (made once per session: they only read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .stored import stored_tournament


@pytest.fixture(scope="session")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-bot tournament (6 matches, replays, a timeout every 4th match)."""
    return stored_tournament(tmp_path_factory.mktemp("web") / "demo", fault_every=4)
