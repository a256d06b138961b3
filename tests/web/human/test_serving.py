"""`arena play human --port N` where N is taken: one line naming the address, exit 2."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from clihelp import ARENA

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_a_port_in_use_is_one_line_naming_it() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run([*ARENA, "play", "human", "sample_bots/random", "sample_bots/random",
                               "--no-open", "--port", str(port)], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert lines == [f"error: cannot listen on 127.0.0.1:{port}: Address already in use"], done.stderr
