"""A live tournament page's event stream does not hold `arena serve` up:
uvicorn waits for every request in flight when it is stopped, and the
stream never ends by itself. At SIGTERM the stream is told `closed` and
ends, and the server exits with nothing cut (no traceback)."""

from __future__ import annotations

import http.client
import re
import signal
import subprocess
from pathlib import Path

import pytest
from clihelp import ARENA

from .stored import stored_tournament

pytestmark = pytest.mark.slow


def test_an_open_live_stream_ends_when_the_server_stops(tmp_path: Path) -> None:
    folder = stored_tournament(tmp_path / "live", fast=True)
    proc = subprocess.Popen([*ARENA, "serve", str(folder), "--port", "0"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert m
        conn = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=60)
        conn.request("GET", "/t/live/events")
        response = conn.getresponse()
        assert response.status == 200 and response.readline() == b"retry: 2000\n"
        proc.send_signal(signal.SIGTERM)
        lines = [raw.decode() for raw in response]  # to its end
        conn.close()
        assert "event: closed\n" in lines, lines
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM or proc.returncode == -signal.SIGTERM, err
    assert "Traceback" not in err and "ERROR" not in err, err
