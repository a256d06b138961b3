"""Games played at once are bounded (arena.web.lobby.games.PLAYING_LIMIT):
anyone who reaches the lobby may create a game and join it by script, and
each game played runs its bots; a waiting game that starts frees its place
among the waiting ones. So a game whose people are all there waits,
`queued`, while PLAYING_LIMIT games play, and starts when one ends.

The real Lobby, its store and its people's seats; the match itself is an
in-process stand-in that plays until the test lets it end."""

from __future__ import annotations

import asyncio
import os
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

    async def play_match(self, spec: Any, watch: Any = None) -> Any:
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


@pytest.mark.slow
def test_a_real_lobby_queues_the_game_past_the_limit(tmp_path: Path) -> None:
    """`arena serve --lobby` over real HTTP and websockets: PLAYING_LIMIT + 1
    games of three people each, every seat joined by its link and its page
    open (a script, as anyone who reaches the lobby could run): the last
    game's page says `queued`, the others' `playing`."""
    import http.client
    import re
    import subprocess
    from urllib.parse import urlencode

    import websockets
    from clihelp import ARENA

    from ..human.browser_client import join

    proc = subprocess.Popen([*ARENA, "serve", "--lobby", "--data", str(tmp_path / "lobby"),
                             "--port", "0"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        m = re.search(r"serving on (http://127\.0\.0\.1:(\d+))/", proc.stdout.readline())
        assert m
        port = int(m.group(2))

        def request(method: str, path: str, body: str = "", cookie: str = "") -> tuple[int, str, Any]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
            if cookie:
                headers["Cookie"] = cookie
            conn.request(method, path, body or None, headers)
            resp = conn.getresponse()
            text = resp.read().decode()
            conn.close()
            return resp.status, text, resp

        form = urlencode({"preset": "standard", **{f"seat{i}": "person" for i in range(3)},
                          **{f"name{i}": f"p{i}" for i in range(3)}})
        games = []
        for _ in range(PLAYING_LIMIT + 1):
            status, _, resp = request("POST", "/lobby/games", form)
            assert status == 303
            page = resp.getheader("location")
            cookie = (resp.getheader("set-cookie") or "").split(";", 1)[0]
            _, html, _ = request("GET", page, cookie=cookie)
            links = re.findall(r'class="join" href="([^"]+)"', html)
            assert len(links) == 3, html
            games.append((page, links))

        def statuses() -> list[str]:
            return [re.findall(r'data-status="(\w+)"', request("GET", page)[1])[0]
                    for page, _ in games]

        async def sit_down() -> list[str]:
            sockets = []
            for _, links in games:
                for url in links:
                    path, cookie = await asyncio.to_thread(join, url)
                    sockets.append(await websockets.connect(
                        f"ws://127.0.0.1:{port}{path}/socket", additional_headers={"Cookie": cookie}))
            seen: list[str] = []
            for _ in range(100):  # until every game has left 'waiting'
                seen = await asyncio.to_thread(statuses)
                if "waiting" not in seen and "starting" not in seen:
                    break
                await asyncio.sleep(0.2)
            # The lobby's list of games says the same (it once said 'waiting'
            # for a queued game: the store knows no 'queued').
            index = (await asyncio.to_thread(request, "GET", "/lobby"))[1]
            listed = dict(re.findall(r'<tr data-game="(\w+)">.*?<td class="status"[^>]*>(\w+)</td>', index, re.S))
            assert [listed[page.rsplit("/", 1)[1]] for page, _ in games] == seen, listed
            # Each game in play (or queued) has its watch link in the list (docs/people.md#watching-a-game).
            watch = set(re.findall(r'<a class="watch" href="/lobby/game/(\w+)/watch">', index))
            assert watch == {page.rsplit("/", 1)[1] for page, _ in games}, watch
            for ws in sockets:
                await ws.close()
            return seen

        assert 'class="watch"' not in request("GET", "/lobby")[1]  # none while they wait
        seen = asyncio.run(sit_down())
        assert seen == ["playing"] * PLAYING_LIMIT + ["queued"], seen
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
