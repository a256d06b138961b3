"""Games played at once are bounded (arena.web.lobby.games.PLAYING_LIMIT):
anyone who reaches the lobby may create a game and join it by script, and
each game played runs its bots; a waiting game that starts frees its place
among the waiting ones. So a game whose people are all there waits,
`queued`, while PLAYING_LIMIT games play, and starts when one ends.

The real Lobby, its store and its people's seats; the match itself is an
in-process stand-in that plays until the test lets it end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from arena.web.human.routes import Tables
from arena.web.lobby.games import (
    PERSON,
    PLAYING_LIMIT,
    WAITING_LIMIT,
    GameError,
    Lobby,
    LobbyConfig,
    SeatChoice,
)


class Matches:
    """Stands in for arena.referee.match.play_match: each match plays until released."""

    def __init__(self) -> None:
        self.playing: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def play_match(self, spec: Any) -> Any:
        self.playing.append(spec.match_id)
        self.release[spec.match_id] = done = asyncio.Event()
        await done.wait()
        raise RuntimeError("the stand-in match ended")  # the game is then 'failed': its place frees


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_games_played_at_once_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    matches = Matches()
    monkeypatch.setattr("arena.referee.match.play_match", matches.play_match)

    async def scenario() -> None:
        lobby = Lobby(LobbyConfig(folder=tmp_path / "lobby", bots={}), Tables())
        people = [SeatChoice(PERSON, n) for n in ("a", "b", "c")]
        games = [lobby.create("standard", {}, list(people)) for _ in range(PLAYING_LIMIT + 2)]
        for game in games:  # everyone is there, as a script that joins its own links would be
            for seat in game.humans:
                assert seat.use_join(seat.join_secret, "test") is not None
                seat._socket = object()  # type: ignore[assignment]  # a page is open
                seat.changed.set()
        for _ in range(50):
            await settle()
            if len(matches.playing) >= PLAYING_LIMIT:
                break
        await asyncio.sleep(0.1)
        assert len(matches.playing) == PLAYING_LIMIT
        status = [g.status for g in games]
        assert status.count("playing") == PLAYING_LIMIT and status.count("queued") == 2, status
        # Queued games still count among those waiting for a table.
        more = [lobby.create("standard", {}, list(people)) for _ in range(WAITING_LIMIT - 2)]
        with pytest.raises(GameError, match=f"at most {WAITING_LIMIT} at once"):
            lobby.create("standard", {}, list(people))
        first = matches.playing[0]
        matches.release[first].set()
        for _ in range(50):
            await asyncio.sleep(0.05)
            if len(matches.playing) > PLAYING_LIMIT:
                break
        status = [g.status for g in games]
        assert len(matches.playing) == PLAYING_LIMIT + 1, status
        assert status.count("playing") == PLAYING_LIMIT and status.count("queued") == 1, status
        assert status.count("failed") == 1 and more[0].status == "waiting"
        await lobby.close()

    asyncio.run(scenario())
