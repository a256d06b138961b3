"""A bot's stdout+stderr, kept up to a byte cap, drained to the end.

A bot that spams output must neither block on a full pipe (it would look
like a timeout caused by us) nor fill the disk: the reader keeps reading and
throws away everything past the cap.

`CappedLog.position()` is where the stream stands now, in bytes the bot has
written so far (kept or not): the referee notes it before each decision
request (arena/referee/marks.py), so a decision's lines are the bytes
between its position and the next one's. The positions live in the
referee's own index, never in the stream: nothing a bot prints can move
them. From a pipe (`PipeSource`) the position counts the bytes still in
the pipe too, so that everything the bot wrote before its last reply
belongs to the decisions before; from any other source (a container's
attached stream, relayed by the docker daemon) it counts what has arrived.
"""

from __future__ import annotations

import fcntl
import os
import select
import termios
import threading
from collections.abc import Callable, Iterable, Iterator

TRUNCATION_NOTE = b"\n[arena: log truncated at %d bytes; the rest was discarded]\n"
_CHUNK = 65536


class PipeSource:
    """The chunks of a pipe, read so that `position` is exact: a chunk is
    read and counted under one lock, and what waits in the pipe is counted
    (FIONREAD) under the same lock, so no byte is ever in neither count.
    Closes `fd` at the end."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._taken = 0
        self._open = True
        os.set_blocking(fd, False)

    def position(self) -> int:
        """Bytes written into the pipe so far: taken out, plus still in it."""
        with self._lock:
            if not self._open:
                return self._taken
            try:
                waiting = fcntl.ioctl(self._fd, termios.FIONREAD, b"\0\0\0\0")
            except OSError:
                return self._taken
            return self._taken + int.from_bytes(waiting, "little")

    def __iter__(self) -> Iterator[bytes]:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        try:
            while True:
                poller.poll()  # without the lock: `position` never waits for the bot
                with self._lock:
                    try:
                        data = os.read(self._fd, _CHUNK)
                    except BlockingIOError:
                        continue
                    except OSError:
                        return
                    if not data:
                        return
                    self._taken += len(data)
                yield data
        finally:
            with self._lock:
                self._open = False
                os.close(self._fd)


class CappedLog:
    """Copies chunks from `source` into `path` on a daemon thread, up to `limit` bytes."""

    def __init__(self, source: Iterable[bytes], path: str, limit: int,
                 on_close: Callable[[], None] | None = None) -> None:
        self.path = path
        self.limit = limit
        self.kept = 0
        self.dropped = 0
        self._source = source
        self._seen = 0  # bytes taken from `source` so far (kept or dropped)
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
                    self._seen += len(chunk)
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

    def position(self) -> int:
        """Where the bot's output stands now, in bytes of its stream (the
        module's docstring: a decision's lines start there)."""
        source = self._source
        if isinstance(source, PipeSource):
            return source.position()
        return self._seen

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the source to end; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()
