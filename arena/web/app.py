"""The Starlette application of `arena serve`: routes, templates, errors.

    from arena.web.app import create_app
    app = create_app(["tournaments/sample"])      # an ASGI app; uvicorn serves it

URLs (every name in them is looked up, never used as a path):

    /                                   the sources: tournaments and replay files
    /t/{t}/                             tournament page (live: /t/{t}/events, SSE)
    /t/{t}/matches?bot=&vs=&table=&set=&status=&fault=&page=
    /t/{t}/h2h                          head-to-head
    /t/{t}/bot/{bot}                    per-bot page
    /t/{t}/match/{id}?view=all|N&step=K the replay player
    /t/{t}/log/{id}/{seat}              a faulty seat's kept log (text)
    /t/{t}/table/{id}                   duplicate comparison of the match's table (travellers.py)
    /t/{t}/table/{id}/deal/{n}          one deal of that table in every seat order

The player, its data and the seat logs of a match whose duplicate table is
not complete answer 403 (browse.withheld): the bots still to play its deals
must not see them. Lists show such a match's result only.
    /r/{name}?view=&step=               the player of a replay file given to `arena serve`
    /api/t/{t}/match/{id}/{view}.json   player data (player.py), view = all | seat number
    /api/t/{t}/match/{id}/{view}/start.json         its start (a long match: its first deals)
    /api/t/{t}/match/{id}/{view}/deals/{n}.json     a long match's deals from n on (chunks.py)
    /api/t/{t}/match/{id}/{seat}/decision/{n}.json  decision n as seat's bot met it (the
                                        bot's-eye view, referee/botseye.py: a seat's own only)
    /api/r/{name}/{view}.json

Other packages may add routes with `app.router.routes.append(...)` or the
`extra_routes` argument (the human seats and the lobby do).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from arena.referee.botseye import DecisionError
from arena.referee.replay import ReplayError
from arena.web import live, pages
from arena.web.filenames import file_names
from arena.web.guard import small_number
from arena.web.replays import (
    decision_json,
    player_deals_json,
    player_json,
    player_start_json,
    seats_of,
)
from arena.web.sources import MATCH_ID, Catalog, catalog
from arena.web.urls import ServerUrls

log = logging.getLogger("arena.web")

STATIC_DIR = Path(__file__).resolve().parent / "static"


def environment() -> Environment:
    """The Jinja2 environment of the pages (autoescaped: bot names are untrusted)."""
    env = Environment(loader=PackageLoader("arena.web", "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{100 * v:.0f}%"
    env.filters["datetime"] = lambda ts: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))
    return env


class NotFound(HTTPException):
    def __init__(self, detail: str) -> None:
        super().__init__(404, detail)


class Web:
    """The app's state: the served sources and the template environment."""

    def __init__(self, sources: Catalog, env: Environment, static_url: str = "/static") -> None:
        self.sources = sources
        self.env = env
        self.urls = ServerUrls(static_url)

    def render(self, request: Request | None, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        # `status` is the page's too (error.html titles itself "404: 1000 arena";
        # taken by this parameter alone, the title read ": 1000 arena").
        page = self.env.get_template(name).render(u=self.urls, status=status, **context)
        return HTMLResponse(page, status_code=status)

    def tournament(self, name: str) -> Any:
        t = self.sources.tournaments.get(name)
        if t is None:
            raise NotFound(f"no tournament named {name!r} is served here")
        if not t.root.is_dir():
            raise NotFound(f"the folder of tournament {name!r} is gone")
        return t


def _viewer(value: str, seats: int) -> int | None:
    if value in ("", "all"):
        return None
    seat = small_number(value)
    if seat is not None and seat < seats:
        return seat
    raise NotFound(f"view {value[:20]!r}: expected 'all' or a seat 0..{seats - 1}")


def inline_json(data: bytes) -> str:
    """JSON bytes as the text of a <script type="application/json">, with no
    "<" at all: a "</script" would close the element early, and a "<!--"
    followed by "<script" (a person's name in the lobby may hold both) puts
    the HTML parser where the closing tag no longer closes it, swallowing the
    page's own scripts. In JSON a "<" is only ever inside a string, where
    "\\u003c" is the same character."""
    return data.decode("utf-8").replace("<", "\\u003c")


def _inline(path: Path, viewer: int | None) -> dict[str, str]:
    """The opening view's data, in the page itself: the player draws without
    a second request, and a replay that does not re-play is an error page."""
    return {"all" if viewer is None else str(viewer): inline_json(player_start_json(path, viewer))}


def create_app(paths: Sequence[str | Path] = (), *, sources: Catalog | None = None,
               extra_routes: Sequence[BaseRoute] = (), poll_seconds: float = 0.5,
               warm: bool = False, home: str = "") -> Starlette:
    """The web app over tournament folders and replay files (sources.catalog).
    `warm`: build each tournament's rating table and placings in background
    threads now, rather than at the first visit (`arena serve` does).
    `home`: where / leads (a ladder's table) instead of the list of sources."""
    web = Web(sources if sources is not None else catalog(paths), environment())
    for name in web.env.list_templates():
        web.env.get_template(name)  # compiled now, not at a first visitor's request
    if warm:
        for item in web.sources.tournaments.values():
            threading.Thread(target=pages.warm, args=(item,), daemon=True,
                             name=f"warm {item.name}").start()

    # `arena serve --lobby` adds the lobby's routes: the index then links to it.
    lobby = any(getattr(r, "path", "") == "/lobby" for r in extra_routes)

    def index(request: Request) -> Response:
        if home:
            return RedirectResponse(home, status_code=307)
        return web.render(request, "index.html", items=pages.index(web.sources), lobby=lobby)

    def tournament(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        return web.render(request, "tournament.html", t=t, page=pages.tournament(t))

    def tournament_fragment(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        return web.render(request, "tournament_live.html", t=t, page=pages.tournament(t))

    def matches(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        try:
            listing = pages.match_list(t, request.query_params)
        except pages.BadQuery as exc:
            raise HTTPException(400, str(exc)) from None
        return web.render(request, "matches.html", t=t, listing=listing)

    def h2h(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        return web.render(request, "h2h.html", t=t, grid=pages.head_to_head(t))

    def bot(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        data = pages.bot_page(t, request.path_params["bot"], web.sources)
        if data is None:
            raise NotFound(f"no bot named {request.path_params['bot']!r} in tournament {t.name!r}")
        from arena.web.analysis import bot_analysis

        data["analysis"] = bot_analysis(t, data["name"])
        return web.render(request, "bot.html", t=t, bot=data)

    def _open_match(t: Any, match_id: str) -> None:
        """NotFound for a match not stored; 403 for one whose table is not
        complete (browse.withheld): nothing of its cards is served yet."""
        access = pages.match_access(t, match_id) if MATCH_ID.fullmatch(match_id) else "missing"
        if access == "missing":
            raise NotFound(f"no match {match_id!r} in tournament {t.name!r}")
        if access == "withheld":
            raise HTTPException(403, f"match {match_id!r}: {pages.WITHHELD} (other seat "
                                "orders of its table are still to be played)")

    def _match_replay(request: Request) -> tuple[Any, str, Path]:
        t = web.tournament(request.path_params["t"])
        match_id = request.path_params["id"]
        _open_match(t, match_id)
        path = t.replay_path(match_id)
        if path is None:
            raise NotFound(f"match {match_id!r} has no replay file (not played yet, or "
                           "replays = false)")
        return t, match_id, path

    def match_player(request: Request) -> Response:
        t, match_id, path = _match_replay(request)
        seats = seats_of(path)
        viewer = _viewer(request.query_params.get("view", "all"), seats)
        return web.render(
            request, "player.html", title=f"{t.name}: match {match_id}", t=t, seats=seats,
            data_url=f"/api/t/{t.name}/match/{match_id}/{{view}}/start.json", viewer=viewer,
            deals_url=f"/api/t/{t.name}/match/{match_id}/{{view}}/deals/{{deal}}.json",
            inline=_inline(path, viewer), match_id=match_id,
            travellers=web.urls.traveller(t, match_id, "{deal}"), table_url=web.urls.table(t, match_id),
            analysis_url=f"/api/t/{t.name}/match/{match_id}/{{view}}/analysis.json",
            decision_url=f"/api/t/{t.name}/match/{match_id}/{{view}}/decision/{{n}}.json")

    def _table(request: Request, build: Any) -> tuple[Any, Any]:
        from arena.web.travellers import TableWithheld

        t = web.tournament(request.path_params["t"])
        match_id = request.path_params["id"]
        if not MATCH_ID.fullmatch(match_id):
            raise NotFound(f"no match {match_id!r} in tournament {t.name!r}")
        try:
            data = build(t, match_id)
        except TableWithheld:
            raise HTTPException(403, f"table of match {match_id!r}: the comparison opens when "
                                "every seat order of its deals has been played") from None
        if data is None:
            raise NotFound(f"no match {match_id!r} in tournament {t.name!r}")
        return t, data

    def table_page(request: Request) -> Response:
        from arena.web.travellers import table_summary

        t, data = _table(request, table_summary)
        return web.render(request, "table.html", t=t, table=data)

    def traveller_page(request: Request) -> Response:
        from arena.web.travellers import traveller

        number = int(request.path_params["deal"])
        t, data = _table(request, lambda t, m: traveller(t, m, number))
        if number not in data["deal_numbers"]:
            raise NotFound(f"no deal {number} was played at the table of {data['match_id']!r}")
        return web.render(request, "traveller.html", t=t, tr=data)

    def match_api(request: Request) -> Response:
        _t, _match_id, path = _match_replay(request)
        return _data(request, path)

    def _data(request: Request, path: Path) -> Response:
        """The player data of one view: whole, its start, or deals from N on."""
        viewer = _viewer(request.path_params["view"], seats_of(path))
        part = request.path_params.get("part", "")
        if part == "start":
            data = player_start_json(path, viewer)
        elif "deal" in request.path_params:
            data = player_deals_json(path, viewer, int(request.path_params["deal"]))
        elif part:
            raise NotFound(f"no player data {part!r}")
        else:
            data = player_json(path, viewer)
        return Response(data, media_type="application/json")

    def decision_api(request: Request) -> Response:
        """The bot's-eye view of one decision of a seat (withheld like the
        player while the table plays: `_match_replay`)."""
        t, match_id, path = _match_replay(request)
        seat = _decider(request, path)
        return _decision(request, path, seat, t.log_path(match_id, seat))

    def _decider(request: Request, path: Path) -> int:
        viewer = _viewer(request.path_params["view"], seats_of(path))
        if viewer is None:
            raise NotFound("a decision is one seat's: ask for it in a seat's view (0, 1, ...)")
        return viewer

    def _decision(request: Request, path: Path, seat: int, log: Path | None) -> Response:
        try:
            data = decision_json(path, seat, int(request.path_params["n"]), log)
        except DecisionError as exc:
            raise NotFound(file_names(str(exc))) from None
        return Response(data, media_type="application/json")

    def replay_decision_api(request: Request) -> Response:
        path = _replay_file(request)
        return _decision(request, path, _decider(request, path), None)

    def analysis_api(request: Request) -> Response:
        """The cached analysis of the match for one view (web/analysis.py)."""
        from arena.web.analysis import reports

        t, match_id, path = _match_replay(request)
        seats = seats_of(path)
        viewer = _viewer(request.path_params["view"], seats)
        data = {"seats": reports(t.root, match_id, seats, viewer)}
        return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")

    def replay_analysis_api(request: Request) -> Response:
        """The reviews kept beside a replay file, for one view (web/analysis.py)."""
        from arena.web.analysis import review_reports

        path = _replay_file(request)
        seats = seats_of(path)
        data = {"seats": review_reports(path, seats, _viewer(request.path_params["view"], seats))}
        return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")

    def seat_log(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        match_id = request.path_params["id"]
        seat = request.path_params["seat"]
        _open_match(t, match_id)
        path = t.log_path(match_id, seat)
        if path is None:
            raise NotFound(f"no log kept for seat {seat} of match {match_id!r} (logs are kept "
                           'for seats that had a fault, or every seat\'s with keep_logs = "all")')
        return PlainTextResponse(path.read_text(encoding="utf-8", errors="replace"))

    def _replay_file(request: Request) -> Path:
        item = web.sources.replays.get(request.path_params["name"])
        if item is None:
            raise NotFound(f"no replay named {request.path_params['name']!r} is served here")
        return item.path

    def replay_player(request: Request) -> Response:
        path = _replay_file(request)
        seats = seats_of(path)
        viewer = _viewer(request.query_params.get("view", "all"), seats)
        name = request.path_params["name"]
        return web.render(request, "player.html", title=f"replay {path.name}", t=None,
                          seats=seats, data_url=f"/api/r/{name}/{{view}}/start.json", viewer=viewer,
                          deals_url=f"/api/r/{name}/{{view}}/deals/{{deal}}.json",
                          inline=_inline(path, viewer), match_id=path.stem,
                          analysis_url=f"/api/r/{name}/{{view}}/analysis.json",
                          decision_url=f"/api/r/{name}/{{view}}/decision/{{n}}.json")

    def replay_api(request: Request) -> Response:
        return _data(request, _replay_file(request))

    async def events(request: Request) -> Response:
        t = web.tournament(request.path_params["t"])
        return live.stream(request, t, poll_seconds, request.app.state.stopping)

    def error_page(request: Request, status: int, message: str, logged: bool = False,
                   headers: Mapping[str, str] | None = None) -> Response:
        if not logged:
            log.warning("%s %s: %d %s", request.method, request.url.path, status, message)
        if request.url.path.startswith("/api/"):
            return PlainTextResponse(message, status_code=status, headers=headers)
        page = web.render(request, "error.html", status=status, message=message)
        page.headers.update(headers or {})  # Retry-After of a 429, say
        return page

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        detail = exc.detail if exc.status_code != 404 or exc.detail != "Not Found" \
            else f"no page at {request.url.path[:200]}"
        return error_page(request, exc.status_code, str(detail), headers=exc.headers)

    async def replay_error(request: Request, exc: Exception) -> Response:
        return error_page(request, 422, f"this replay cannot be shown: {file_names(str(exc))}")

    async def store_error(request: Request, exc: Exception) -> Response:
        return error_page(request, 503, f"this tournament cannot be read: {file_names(str(exc))}")

    async def any_error(request: Request, exc: Exception) -> Response:
        # Never a traceback in a page: the log has it, the page says what failed.
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return error_page(request, 500, f"this page failed: {type(exc).__name__}: {exc}",
                          logged=True)

    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/t/{t}/", tournament),
        Route("/t/{t}/live", tournament_fragment),
        Route("/t/{t}/events", events),
        Route("/t/{t}/matches", matches),
        Route("/t/{t}/h2h", h2h),
        Route("/t/{t}/bot/{bot}", bot),
        Route("/t/{t}/match/{id}", match_player),
        Route("/t/{t}/table/{id}", table_page),
        Route("/t/{t}/table/{id}/deal/{deal:num}", traveller_page),
        Route("/t/{t}/log/{id}/{seat:num}", seat_log),
        Route("/api/t/{t}/match/{id}/{view}.json", match_api),
        Route("/api/t/{t}/match/{id}/{view}/analysis.json", analysis_api),
        Route("/api/t/{t}/match/{id}/{view}/decision/{n:num}.json", decision_api),
        Route("/api/t/{t}/match/{id}/{view}/{part}.json", match_api),
        Route("/api/t/{t}/match/{id}/{view}/deals/{deal:num}.json", match_api),
        Route("/r/{name}", replay_player),
        Route("/api/r/{name}/{view}.json", replay_api),
        Route("/api/r/{name}/{view}/decision/{n:num}.json", replay_decision_api),
        Route("/api/r/{name}/{view}/analysis.json", replay_analysis_api),
        Route("/api/r/{name}/{view}/{part}.json", replay_api),
        Route("/api/r/{name}/{view}/deals/{deal:num}.json", replay_api),
        *extra_routes,
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    from arena.tournament import StoreError

    app = Starlette(routes=routes, exception_handlers={
        HTTPException: http_error, ReplayError: replay_error, StoreError: store_error,
        Exception: any_error,
    })
    app.state.web = web
    # Set as the server stops (cli/webserve.py): a stream (a live
    # tournament's events) then ends, rather than hold up the server's
    # wait for the requests in flight.
    app.state.stopping = threading.Event()
    return app
