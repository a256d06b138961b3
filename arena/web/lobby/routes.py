"""The lobby's pages (Starlette routes).

    GET  /lobby[?preset=P]            games, people's records, the form to create a game
                                      (its rule controls set to preset P's values)
    POST /lobby/games                 create one (preset, rule controls, options text,
                                      per-move time of the people's seats, seats)
    GET  /lobby/game/{id}             the game: seats, status, result; its creator
                                      (a cookie) also sees the join links and may start it
    POST /lobby/game/{id}/start       start now, a bot in each seat nobody took
    POST /lobby/game/{id}/rematch     (its creator, once it is over) the same game again
    POST /lobby/game/{id}/cancel      (its creator, while it waits) give it up
    POST /lobby/game/{id}/sit         (anyone, while it waits) take a seat its creator
                                      opened to anyone: to the seat's page, with its cookie
    GET  /lobby/game/{id}/replay.jsonl   the finished game's replay
    GET  /lobby/game/{id}/watch[/stream] watch the table live (watch_routes.py)
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from arena.game import Rules
from arena.web.guard import RateLimiter, client_of, read_body, same_origin, small_number
from arena.web.human.routes import error_page, seated_response
from arena.web.lobby import form as create_form
from arena.web.lobby.games import PERSON, GameError, Lobby, LobbyGame, SeatChoice
from arena.web.lobby.watch_routes import watch_routes

log = logging.getLogger("arena.web.lobby")

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
MAX_SEATS = 4
PRESETS = ("standard", "estonian", "lithuanian", "czech", "finnish", "swedish")
FORM_LIMIT = 8192
# Seats taken from the open tables per minute by one address: anyone who
# reaches the lobby may sit, and a script taking every open seat as it
# appears would keep people from every game.
SIT_PER_MINUTE = 10


def creator_cookie(game_id: str) -> str:
    return f"arena_lobby_{game_id}"


def _is_creator(request: Request, game: LobbyGame) -> bool:
    given = request.cookies.get(creator_cookie(game.id), "")
    return bool(given) and hmac.compare_digest(given.encode(), game.creator_secret.encode())


def parse_options(text: str) -> dict[str, object]:
    """`NAME=VALUE` per line or comma, as `arena play --option`; GameError naming the bad one."""
    from arena.referee.rulechoice import rules_overrides

    items = [p.strip() for line in text.splitlines() for p in line.split(",") if p.strip()]
    overrides, problem = rules_overrides(items, where="options")
    if problem:
        raise GameError(problem)
    return dict(overrides)


def _other_site(request: Request, what: str) -> Response | None:
    """403 for a form posted from another site's page (its Origin, or
    Referer, names another host): a lobby write is made from its own pages."""
    if same_origin(request):
        return None
    log.warning("refused a %s posted from another site (from %s)", what, client_of(request))
    return error_page(request, 403, f"Refused ({what}): the form was posted from another site's "
                      "page; use this lobby's own pages.")


def lobby_routes(lobby: Lobby) -> list[BaseRoute]:
    sits = RateLimiter(SIT_PER_MINUTE)

    def find(request: Request) -> LobbyGame | None:
        return lobby.games.get(str(request.path_params["game"]))

    def live_status(stored: dict[str, Any]) -> dict[str, Any]:
        """A stored game with the status the server holds for it now: the
        store knows waiting and playing only, not starting or queued (the
        game's own page shows the live status too)."""
        game = lobby.games.get(str(stored["id"]))
        return {**stored, "status": game.status} if game is not None else stored

    async def index(request: Request) -> Response:
        preset = request.query_params.get("preset", "standard")
        if preset not in PRESETS:
            return error_page(request, 404, f"No preset {preset[:40]!r} (presets: {', '.join(PRESETS)}).")
        return TEMPLATES.TemplateResponse(request, "lobby.html", {
            "open_tables": lobby.open_tables(),
            "games": [live_status(g) for g in lobby.store.games()], "people": lobby.store.people(), "bots": sorted(lobby.config.bots),
            "presets": PRESETS, "max_seats": MAX_SEATS, "preset": preset,
            "groups": create_form.grouped(preset), "prefix": create_form.PREFIX,
            "mark": create_form.MARK, "per_move": lobby.config.human_time.per_move,
            "per_move_max": create_form.PER_MOVE_MAX,
        })

    async def create(request: Request) -> Response:
        refused = _other_site(request, "new game")
        if refused is not None:
            return refused
        fields = await _form_lists(request)
        if fields is None:
            return error_page(request, 413, "The form is too large.")
        form = {k: v[0] for k, v in fields.items()}
        try:
            preset = str(form.get("preset", "standard"))
            if preset not in PRESETS:
                raise GameError(f"preset {preset[:40]!r}: expected one of {', '.join(PRESETS)}")
            options = create_form.options_from_controls(preset, fields)
            options.update(parse_options(str(form.get("options", ""))))  # the advanced fallback wins
            per_move = create_form.per_move(str(form.get("per_move", "")))
            players = Rules.preset(preset).replace(**options).players
            seats = []
            seat_per_move: dict[int, float] = {}
            for i in range(players):
                choice = str(form.get(f"seat{i}", ""))
                if choice == PERSON:
                    name = str(form.get(f"name{i}", "")).strip() or f"player{i}"
                    seats.append(SeatChoice(PERSON, name[:40], open=bool(form.get(f"open{i}"))))
                    try:  # the person's own clock, over the game's (empty: the game's)
                        own = create_form.per_move(str(form.get(f"time{i}", "")))
                    except ValueError as exc:
                        raise GameError(f"seat {i}: {exc}") from None
                    if own is not None:
                        seat_per_move[i] = own
                elif choice:
                    seats.append(SeatChoice("bot", choice))
                else:
                    raise GameError(f"seat {i}: choose a person or a bot")
            game = lobby.create(preset, options, seats, per_move=per_move, seat_per_move=seat_per_move)
        except (GameError, ValueError) as exc:
            return error_page(request, 400, f"The game cannot be created: {exc}")
        response = RedirectResponse(f"/lobby/game/{game.id}", status_code=303)
        response.set_cookie(creator_cookie(game.id), game.creator_secret, httponly=True,
                            samesite="lax", path=f"/lobby/game/{game.id}")
        return response

    async def show(request: Request) -> Response:
        game = find(request)
        stored = lobby.store.game(str(request.path_params["game"]))
        if stored is None:
            return error_page(request, 404, "No such game.")
        creator = game is not None and _is_creator(request, game)
        base = str(request.base_url).rstrip("/")
        links = []
        if game is not None and creator:
            links = [(h, f"{base}/join/{h.join_secret}") for h in game.humans]
        return TEMPLATES.TemplateResponse(request, "lobby_game.html", {
            "game": game, "stored": stored, "creator": creator, "links": links,
            "bots": sorted(lobby.config.bots), "player": lobby.players.get(stored["id"], ""),
            "status": game.status if game is not None else stored["status"],
            "error": game.error if game is not None else stored["error"],
        })

    def creator_only(verb: str, failed: str,
                     act: Callable[[Request, LobbyGame], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """A POST only the browser that created the game may make: 404 for a
        game this server does not hold, 403 (and a log line, never the
        cookie) for any other browser, 400 naming why the lobby refused."""
        async def handler(request: Request) -> Response:
            game = find(request)
            if game is None:
                return error_page(request, 404, "No such game (or not one this server still holds).")
            refused = _other_site(request, verb)
            if refused is not None:
                return refused
            if not _is_creator(request, game):
                log.warning("game %s: refused a %s from a browser that did not create it", game.id, verb)
                return error_page(request, 403, f"Only the browser that created the game may {verb} it.")
            try:
                return await act(request, game)
            except GameError as exc:
                return error_page(request, 400, f"{failed}: {exc}")
        return handler

    async def start(request: Request, game: LobbyGame) -> Response:
        form = await _form(request) or {}
        lobby.start_now(game, str(form.get("fill", "")))
        return RedirectResponse(f"/lobby/game/{game.id}", status_code=303)

    async def cancel(request: Request, game: LobbyGame) -> Response:
        lobby.cancel(game)
        return RedirectResponse(f"/lobby/game/{game.id}", status_code=303)

    async def rematch(request: Request, game: LobbyGame) -> Response:
        again = lobby.rematch(game)
        log.info("game %s: rematch of game %s", again.id, game.id)
        response = RedirectResponse(f"/lobby/game/{again.id}", status_code=303)
        response.set_cookie(creator_cookie(again.id), again.creator_secret, httponly=True,
                            samesite="lax", path=f"/lobby/game/{again.id}")
        return response

    async def sit(request: Request) -> Response:
        """Take an open seat: the same seat, cookie and page its join link
        would have given (so the browser comes back to it the same way)."""
        refused = _other_site(request, "request to sit")
        if refused is not None:
            return refused
        wait = sits.hit(client_of(request))
        if wait:
            log.warning("refused a seat taken from %s: over %d a minute", client_of(request), SIT_PER_MINUTE)
            page = error_page(request, 429, f"Too many seats taken from this address (at most "
                              f"{SIT_PER_MINUTE} a minute): try again in {wait} s.")
            page.headers["Retry-After"] = str(wait)
            return page
        form = await _form(request)
        if form is None:
            return error_page(request, 413, "The form is too large.")
        game = find(request)
        if game is None:
            return error_page(request, 404, "No such game (or not one this server still holds).")
        seat_text = str(form.get("seat", ""))
        seat = small_number(seat_text)
        if seat is None:
            return error_page(request, 400, f"seat {seat_text[:10]!r}: expected a seat number")
        try:
            human, session = lobby.sit(game, seat, str(form.get("name", "")), client_of(request))
        except GameError as exc:
            return error_page(request, 409, f"You cannot sit there: {exc}")
        return seated_response(game.id, human, session, human.join_secret)

    async def replay(request: Request) -> Response:
        stored = lobby.store.game(str(request.path_params["game"]))
        path = Path(stored["replay_path"]) if stored and stored["replay_path"] else None
        if path is None or not path.is_file():
            return error_page(request, 404, "This game has no replay (yet).")
        return FileResponse(path, media_type="application/jsonl", filename=f"{stored['id']}.jsonl")  # type: ignore[index]

    return [
        Route("/lobby", index),
        Route("/lobby/games", create, methods=["POST"]),
        Route("/lobby/game/{game}", show),
        Route("/lobby/game/{game}/start", creator_only("start", "The game cannot start", start),
              methods=["POST"]),
        Route("/lobby/game/{game}/rematch",
              creator_only("ask for a rematch of", "No rematch", rematch), methods=["POST"]),
        Route("/lobby/game/{game}/cancel",
              creator_only("cancel", "The game cannot be cancelled", cancel), methods=["POST"]),
        Route("/lobby/game/{game}/sit", sit, methods=["POST"]),
        Route("/lobby/game/{game}/replay.jsonl", replay),
        *watch_routes(lobby, TEMPLATES),
    ]


async def _form(request: Request) -> dict[str, str] | None:
    """An url-encoded form (what the lobby's pages post), first value of each
    field; None if it is over FORM_LIMIT bytes."""
    fields = await _form_lists(request)
    return None if fields is None else {k: v[0] for k, v in fields.items()}


async def _form_lists(request: Request) -> dict[str, list[str]] | None:
    """As _form, every value of each field (a group of checkboxes posts several).
    Read no further than FORM_LIMIT (guard.read_body): anyone who reaches the
    lobby may post, and a body read whole first (a gigabyte, say) would be
    held in the memory of the process whose loop also runs the games' referees."""
    body = await read_body(request, FORM_LIMIT)
    if body is None:
        return None
    return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
