"""A one-line progress display: done/total, rate, ETA, current leader.

On a terminal the line is redrawn in place; otherwise (CI logs, pipes) a line
is printed every 10% so logs stay short. The CLI owns the stream; this module
only formats.
"""

from __future__ import annotations

import time
from typing import TextIO


def format_duration(seconds: float) -> str:
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def render(done: int, total: int, rate_per_min: float, eta: float | None,
           leader: str, width: int = 24) -> str:
    share = done / total if total else 1.0
    filled = int(share * width)
    bar = "#" * filled + "-" * (width - filled)
    eta_text = "--:--" if eta is None else format_duration(eta)
    line = (f"[{bar}] {done}/{total} matches  {rate_per_min:.1f}/min  ETA {eta_text}")
    return line + (f"  leader: {leader}" if leader else "")


class Progress:
    def __init__(self, total: int, done: int, stream: TextIO | None) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._stream = stream
        self._start = time.monotonic()
        self._tty = bool(stream is not None and stream.isatty())
        self._next_report = done
        self._last_len = 0

    def update(self, done: int, leader: str = "") -> None:
        self.done = done
        if self._stream is None:
            return
        if not self._tty and done < self._next_report and done < self.total:
            return
        self._next_report = done + max(1, self.total // 10)
        elapsed = time.monotonic() - self._start
        played = done - self._start_done
        rate = played / elapsed * 60 if elapsed > 0 and played else 0.0
        eta = (self.total - done) / (rate / 60) if rate else None
        line = render(done, self.total, rate, eta, leader)
        if self._tty:
            pad = max(0, self._last_len - len(line))
            self._stream.write("\r" + line + " " * pad)
            self._last_len = len(line)
        else:
            self._stream.write(line + "\n")
        self._stream.flush()

    def close(self) -> None:
        if self._stream is not None and self._tty:
            self._stream.write("\n")
            self._stream.flush()
