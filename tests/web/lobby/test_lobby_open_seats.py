"""Open tables: a seat its creator opened to anyone is taken from the lobby
without a join link; every refusal of that write against a real
`arena serve --lobby` on loopback (another site, a seat by link only, one
taken, a name taken, a bad seat, a form too large, too many a minute), and
the lobby's other writes refused from another site."""

from __future__ import annotations

import html
import http.client
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

from arena.web.lobby.routes import FORM_LIMIT, SIT_PER_MINUTE

from .test_lobby_limits import _serve_lobby

pytestmark = pytest.mark.slow

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _post(conn: http.client.HTTPConnection, path: str, fields: dict[str, str],
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    conn.request("POST", path, urlencode(fields), {**FORM, **(headers or {})})
    r = conn.getresponse()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()


def _get(conn: http.client.HTTPConnection, path: str, cookie: str = "") -> tuple[int, str]:
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    r = conn.getresponse()
    return r.status, r.read().decode()


def _message(body: str) -> str:
    m = re.search(r'id="error-message">([^<]*)<', body)
    assert m, body
    return html.unescape(m.group(1))


def test_open_seats_are_taken_from_the_lobby_and_every_refusal_is_one_line(tmp_path: Path) -> None:
    proc, port = _serve_lobby(tmp_path)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        here = f"http://127.0.0.1:{port}"
        game_form = {"preset": "standard", "seat0": "person", "name0": "ann",
                     "seat1": "person", "name1": "player1", "open1": "1",
                     "seat2": "person", "name2": "player2", "open2": "1"}
        # Another site's page cannot create a game (nor anything else): 403, nothing stored.
        status, _, body = _post(conn, "/lobby/games", game_form, {"Origin": "http://evil.example"})
        assert status == 403 and "another site" in _message(body)
        assert "No games yet" in _get(conn, "/lobby")[1]
        status, headers, _ = _post(conn, "/lobby/games", game_form, {"Origin": here})
        assert status == 303
        game = headers["location"].rsplit("/", 1)[1]
        creator = headers["set-cookie"].split(";", 1)[0]

        # The lobby lists it with a button per open seat, none for ann's (by link).
        _, lobby = _get(conn, "/lobby")
        tables = lobby[lobby.index('id="open-tables"'):lobby.index('aria-label="create a game"')]
        assert f'data-game="{game}"' in tables
        assert re.findall(r'<button type="submit" data-seat="(\d)"', tables) == ["1", "2"]

        sit = f"/lobby/game/{game}/sit"
        hits = 0

        def refused(fields: dict[str, str], code: int, words: str, origin: str = here) -> None:
            nonlocal hits
            status, _, body = _post(conn, sit, fields, {"Origin": origin})
            hits += origin == here
            assert status == code and words in _message(body), (status, body)

        refused({"seat": "1"}, 403, "another site", origin="http://evil.example")
        refused({"seat": "0"}, 409, "not open to anyone")
        refused({"seat": "x"}, 400, "expected a seat number")
        refused({"seat": "3"}, 409, "not open to anyone")
        refused({"seat": "1", "name": "ann"}, 409, "called 'ann'")
        refused({"seat": "1", "name": "b" * FORM_LIMIT}, 413, "too large")
        status, _, body = _post(conn, "/lobby/game/nosuch/sit", {"seat": "1"}, {"Origin": here})
        hits += 1
        assert status == 404 and "No such game" in _message(body)

        # A visitor sits: to the seat's page with its cookie, as a join link would.
        status, headers, _ = _post(conn, sit, {"seat": "1", "name": " bea\x00 "}, {"Origin": here})
        hits += 1
        assert status == 303 and headers["location"] == f"/game/{game}/seat/1"
        cookie = headers["set-cookie"].split(";", 1)[0]
        assert cookie.startswith(f"arena_seat_{game}_1=")
        assert _get(conn, f"/game/{game}/seat/1")[0] == 403        # not without it
        assert _get(conn, f"/game/{game}/seat/1", cookie)[0] == 200
        refused({"seat": "1", "name": "cid"}, 409, "taken already")
        _, page = _get(conn, f"/lobby/game/{game}")
        assert "bea" in page and "ann" in page and "(open to anyone)" in page
        _, lobby = _get(conn, "/lobby")
        tables = lobby[lobby.index('id="open-tables"'):lobby.index('aria-label="create a game"')]
        assert re.findall(r'<button type="submit" data-seat="(\d)"', tables) == ["2"]

        # Too many a minute from one address: 429 with Retry-After, the seat still free.
        while hits < SIT_PER_MINUTE:
            refused({"seat": "0"}, 409, "not open to anyone")
        status, headers, body = _post(conn, sit, {"seat": "2"}, {"Origin": here})
        assert status == 429 and int(headers["retry-after"]) > 0 and "a minute" in _message(body)
        _, lobby = _get(conn, "/lobby")
        assert re.findall(r'<button type="submit" data-seat="(\d)"', lobby) == ["2"]

        # The creator's writes are refused from another site too, even with its cookie.
        status, _, body = _post(conn, f"/lobby/game/{game}/cancel", {},
                                {"Origin": "http://evil.example", "Cookie": creator})
        assert status == 403 and "another site" in _message(body)
        status, _, _ = _post(conn, f"/lobby/game/{game}/cancel", {}, {"Origin": here, "Cookie": creator})
        assert status == 303
        _, lobby = _get(conn, "/lobby")
        assert "No game waits for people with an open seat" in lobby  # a cancelled game is no table
        conn.close()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "refused a request to sit posted from another site" in err and "over 10 a minute" in err
    assert creator.split("=", 1)[1] not in err and cookie.split("=", 1)[1] not in err  # no secret logged
