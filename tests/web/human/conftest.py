"""Fixtures of the human-seat tests: Debian's chromium through Playwright,
and `arena play` with a human seat as a real process."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from clihelp import ARENA

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


# Per module, not per session: while Playwright's sync API is open, its event
# loop counts as running in this thread, and asyncio.run (the CLI, the
# referee) would refuse to run in every later test.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("no chromium (scripts/setup.sh installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


class Process:
    """A command whose stdout is read line by line in a thread."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, "DISPLAY": ""})
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def wait_line(self, contains: str, timeout: float = 60.0) -> str:
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError(f"ended before a line with {contains!r}: {''.join(self.out)}{err}")
            if contains in line:
                return line

    def finish(self, timeout: float = 120.0) -> tuple[int, str, str]:
        code = self.proc.wait(timeout)
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return code, "".join(self.out), err

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def run_arena(tmp_path: Path) -> Iterator[object]:
    started: list[Process] = []

    def start(*args: str) -> Process:
        p = Process([*ARENA, *args], tmp_path)
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()
