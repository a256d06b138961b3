"""The capped bot log: keeps `limit` bytes, notes the cut, drains the rest."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

from arena.sandbox.logcap import TRUNCATION_NOTE, CappedLog


def test_keeps_the_first_bytes_and_counts_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    log = CappedLog(iter([b"a" * 6, b"b" * 6, b"c" * 100]), str(path), limit=10)
    assert log.join(10)
    assert path.read_bytes() == b"a" * 6 + b"b" * 4 + TRUNCATION_NOTE % 10
    assert (log.kept, log.dropped) == (10, 102)


def test_short_output_is_kept_whole_and_private(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    log = CappedLog(iter([b"hello\n"]), str(path), limit=1000)
    assert log.join(10)
    assert path.read_bytes() == b"hello\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_the_file_exists_as_soon_as_the_log_starts(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"
    release = threading.Event()

    def slow_source() -> Iterator[bytes]:
        release.wait(10)
        yield b"late"

    log = CappedLog(slow_source(), str(path), limit=10)
    assert path.exists()  # before the bot wrote anything
    release.set()
    assert log.join(10)
    assert path.read_bytes() == b"late"
