"""Anyone who reaches the lobby may create games: at most WAITING_LIMIT wait
for their people at once, the next is refused with one line (a real
`arena serve --lobby`, real HTTP)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest

from arena.web.lobby.games import WAITING_LIMIT

ARENA = Path(sys.executable).with_name("arena")


@pytest.mark.slow
def test_games_waiting_at_once_are_bounded(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(ARENA), "serve", "--lobby", "--data", str(tmp_path / "lobby"),
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
