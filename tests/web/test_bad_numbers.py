"""A number in a URL or a form that is not one the app can use: "²" (which
str.isdigit admits and int() refuses), 5,000 digits (past int()'s limit of
4,300), a negative one. Each used to be a 500 ("this page failed:
ValueError"); each is now a 404 (a path, a view) or a 400 (a form), one line.
Unit tests of the parser and the path convertor, then over a real
`arena serve REPLAY` and a real `arena serve --lobby` on loopback."""

from __future__ import annotations

import http.client
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from clihelp import ARENA
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from arena.game import Rules
from arena.web.guard import NUMBER_DIGITS, small_number

from .stored import write_replay

LONG = "1" * 5000
SUPERSCRIPT = quote("²")


def test_small_number_takes_ascii_digits_of_a_bounded_length_only() -> None:
    assert small_number("0") == 0
    assert small_number("9" * NUMBER_DIGITS) == int("9" * NUMBER_DIGITS)
    for bad in ("", "²", "\u0661", "-1", "+1", " 1", "1.0", "9" * (NUMBER_DIGITS + 1), LONG):
        assert small_number(bad) is None, bad


def test_the_num_convertor_does_not_match_what_it_cannot_convert() -> None:
    def echo(request: Request) -> Response:
        return PlainTextResponse(repr(request.path_params["n"]))

    client = TestClient(Starlette(routes=[Route("/x/{n:num}", echo)]), raise_server_exceptions=False)
    assert client.get("/x/42").text == "42"
    for bad in (LONG, SUPERSCRIPT, "-1", "1" * (NUMBER_DIGITS + 1)):
        assert client.get(f"/x/{bad}").status_code == 404, bad[:20]


@contextmanager
def _served(args: list[str], cwd: Path) -> Iterator[int]:
    proc = subprocess.Popen([*ARENA, *args, "--port", "0"], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    assert m
    try:
        yield int(m.group(1))
    finally:
        proc.terminate()
        proc.wait(30)


def _ask(port: int, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = urlencode(form) if form is not None else None
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
    conn.request(method, path, body, headers)
    r = conn.getresponse()
    text = r.read().decode()
    conn.close()
    return r.status, text


def _message(status: int, body: str) -> str:
    """The one line an error answers: the API's text, or the error page's message."""
    m = re.search(r'id="error-message">([^<]*)<', body)
    line = m.group(1) if m else body
    assert "\n" not in line.strip() and "Traceback" not in body and "ValueError" not in body, body[:300]
    return line


@pytest.mark.slow
def test_bad_numbers_in_the_replay_players_urls_are_404s(tmp_path: Path) -> None:
    write_replay(tmp_path / "r1.jsonl", Rules.preset("standard"), 7)
    with _served(["serve", str(tmp_path / "r1.jsonl")], tmp_path) as port:
        assert _ask(port, "GET", "/api/r/r1/0.json")[0] == 200
        for path in (f"/api/r/r1/{SUPERSCRIPT}.json", f"/api/r/r1/{LONG}.json",
                     f"/api/r/r1/{SUPERSCRIPT}/start.json", f"/api/r/r1/{SUPERSCRIPT}/analysis.json",
                     f"/api/r/r1/{LONG}/analysis.json", f"/api/r/r1/0/decision/{LONG}.json",
                     f"/api/r/r1/{SUPERSCRIPT}/decision/1.json", f"/api/r/r1/0/deals/{LONG}.json",
                     f"/r/r1?view={SUPERSCRIPT}", f"/r/r1?view={LONG}"):
            status, body = _ask(port, "GET", path)
            assert status == 404, (path[:60], status, body[:200])
            assert len(_message(status, body)) < 300, path[:60]


@pytest.mark.slow
def test_a_bad_seat_number_in_the_lobby_is_a_400_or_404(tmp_path: Path) -> None:
    with _served(["serve", "--lobby", "--data", str(tmp_path / "lobby")], tmp_path) as port:
        status, _ = _ask(port, "POST", "/lobby/games", {
            "preset": "standard", "seat0": "person", "name0": "a", "open0": "1",
            "seat1": "person", "name1": "b", "seat2": "person", "name2": "c"})
        assert status == 303
        game = re.findall(r'href="/lobby/game/([0-9a-f]+)"', _ask(port, "GET", "/lobby")[1])[0]
        for seat in ("²", "-1", LONG, ""):
            status, body = _ask(port, "POST", f"/lobby/game/{game}/sit", {"seat": seat, "name": "x"})
            assert status == 400, (seat[:10], status, body[:300])
            assert "expected a seat number" in _message(status, body)
        for path in (f"/game/{game}/seat/{LONG}", f"/game/{game}/seat/{SUPERSCRIPT}",
                     f"/game/{game}/seat/{LONG}/review.json"):
            status, body = _ask(port, "GET", path)
            assert status == 404, (path[:60], status, body[:200])
            _message(status, body)
