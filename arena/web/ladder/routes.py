"""The ladder's pages and HTTP API (Starlette routes), for `arena ladder serve`.

    GET  /ladder/                         the live table (its body refreshes from /ladder/live)
    GET  /ladder/ratings                  the season's batch rating (order-free, no drift)
    GET  /ladder/bot/{name}               a bot: versions, rating over blocks, blocks
    GET  /ladder/author/{name}            an author: bots and submissions
    GET  /ladder/submission/{id}          state, rating; its owner also: the reason and
                                          the validation match (result, replay, log)
    GET  /ladder/block/{id}               a block's six matches; replays once it is over
    GET  /ladder/match/{id}               the replay player (403 while its block is played;
                                          a validation match: its owner only)
    GET  /ladder/log/{id}/{seat}          a seat's kept log: the owner of that seat's bot only
    GET  /ladder/signin, POST /ladder/signin, POST /ladder/signout
    GET  /ladder/upload, POST /ladder/upload    the browser's upload (session + CSRF)
    GET  /api/ladder/table.json, /api/ladder/ratings.json
    POST /api/ladder/submissions          an upload (Authorization: Bearer TOKEN; the body
                                          is the tar.gz or zip) -> 201 {id, state, url}
    GET  /api/ladder/submissions/{id}     its state (JSON); the reason for its owner
    GET  /api/ladder/match/{id}/{view}.json ... the player's data, as for tournaments
    GET  /api/ladder/match/{id}/{seat}/decision/{n}.json   the bot's-eye view of a
                                          decision of that seat: its bot's owner and the
                                          organisers only (signed in), like its log

Refusals are HTTP errors with one line (an error page, or plain text under
/api/): 401 without a valid token or session, 403 for another author's
files, a foreign origin or a bad CSRF token, 400/409 for an upload that is
not taken, 413 over the size cap, 429 with Retry-After past a rate limit or
the daily quota. Nothing of a refused request is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from arena.ladder.errors import Refused
from arena.ladder.intake import Intake
from arena.ladder.store import MatchRow, Store, Submission
from arena.referee.botseye import DecisionError
from arena.web.app import Web, environment, inline_json
from arena.web.filenames import file_names
from arena.web.guard import read_body, small_number
from arena.web.ladder import views
from arena.web.ladder.auth import Auth
from arena.web.memo import VersionMemo
from arena.web.replays import (
    decision_json,
    player_deals_json,
    player_json,
    player_start_json,
    seats_of,
)
from arena.web.sources import MATCH_ID, Catalog

FORM_LIMIT = 8192


class Ladder:
    """What the routes need: the ladder's config, store, intake and auth."""

    def __init__(self, intake: Intake) -> None:
        self.intake = intake
        self.config = intake.config
        self.store: Store = intake.store
        self.root = Path(self.config.root)
        self.auth = Auth.of(self.store, self.config.quotas.writes_per_minute)
        self.web = Web(Catalog({}, {}), environment())
        self._table = VersionMemo[str](size=1)        # the rendered fragment
        self._batch = VersionMemo[dict[str, Any]](size=1)
        self.pages = PageCache()

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        viewer = self.auth.viewer(request)
        return self.web.render(request, name, status, ladder=self.config, me=viewer.user,
                               csrf=self.auth.csrf(request), **context)

    def table_fragment(self, request: Request) -> str:
        """The live table's HTML, rendered once per change of the store
        (the pages are read by many at once; the table changes per block)."""
        return self._table.get_or_make("", self.store.version(), lambda: self.web.env.get_template(
            "ladder_live.html").render(u=self.web.urls, table=views.table(self.store, self.config)))

    def batch(self) -> dict[str, Any]:
        """The batch rating, fitted once per change of the store (a fit
        over every finished block's matches: too slow for each request)."""
        return self._batch.get_or_make("", self.store.version(), lambda: views.batch(self.store))

    # -- files ----------------------------------------------------------------
    def match_or_404(self, match_id: str) -> MatchRow:
        row = self.store.match(match_id) if MATCH_ID.fullmatch(match_id) else None
        if row is None:
            raise HTTPException(404, f"no match {match_id[:80]!r} on this ladder")
        return row

    def readable(self, row: MatchRow, viewer: views.Viewer) -> Path:
        """The replay of a match a viewer may see: a block's once the block
        is over (its deals are never dealt again), a validation match's to
        its owner only."""
        if row.block_id is not None:
            block = self.store.block(row.block_id)
            if block is None or block.status == "running":
                raise HTTPException(403, f"match {row.match_id}: the replay opens when its "
                                    "block is over (other seat orders of its deals are still "
                                    "to be played)")
            path = self.root / "replays" / f"{row.match_id}.jsonl"
        else:
            sub = self.store.submission(row.submission_id or 0)
            if sub is None or not viewer.owns(sub):
                raise HTTPException(403, f"match {row.match_id}: a validation match, shown to "
                                    "its bot's owner only (sign in)")
            path = self.root / Path(sub.path).parent / "validation" / f"{row.match_id}.jsonl"
        if not path.is_file():
            raise HTTPException(404, f"match {row.match_id} has no replay (not played)")
        return path

    def seat_log(self, row: MatchRow, seat: int, viewer: views.Viewer) -> Path:
        if not 0 <= seat < len(row.seats):
            raise HTTPException(404, f"match {row.match_id} has no seat {seat}")
        sub = self.store.submission(row.seats[seat])
        if sub is None or not viewer.owns(sub):
            raise HTTPException(403, f"seat {seat} of match {row.match_id}: a bot's log is "
                                "shown to its owner only (sign in)")
        if row.block_id is not None:
            block = self.store.block(row.block_id)
            if block is None or block.status == "running":
                raise HTTPException(403, f"match {row.match_id}: its block is being played")
            folder = self.root / "logs"
        else:
            folder = self.root / Path(sub.path).parent / "validation"
        path = folder / f"{row.match_id}-seat{seat}-{sub.bot}.log"
        if not path.is_file():
            raise HTTPException(404, f"no log kept for seat {seat} of match {row.match_id} "
                                "(a block keeps the logs of seats that had a fault)")
        return path


class PageCache:
    """Whole answers to readers who are not signed in, per URL, kept while
    the store is unchanged (Store.version). A public ladder is read by many
    at once and changes once a match: without it every reader of a page
    paid for its queries and its template."""

    def __init__(self, size: int = 2048) -> None:
        self._pages = VersionMemo[tuple[bytes, str]](size)

    def get(self, key: str, version: object) -> Response | None:
        hit = self._pages.get(key, version)
        return None if hit is None else Response(hit[0], media_type=hit[1])

    def put(self, key: str, version: object, response: Response) -> None:
        if response.status_code != 200 or "set-cookie" in response.headers:
            return
        self._pages.put(key, version, (bytes(response.body), response.media_type or "text/html"))


def _int(text: str, what: str) -> int:
    number = small_number(text)
    if number is None:
        raise HTTPException(404, f"no {what} {text[:40]!r} on this ladder")
    return number


def _submission(ladder: Ladder, text: str) -> Submission:
    sub = ladder.store.submission(_int(text, "submission"))
    if sub is None:
        raise HTTPException(404, f"no submission {text[:40]!r} on this ladder")
    return sub


def _refused(exc: Refused) -> HTTPException:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return HTTPException(exc.status, str(exc), headers=headers)


def ladder_routes(ladder: Ladder) -> list[BaseRoute]:
    store, auth = ladder.store, ladder.auth

    def public(handler: Callable[[Request], Response]) -> Callable[[Request], Response]:
        """A page or API answer that is the same for every reader who is not
        signed in: served from the page cache to them (a signed-in reader
        may see more: the owner's parts, and is answered fresh)."""
        def answer(request: Request) -> Response:
            if auth.viewer(request, api=True).user is not None:
                return handler(request)
            key = request.url.path + "?" + request.url.query
            version = store.version()
            hit = ladder.pages.get(key, version)
            if hit is not None:
                return hit
            response = handler(request)
            ladder.pages.put(key, version, response)
            return response
        return answer

    @public
    def table_page(request: Request) -> Response:
        return ladder.render(request, "ladder_table.html", live=ladder.table_fragment(request))

    @public
    def live(request: Request) -> Response:
        return Response(ladder.table_fragment(request), media_type="text/html")

    @public
    def table_api(request: Request) -> Response:
        return JSONResponse(views.table(store, ladder.config))

    @public
    def batch_page(request: Request) -> Response:
        return ladder.render(request, "ladder_batch.html", batch=ladder.batch())

    @public
    def batch_api(request: Request) -> Response:
        return JSONResponse(ladder.batch())

    @public
    def bot_page(request: Request) -> Response:
        name = request.path_params["name"]
        data = views.bot_page(store, name, auth.viewer(request))
        if data is None:
            raise HTTPException(404, f"no bot {name[:64]!r} on this ladder")
        return ladder.render(request, "ladder_bot.html", bot=data)

    @public
    def author_page(request: Request) -> Response:
        name = request.path_params["name"]
        data = views.author_page(store, name, auth.viewer(request))
        if data is None:
            raise HTTPException(404, f"no author {name[:64]!r} on this ladder")
        return ladder.render(request, "ladder_author.html", author=data)

    @public
    def submission_page(request: Request) -> Response:
        sub = _submission(ladder, request.path_params["id"])
        data = views.submission_page(store, ladder.config, sub, auth.viewer(request))
        return ladder.render(request, "ladder_submission.html", sub=data)

    @public
    def submission_api(request: Request) -> Response:
        viewer = auth.viewer(request, api=True)
        sub = _submission(ladder, request.path_params["id"])
        return JSONResponse(views.submission_summary(sub, viewer))

    @public
    def block_page(request: Request) -> Response:
        block = views.block_page(store, _int(request.path_params["id"], "block"),
                                 auth.viewer(request))
        if block is None:
            raise HTTPException(404, f"no block {request.path_params['id']!r} on this ladder")
        return ladder.render(request, "ladder_block.html", block=block)

    @public
    def match_page(request: Request) -> Response:
        row = ladder.match_or_404(request.path_params["id"])
        path = ladder.readable(row, auth.viewer(request))
        seats = seats_of(path)
        view = request.query_params.get("view", "all")
        number = small_number(view)
        viewer = number if number is not None and number < seats else None
        mid = quote(row.match_id)
        return ladder.render(
            request, "player.html", title=f"{ladder.config.name}: match {row.match_id}", t=None,
            seats=seats, viewer=viewer, match_id=row.match_id,
            data_url=f"/api/ladder/match/{mid}/{{view}}/start.json",
            deals_url=f"/api/ladder/match/{mid}/{{view}}/deals/{{deal}}.json",
            # Signed in: the bot's-eye view of the seats it owns (the rest answer 403).
            decision_url=f"/api/ladder/match/{mid}/{{view}}/decision/{{n}}.json"
            if auth.viewer(request).user is not None else "",
            inline={"all" if viewer is None else str(viewer):
                    inline_json(player_start_json(path, viewer))})

    @public
    def match_data(request: Request) -> Response:
        row = ladder.match_or_404(request.path_params["id"])
        path = ladder.readable(row, auth.viewer(request, api=True))
        view = request.path_params["view"]
        seats = seats_of(path)
        number = small_number(view)
        if view != "all" and not (number is not None and number < seats):
            raise HTTPException(404, f"view {view[:20]!r}: expected 'all' or a seat 0..{seats - 1}")
        viewer = None if view == "all" else number
        part = request.path_params.get("part", "")
        if part == "start":
            data = player_start_json(path, viewer)
        elif "deal" in request.path_params:
            data = player_deals_json(path, viewer, int(request.path_params["deal"]))
        elif part:
            raise HTTPException(404, f"no player data {part[:20]!r}")
        else:
            data = player_json(path, viewer)
        return Response(data, media_type="application/json")

    def decision_data(request: Request) -> Response:
        """A seat's decision as its bot met it (referee/botseye.py): for
        whom its log is, when its replay may be read."""
        row = ladder.match_or_404(request.path_params["id"])
        viewer = auth.viewer(request, api=True)
        path = ladder.readable(row, viewer)
        seat = int(request.path_params["seat"])
        if not 0 <= seat < len(row.seats):
            raise HTTPException(404, f"match {row.match_id} has no seat {seat}")
        sub = store.submission(row.seats[seat])
        if sub is None or not viewer.owns(sub):
            raise HTTPException(403, f"seat {seat} of match {row.match_id}: a bot's-eye view is "
                                "shown to its bot's owner and the organisers only (sign in)")
        try:
            log: Path | None = ladder.seat_log(row, seat, viewer)
        except HTTPException:
            log = None  # no log kept: the view without its lines
        try:
            data = decision_json(path, seat, int(request.path_params["n"]), log)
        except DecisionError as exc:
            raise HTTPException(404, file_names(str(exc))) from None
        return Response(data, media_type="application/json")

    def log_page(request: Request) -> Response:
        row = ladder.match_or_404(request.path_params["id"])
        path = ladder.seat_log(row, int(request.path_params["seat"]), auth.viewer(request))
        return PlainTextResponse(path.read_text(encoding="utf-8", errors="replace"))

    # -- signing in and out ---------------------------------------------------
    def signin_page(request: Request) -> Response:
        token, attach = auth.signin_form(request)
        page = ladder.render(request, "ladder_signin.html", form_csrf=token)
        attach(page)
        return page

    async def signin(request: Request) -> Response:
        auth.limit(request)
        form = await _form(request)
        if not auth.signin_ok(request, form.get("csrf", "")):
            raise HTTPException(403, "refused: the sign-in form's CSRF token is missing or not "
                                "this browser's (open /ladder/signin again)")
        user = store.user_for_token(form.get("token", "").strip())
        if user is None:
            raise HTTPException(401, "that token opens nothing on this ladder")
        response = RedirectResponse(f"/ladder/author/{quote(user.name)}", status_code=303)
        auth.start_session(user, response)
        return response

    async def signout(request: Request) -> Response:
        form = await _form(request)
        auth.browser_write(request, form.get("csrf", ""))
        response = RedirectResponse("/ladder/", status_code=303)
        auth.end_session(response)
        return response

    # -- uploads --------------------------------------------------------------
    def upload_page(request: Request) -> Response:
        if auth.session(request) is None:
            return RedirectResponse("/ladder/signin", status_code=303)
        return ladder.render(request, "ladder_upload.html", quotas=ladder.config.quotas)

    async def take(request: Request, user: Any) -> Submission:
        body = await read_body(request, ladder.config.quotas.upload_bytes)
        if body is None:
            raise HTTPException(413, f"archive refused: more than the "
                                f"{ladder.config.quotas.upload_bytes} bytes allowed")
        try:
            new = await anyio.to_thread.run_sync(ladder.intake.submit, user, body)
        except Refused as exc:
            raise _refused(exc) from None
        sub = store.submission(new)
        assert sub is not None
        return sub

    async def upload(request: Request) -> Response:
        # The page's script posts the file itself, the CSRF token in a header.
        user = auth.browser_write(request, request.headers.get("x-csrf-token", ""))
        sub = await take(request, user)
        return JSONResponse({"id": sub.id, "url": f"/ladder/submission/{sub.id}"}, status_code=201)

    async def submit_api(request: Request) -> Response:
        auth.limit(request)
        user = auth.bearer(request)
        if user is None:
            raise HTTPException(401, "no token: send Authorization: Bearer TOKEN (`arena submit`"
                                " does)", headers={"WWW-Authenticate": "Bearer"})
        sub = await take(request, user)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"id": sub.id, "bot": sub.bot, "version": sub.version,
                             "state": sub.state, "url": f"{base}/ladder/submission/{sub.id}",
                             "api": f"{base}/api/ladder/submissions/{sub.id}"}, status_code=201)

    return [
        Route("/ladder", lambda r: RedirectResponse("/ladder/", status_code=307)),
        Route("/ladder/", table_page),
        Route("/ladder/live", live),
        Route("/ladder/ratings", batch_page),
        Route("/ladder/bot/{name}", bot_page),
        Route("/ladder/author/{name}", author_page),
        Route("/ladder/submission/{id}", submission_page),
        Route("/ladder/block/{id}", block_page),
        Route("/ladder/match/{id}", match_page),
        Route("/ladder/log/{id}/{seat:num}", log_page),
        Route("/ladder/signin", signin_page),
        Route("/ladder/signin", signin, methods=["POST"]),
        Route("/ladder/signout", signout, methods=["POST"]),
        Route("/ladder/upload", upload_page),
        Route("/ladder/upload", upload, methods=["POST"]),
        Route("/api/ladder/table.json", table_api),
        Route("/api/ladder/ratings.json", batch_api),
        Route("/api/ladder/submissions", submit_api, methods=["POST"]),
        Route("/api/ladder/submissions/{id}", submission_api),
        Route("/api/ladder/match/{id}/{view}.json", match_data),
        Route("/api/ladder/match/{id}/{seat:num}/decision/{n:num}.json", decision_data),
        Route("/api/ladder/match/{id}/{view}/{part}.json", match_data),
        Route("/api/ladder/match/{id}/{view}/deals/{deal:num}.json", match_data),
    ]


async def _form(request: Request) -> dict[str, str]:
    body = await read_body(request, FORM_LIMIT)
    if body is None:
        raise HTTPException(413, "the form is too large")
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}

