"""A bot's stdout+stderr, kept up to a byte cap, drained to the end.

A bot that spams output must neither block on a full pipe (it would look
like a timeout caused by us) nor fill the disk: the reader keeps reading and
throws away everything past the cap.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator

TRUNCATION_NOTE = b"\n[arena: log truncated at %d bytes; the rest was discarded]\n"
_CHUNK = 65536


def pipe_chunks(fd: int) -> Iterator[bytes]:
    """Chunks read from a pipe until every writer has closed it; closes `fd`."""
    try:
        while True:
            try:
                data = os.read(fd, _CHUNK)
            except OSError:
                return
            if not data:
                return
            yield data
    finally:
        os.close(fd)


class CappedLog:
    """Copies chunks from `source` into `path` on a daemon thread, up to `limit` bytes."""

    def __init__(self, source: Iterable[bytes], path: str, limit: int,
                 on_close: Callable[[], None] | None = None) -> None:
        self.path = path
        self.limit = limit
        self.kept = 0
        self.dropped = 0
        self._source = source
        self._on_close = on_close
        # 0600: the bot itself (unprivileged at bwrap/docker level) must not read other logs.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._out = os.fdopen(fd, "ab", buffering=0)
        self._thread = threading.Thread(target=self._run, name=f"botlog:{path}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with self._out as out:
                for chunk in self._source:
                    room = self.limit - self.kept
                    if room > 0:
                        part = chunk[:room]
                        out.write(part)
                        self.kept += len(part)
                        if len(chunk) > room:
                            self.dropped += len(chunk) - room
                            out.write(TRUNCATION_NOTE % self.limit)
                    else:
                        self.dropped += len(chunk)
        except OSError:
            # The log file became unwritable: keep draining so the bot never blocks.
            for chunk in self._source:
                self.dropped += len(chunk)
        finally:
            if self._on_close is not None:
                self._on_close()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the source to end; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()
