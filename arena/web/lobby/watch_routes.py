"""The spectators' pages (Starlette routes; the feeds are watch.py's).

    GET /lobby/game/{id}/watch           the table as anyone watching may know it, live
    GET /lobby/game/{id}/watch/stream    its frames: server-sent events, one `data:` line
                                         each (watch.py), a comment every 15 s while quiet

Nothing in a watcher's URL is a secret (the game's id is on the lobby's
list for anyone), and nothing it is sent is a seat's: the frames are made
from the engine's public view alone. Refusals are one line of text: 429
(with Retry-After) past OPENS_PER_MINUTE streams a minute from one
address, 503 past the watchers of one game or of the server.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator

import anyio
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from arena.web.guard import RateLimiter, client_of
from arena.web.human.routes import error_page
from arena.web.lobby.games import Lobby
from arena.web.lobby.watch import CLOSED, OPENS_PER_MINUTE, WatchRefused, dumps

log = logging.getLogger("arena.web.lobby")

KEEPALIVE_SECONDS = 15.0


def watch_routes(lobby: Lobby, templates: Jinja2Templates) -> list[BaseRoute]:
    opens = RateLimiter(OPENS_PER_MINUTE)

    async def page(request: Request) -> Response:
        game_id = str(request.path_params["game"])
        stored = lobby.store.game(game_id)
        if stored is None:
            return error_page(request, 404, "No such game.")
        names = [s["name"] for s in stored["seats"]]
        return templates.TemplateResponse(request, "lobby_watch.html", {
            "stored": stored, "names": json.dumps(names),
            "stream": f"/lobby/game/{game_id}/watch/stream",
        })

    async def stream(request: Request) -> Response:
        game_id = str(request.path_params["game"])
        peer = client_of(request)
        wait = opens.hit(peer)
        if wait:
            log.warning("refused a watch stream to %s: over %d a minute", peer, OPENS_PER_MINUTE)
            return PlainTextResponse(f"Too many watch streams opened from this address (at most "
                                     f"{OPENS_PER_MINUTE} a minute): try again in {wait} s.\n",
                                     status_code=429, headers={"Retry-After": str(wait)})
        if lobby.store.game(game_id) is None:
            return PlainTextResponse(f"No game {game_id[:20]!r} in this lobby.\n", status_code=404)
        game = lobby.games.get(game_id)
        if game is None or (game.status in ("finished", "failed") and game_id not in lobby.watching.feeds):
            # Over before this server played it (or long since): only the end to tell.
            end = dumps({"type": "over", **lobby.over(game_id)})
            return _stream(_only(end))
        try:
            feed, watcher = lobby.watching.join(game_id)
        except WatchRefused as exc:
            log.warning("refused a watch stream to %s: %s", peer, exc)
            return PlainTextResponse(f"{exc}\n", status_code=503, headers={"Retry-After": "30"})

        async def frames() -> AsyncIterator[str]:
            try:
                yield "retry: 3000\n\n"
                while not watcher.dropped:
                    try:
                        with anyio.fail_after(KEEPALIVE_SECONDS):
                            frame = await watcher.queue.get()
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    yield f"data: {frame}\n\n"
                    if frame in (feed.end, CLOSED):
                        return
            finally:
                lobby.watching.leave(feed, watcher)

        return _stream(frames())

    return [
        Route("/lobby/game/{game}/watch", page),
        Route("/lobby/game/{game}/watch/stream", stream),
    ]


async def _only(end: str) -> AsyncIterator[str]:
    yield "retry: 3000\n\n"
    yield f"data: {end}\n\n"


def _stream(body: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
