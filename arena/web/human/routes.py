"""The pages and the socket of human seats (Starlette routes).

    GET  /join/{secret}                   a join link: single use; sets the seat's
                                          cookie and redirects to the seat's page
    GET  /game/{game}/seat/{seat}         the seat's page (needs the cookie)
    WS   /game/{game}/seat/{seat}/socket  the seat's frames out, its actions in
    POST /game/{game}/seat/{seat}/review  (the seat's browser, the game over) review it
    GET  /game/{game}/seat/{seat}/review  the review: its progress, then where points were
                                          lost (review.json: the same as data)
    GET  /human/static/...                the page's script and style

`Tables` maps game ids to their human seats; `arena play` has one game, the
lobby many. A refused request gets a short error page and one log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.web.guard import same_origin  # also registers {name:num}
from arena.web.human.seat import REFUSED_LIMIT, HumanSeat
from arena.web.review import ReviewRefused, Reviews, Status

log = logging.getLogger("arena.web.human")

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
MESSAGE_LIMIT = 4096          # bytes of one message from a page
REPLAY_WAIT = 30.0            # seconds a review asked at the match's end waits for its replay


class RematchRefused(ValueError):
    """A rematch the seat's person may not have now; says why."""


# Asked by a seat's page at the end of its match: (game, seat, the seat's
# cookie) -> the seat of the rematch and its session, None when the cookie
# is not the seat's; RematchRefused when there is no rematch to have.
Rematch = Callable[[str, int, str | None], tuple[HumanSeat, str] | None]


@dataclass(frozen=True)
class ReviewDesk:
    """"Review this game" (arena/web/review.py) for the seats of these
    tables: `replay(game)` is a finished game's replay (None while it plays
    or if none is kept); `player(game, seat)` the replay player's URL of
    that seat's view ("" if none is served)."""

    reviews: Reviews
    replay: Callable[[str], Path | None]
    player: Callable[[str, int], str] = lambda _game, _seat: ""


class Tables:
    """The human seats this server serves, by game id and seat number."""

    def __init__(self) -> None:
        self._games: dict[str, dict[int, HumanSeat]] = {}

    def add(self, game: str, seats: list[HumanSeat]) -> None:
        self._games[game] = {s.seat: s for s in seats}

    def remove(self, game: str) -> None:
        self._games.pop(game, None)

    def get(self, game: str, seat: int) -> HumanSeat | None:
        return self._games.get(game, {}).get(seat)

    def all(self) -> Iterator[tuple[str, HumanSeat]]:
        for game, seats in list(self._games.items()):
            for seat in seats.values():
                yield game, seat


def cookie_name(game: str, seat: int) -> str:
    return f"arena_seat_{game}_{seat}"


def seat_path(game: str, seat: int) -> str:
    return f"/game/{game}/seat/{seat}"


def error_page(request: Request, status: int, message: str) -> Response:
    return TEMPLATES.TemplateResponse(request, "error.html", {"status": status, "message": message},
                                      status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no such page, wrong method) as the seat pages'
    error page rather than a bare text (`arena play human` serves nothing else)."""
    assert isinstance(exc, HTTPException)
    detail = f"No page at {request.url.path[:200]}." if exc.status_code == 404 else str(exc.detail)
    log.warning("%s %s: %d %s", request.method, request.url.path, exc.status_code, detail)
    return error_page(request, exc.status_code, detail)


def _peer(conn: Request | WebSocket) -> str:
    return f"{conn.client.host}:{conn.client.port}" if conn.client else "?"


def human_routes(tables: Tables, title: Callable[[str], str] | None = None,
                 links: Callable[[str], list[tuple[str, str]]] | None = None,
                 after: str = "", rematch: Rematch | None = None,
                 review: ReviewDesk | None = None) -> list[BaseRoute]:
    """The routes of human seats over `tables`; `title(game)` names a game on its
    page; `links(game)` are the (label, URL) pairs its result shows (the game's
    page, the replay), else the line `after` says where the replay went;
    `review`: the end-of-game panel offers "Review this game"."""

    def find(request: Request | WebSocket) -> tuple[str, HumanSeat | None]:
        game = str(request.path_params["game"])
        seat = request.path_params["seat"]
        return game, tables.get(game, int(seat))

    async def join(request: Request) -> Response:
        secret = str(request.path_params["secret"])
        for game, seat in tables.all():
            name = cookie_name(game, seat.seat)
            if _same(secret, seat.join_secret) and seat.admits(request.cookies.get(name)):
                # The browser that took the seat, back from its link (the tab
                # was closed): the seat is still its own while it is held.
                log.info("seat %d (%s): its browser came back by its join link", seat.seat, seat.name)
                return seated_response(game, seat, seat.session_secret, secret)
            session = seat.use_join(secret, _peer(request))
            if session is not None:
                return seated_response(game, seat, session, secret)
            if seat.refused_joins and _same(secret, seat.join_secret):
                return error_page(request, 403, "This join link was used already: a join link "
                                  "admits one browser (the one that opened it first may open it "
                                  "again). Ask for a new seat.")
        log.warning("refused a join link that belongs to no seat (from %s)", _peer(request))
        return error_page(request, 404, "No seat has this join link (the game may be over).")

    def own_seat(request: Request, what: str, refusal: str) -> tuple[str, HumanSeat] | Response:
        """The game and seat of a request by the seat's own browser (its
        cookie), or the refusal: 404 no such seat, 403 `refusal`."""
        game, seat = find(request)
        if seat is None:
            return error_page(request, 404, f"No seat {request.path_params['seat']} in game {game!r}.")
        if not seat.admits(request.cookies.get(cookie_name(game, seat.seat))):
            log.warning("seat %d of %s: refused a %s without the seat's cookie (from %s)",
                        seat.seat, game, what, _peer(request))
            return error_page(request, 403, refusal)
        return game, seat

    async def page(request: Request) -> Response:
        got = own_seat(request, "page", "This seat belongs to the browser that opened its join link.")
        if isinstance(got, Response):
            return got
        game, seat = got
        return TEMPLATES.TemplateResponse(request, "seat.html", {
            "game": game, "seat": seat.seat, "name": seat.name,
            "title": title(game) if title else game,
            "socket": seat_path(game, seat.seat) + "/socket",
            "links": json.dumps(links(game) if links else []), "after": after,
            "rematch": seat_path(game, seat.seat) + "/rematch" if rematch else "",
            "review": seat_path(game, seat.seat) + "/review" if review else "",
        })

    def reviewed(request: Request) -> tuple[str, HumanSeat, Path] | Response:
        """The game, the seat and its replay of a review request, or the refusal."""
        got = own_seat(request, "review", "Only the browser that held this seat may review its game.")
        if isinstance(got, Response):
            return got
        game, seat = got
        assert review is not None
        replay = review.replay(game)
        if replay is None:
            return error_page(request, 409, "No review yet: the game is still being played "
                              "(or it kept no replay).")
        return game, seat, replay

    async def start_review(request: Request) -> Response:
        if not same_origin(request):
            log.warning("refused a review posted from another site (from %s)", _peer(request))
            return error_page(request, 403, "A review is asked from the seat's own page, not another site.")
        got = reviewed(request)
        game, seat = find(request)
        for _ in range(int(REPLAY_WAIT / 0.1)):
            # The page shows the end as soon as the referee says it; the
            # replay is kept once the referee has stopped the bots, a moment
            # later: a review asked in between waits for it.
            if not (isinstance(got, Response) and got.status_code == 409 and seat and seat.ended):
                break
            await asyncio.sleep(0.1)
            got = reviewed(request)
        if isinstance(got, Response):
            return got
        game, seat, replay = got
        assert review is not None
        try:
            review.reviews.start(replay, seat.seat)
        except ReviewRefused as exc:
            response = error_page(request, 503, f"No review now: {exc}.")
            response.headers["Retry-After"] = "60"
            return response
        log.info("seat %d (%s) of %s: review asked", seat.seat, seat.name, game)
        return RedirectResponse(seat_path(game, seat.seat) + "/review", status_code=303)

    async def show_review(request: Request) -> Response:
        got = reviewed(request)
        if isinstance(got, Response):
            return got
        game, seat, replay = got
        assert review is not None
        status = review.reviews.status(replay, seat.seat)
        if request.url.path.endswith(".json"):
            return Response(json.dumps(asdict(status) if status else None, sort_keys=True),
                            media_type="application/json")
        return TEMPLATES.TemplateResponse(request, "review.html", {
            "title": title(game) if title else game, "seat": seat.seat, "name": seat.name,
            "status": status, "action": seat_path(game, seat.seat) + "/review",
            "back": seat_path(game, seat.seat), "player": _player(status, game, seat.seat),
        })

    def _player(status: Status | None, game: str, seat: int) -> str:
        return review.player(game, seat) if review and status and status.state == "done" else ""

    async def again(request: Request) -> Response:
        """A rematch from the end-of-match panel: only from this site's page
        and the browser that held the seat; to the seat's page of the rematch."""
        game, seat_number = str(request.path_params["game"]), int(request.path_params["seat"])
        if not same_origin(request):
            log.warning("seat %d of %s: refused a rematch posted from another site", seat_number, game)
            return error_page(request, 403, "A rematch is asked from the seat's own page, not another site.")
        assert rematch is not None
        try:
            got = rematch(game, seat_number, request.cookies.get(cookie_name(game, seat_number)))
        except RematchRefused as exc:
            return error_page(request, 409, f"No rematch: {exc}.")
        if got is None:
            log.warning("seat %d of %s: refused a rematch without the seat's cookie (from %s)",
                        seat_number, game, _peer(request))
            return error_page(request, 403, "Only the browser that held this seat may ask for its rematch.")
        new_seat, session = got
        log.info("seat %d (%s): asked for a rematch", new_seat.seat, new_seat.name)
        return seated_response(game, new_seat, session, new_seat.join_secret)

    async def socket(ws: WebSocket) -> None:
        game, seat = find(ws)
        origin = ws.headers.get("origin")
        if seat is None or not seat.admits(ws.cookies.get(cookie_name(game, ws.path_params["seat"]))):
            log.warning("refused a seat socket without the seat's cookie (from %s)", _peer(ws))
            await ws.close(code=4403)
            return
        if origin is not None and origin.split("://", 1)[-1] != ws.headers.get("host"):
            log.warning("seat %d of %s: refused a socket opened from another site (%s)",
                        seat.seat, game, origin[:100])
            await ws.close(code=4403)
            return
        await ws.accept()
        reader = _Reader(ws, seat)
        task = asyncio.get_running_loop().create_task(reader.run())
        try:
            await seat.attach(ws)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            task.cancel()
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):  # the browser closed it first
            await ws.close()

    return [
        Route("/join/{secret}", join),
        Route("/game/{game}/seat/{seat:num}", page),
        WebSocketRoute("/game/{game}/seat/{seat:num}/socket", socket),
        *([Route("/game/{game}/seat/{seat:num}/rematch", again, methods=["POST"])] if rematch else []),
        *([Route("/game/{game}/seat/{seat:num}/review", start_review, methods=["POST"]),
           Route("/game/{game}/seat/{seat:num}/review", show_review),
           Route("/game/{game}/seat/{seat:num}/review.json", show_review)] if review else []),
        Mount("/human/static", StaticFiles(directory=str(HERE / "static")), name="human-static"),
    ]


def seated_response(game: str, seat: HumanSeat, session: str, secret: str) -> Response:
    """To the seat's page, with its cookie; the same cookie is kept for the
    join link's own path, so that this browser, and only it, may come back
    by the link it has (the seat page's cookie is not sent to /join/)."""
    response = RedirectResponse(seat_path(game, seat.seat), status_code=303)
    for path in (seat_path(game, seat.seat), f"/join/{secret}"):
        response.set_cookie(cookie_name(game, seat.seat), session, httponly=True,
                            samesite="lax", path=path)
    return response


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class _Reader:
    """Reads what the page sends; when the page goes, wakes `attach`."""

    def __init__(self, ws: WebSocket, seat: HumanSeat) -> None:
        self.ws = ws
        self.seat = seat

    async def run(self) -> None:
        try:
            while True:
                text = await self.ws.receive_text()
                self.seat.receive(_parse(text))
                if self.seat.flooding:
                    log.warning("seat %d (%s): its page sent more than %d messages that answer "
                                "nothing; its socket is closed", self.seat.seat, self.seat.name,
                                REFUSED_LIMIT)
                    await self.ws.close(code=1008)
                    return
        except (WebSocketDisconnect, RuntimeError, KeyError):
            pass
        finally:
            self.seat.detach(self.ws)


def _parse(text: str) -> dict[str, Any]:
    if len(text) > MESSAGE_LIMIT:
        return {"type": f"message of {len(text)} characters"}
    try:
        data = json.loads(text)
    except ValueError:
        return {"type": "not JSON"}
    return data if isinstance(data, dict) else {"type": "not a JSON object"}
