"""Anyone who reaches the lobby may create games: at most WAITING_LIMIT wait
for their people at once, the next is refused with one line (a real
`arena serve --lobby`, real HTTP)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import pytest
from clihelp import ARENA

from arena.web.lobby.games import WAITING_LIMIT


@pytest.mark.slow
def test_games_waiting_at_once_are_bounded(tmp_path: Path) -> None:
    proc = subprocess.Popen([*ARENA, "serve", "--lobby", "--data", str(tmp_path / "lobby"),
                             "--port", "0"], cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert m
        conn = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=30)
        form = urlencode({"preset": "standard", "seat0": "person", "name0": "a", "seat1": "person",
                          "name1": "b", "seat2": "person", "name2": "c"})
        statuses = []
        for _ in range(WAITING_LIMIT + 1):
            conn.request("POST", "/lobby/games", form, {"Content-Type": "application/x-www-form-urlencoded"})
            response = conn.getresponse()
            statuses.append(response.status)
            body = response.read().decode()
        assert statuses == [303] * WAITING_LIMIT + [400], statuses
        message = re.search(r'id="error-message">([^<]*)<', body)
        assert message and f"at most {WAITING_LIMIT} at once" in message.group(1), body
        conn.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def _serve_lobby(tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen([*ARENA, "serve", "--lobby", "--data", str(tmp_path / "lobby"),
                             "--port", "0"], cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    assert m
    return proc, int(m.group(1))


@pytest.mark.slow
@pytest.mark.parametrize("framing", ["length", "chunked"])
def test_a_form_over_the_limit_is_refused_before_it_is_read_whole(
        tmp_path: Path, framing: str) -> None:
    """The server used to read a posted body whole before it looked at its
    size: a gigabyte posted to /lobby/games was held in the memory of the
    process that also runs the games' referees (a 300 MB post took its peak
    from 65 to 650 MB). Now it answers 413 once FORM_LIMIT is passed: here
    while the client has sent only the first part of what it announced
    (a whole gigabyte by Content-Length, or chunks without end), which it
    would otherwise wait for, and the lobby serves on."""
    import socket

    from arena.web.lobby.routes import FORM_LIMIT

    proc, port = _serve_lobby(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            head = "POST /lobby/games HTTP/1.1\r\nHost: x\r\n" \
                   "Content-Type: application/x-www-form-urlencoded\r\n"
            part = b"a" * (4 * FORM_LIMIT)
            if framing == "length":
                sock.sendall(f"{head}Content-Length: {2**30}\r\n\r\n".encode() + part)
            else:
                sock.sendall(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode())
                for _ in range(4):  # and never the last, empty chunk
                    sock.sendall(f"{FORM_LIMIT:x}\r\n".encode() + part[:FORM_LIMIT] + b"\r\n")
            answer = b""
            while b"</html>" not in answer:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        assert b"The form is too large." in answer
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/lobby")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.mark.parametrize("damage", ["garbage", "torn"])
def test_a_damaged_lobby_store_is_one_line_and_exit_2(tmp_path: Path, damage: str) -> None:
    from arena.web.lobby.store import LobbyStore

    data = tmp_path / "lobby"
    data.mkdir()
    store_path = data / "lobby.sqlite"
    if damage == "garbage":
        store_path.write_bytes(b"not a database\n" * 100)
    else:  # a real store, its pages past the first overwritten
        with LobbyStore(store_path) as store:
            for i in range(200):
                store.add_game(f"g{i:04d}", "standard", {}, i, [("person", "a" * 50)] * 3)
        for extra in data.glob("lobby.sqlite-*"):
            extra.unlink()
        raw = bytearray(store_path.read_bytes())
        assert len(raw) > 3 * 4096
        raw[4096 + 100:] = b"\xff" * (len(raw) - 4096 - 100)
        store_path.write_bytes(bytes(raw))
    before = store_path.read_bytes()
    done = subprocess.run([*ARENA, "serve", "--lobby", "--data", str(data), "--port", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: --data {data}: ") and "not a usable lobby store" in lines[0]
    assert store_path.read_bytes() == before  # nothing written over it


@pytest.mark.slow
def test_only_the_creating_browser_may_start_cancel_or_rematch(tmp_path: Path) -> None:
    """Each of the creator's actions is refused (403, nothing changed) to a
    client without the creator's cookie, and answers 404 for a game this
    server does not hold; the refusal is logged without any secret."""
    proc, port = _serve_lobby(tmp_path)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        form = urlencode({"preset": "standard", "seat0": "person", "name0": "a", "seat1": "person",
                          "name1": "b", "seat2": "person", "name2": "c"})
        conn.request("POST", "/lobby/games", form, {"Content-Type": "application/x-www-form-urlencoded"})
        response = conn.getresponse()
        response.read()
        assert response.status == 303
        game_url = response.getheader("Location", "")
        creator_cookie = response.getheader("Set-Cookie", "")
        assert game_url.startswith("/lobby/game/") and creator_cookie
        for action in ("start", "cancel", "rematch"):
            conn.request("POST", f"{game_url}/{action}")
            refused = conn.getresponse()
            body = refused.read().decode()
            assert refused.status == 403, (action, refused.status)
            assert "Only the browser that created the game may" in body
            conn.request("POST", f"/lobby/game/nosuchgame/{action}")
            missing = conn.getresponse()
            missing.read()
            assert missing.status == 404, (action, missing.status)
        conn.request("GET", game_url)
        page = conn.getresponse().read().decode()
        assert 'data-status="waiting"' in page  # neither started, nor cancelled
        conn.close()
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=30)
    assert err.count("from a browser that did not create it") == 3, err
    secret = creator_cookie.split("=", 1)[1].split(";", 1)[0]
    assert secret and secret not in err
