"""What `arena serve` logs on its terminal holds text from its visitors (a
request's path, a name typed into the lobby): control characters in it are
written escaped (arena/cli/safelog.py), so no visitor can send escape
sequences to the operator's terminal. A real `arena serve --lobby` over
real HTTP; its stderr as the terminal would get it."""

from __future__ import annotations

import http.client
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from clihelp import ARENA

from arena.cli.safelog import SafeFormatter, escape_controls

ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\r\x9b"


def test_control_characters_are_written_as_hex_and_tracebacks_keep_their_lines() -> None:
    assert escape_controls("a\x1b[2Jb\x07\n\r\x9bc\td") == "a\\x1b[2Jb\\x07\\x0a\\x0d\\x9bc\td"
    assert escape_controls("x\ny\x1b", keep_newlines=True) == "x\ny\\x1b"
    try:
        raise ValueError("bad\x1b[2J")
    except ValueError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "path %s\nforged line",
                                   ("/x\x1b]0;t\x07",), sys.exc_info())
    text = SafeFormatter("%(message)s").format(record)
    first, *rest = text.split("\n")
    assert first == "path /x\\x1b]0;t\\x07\\x0aforged line"
    assert rest[0] == "Traceback (most recent call last):" and "bad\\x1b[2J" in rest[-1]
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)


@pytest.mark.slow
def test_a_visitor_cannot_write_escape_sequences_to_the_servers_terminal(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([*ARENA, "serve", "--lobby", "--data", str(tmp_path / "lobby"),
                             "--port", "0"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        conn = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=30)
        conn.request("GET", "/t/x%1b%5d0%3bPWNED%07%1b%5b2J%0d%c2%9b/")  # an unknown tournament
        assert conn.getresponse().read() and True
        form = {"preset": "standard", "seat0": "person", "name0": "ann" + ESCAPES,
                "seat1": "person", "name1": "bob", "seat2": "person", "name2": "cy"}
        conn.request("POST", "/lobby/games", urlencode(form),
                     {"Content-Type": "application/x-www-form-urlencoded"})
        assert conn.getresponse().status == 303
        conn.close()
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=30)
    # Both reached the log, and neither wrote a control character to it.
    assert "GET /t/x\\x1b]0;PWNED\\x07\\x1b[2J" in err, err
    assert "seats person ann\\x1b]0;PWNED\\x07\\x1b[2J\\x0d\\x9b" in err, err
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", err), repr(err)
