"""Stored tournaments for the web tests (made once per session: they only read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .stored import stored_tournament


@pytest.fixture(scope="session")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-bot tournament (6 matches, replays, a timeout every 4th match)."""
    return stored_tournament(tmp_path_factory.mktemp("web") / "demo", fault_every=4)


@pytest.fixture(scope="session")
def stored_short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`stored` with 3-deal matches, for tests that publish or render every
    match and need no long game: the random policy's games to 500 run to
    11-78 deals, and the site's player pages of six of them took 20 s."""
    return stored_tournament(tmp_path_factory.mktemp("web") / "demo", fault_every=4,
                             rules_extra="max_deals = 3\n")
