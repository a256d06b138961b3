"""Decision marks: where in a seat's log each decision request went out.

Before each request the referee notes how far the bot's output stream has
got (`CappedLog.position()`, arena/sandbox/logcap.py): the lines of
decision k are the stream's bytes from its mark to the next one's. The
marks are the referee's own index, kept in a file beside the log
(`<log name minus .log>.marks.json`), never text in the stream: a bot that
prints `--- arena decision 7 ---` prints text of its own decision, and moves
no mark. Each mark also holds the clock as the request gave it (the time
limit and the bank left), which the replay does not.

A mark file:

    {"version": 1, "seat": 0, "cap": 1000000, "end": 5123, "relayed": false,
     "decisions": [{"n": 3, "seq": 1, "at": 0, "limit": 11.0, "bank": 10.0}, ...]}

  n        the replay's action number this decision played
  seq      the request's seq (the bot's n-th request)
  at       stream bytes the bot had written before the request went out
  end      stream bytes at the end of the match (kept or not)
  cap      bytes kept in the log file (the rest discarded, limits.log_bytes)
  relayed  true at the docker level: the daemon relays the stream, so a
           line printed just before a reply may arrive after the next mark
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

MARKS_SUFFIX = ".marks.json"
MARKS_VERSION = 1


class MarksError(ValueError):
    """A mark file that cannot be read; names the file."""


@dataclass(frozen=True)
class Mark:
    n: int
    seq: int
    at: int
    limit: float
    bank: float


@dataclass(frozen=True)
class Marks:
    seat: int
    cap: int
    end: int
    relayed: bool
    decisions: tuple[Mark, ...]

    def find(self, n: int) -> int | None:
        """The index in `decisions` of the mark of action `n`, or None."""
        for i, mark in enumerate(self.decisions):
            if mark.n == n:
                return i
        return None


def marks_path(log_path: str | Path) -> Path:
    """The mark file beside the log at `log_path`."""
    p = Path(log_path)
    return p.with_name(p.name.removesuffix(".log") + MARKS_SUFFIX)


def write_marks(path: str | Path, marks: Marks) -> None:
    """Write `marks` to `path` whole or not at all (a part file renamed)."""
    data = {"version": MARKS_VERSION, "seat": marks.seat, "cap": marks.cap, "end": marks.end,
            "relayed": marks.relayed, "decisions": [asdict(m) for m in marks.decisions]}
    target = Path(path)
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    part.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    os.replace(part, target)


def read_marks(path: str | Path) -> Marks:
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("version") != MARKS_VERSION:
            raise MarksError(f"{Path(path).name}: not a version {MARKS_VERSION} mark file")
        decisions = tuple(Mark(n=int(d["n"]), seq=int(d["seq"]), at=int(d["at"]),
                               limit=float(d["limit"]), bank=float(d["bank"]))
                          for d in data["decisions"])
        return Marks(seat=int(data["seat"]), cap=int(data["cap"]), end=int(data["end"]),
                     relayed=bool(data["relayed"]), decisions=decisions)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
            ValueError) as exc:
        if isinstance(exc, MarksError):
            raise
        raise MarksError(f"{Path(path).name}: cannot read the decision marks: {exc}") from None


@dataclass(frozen=True)
class Lines:
    """A decision's share of the log: `text` (the bytes kept of it), and
    whether some of it was past the log's cap (`cut`)."""

    text: bytes
    cut: bool


def lines_of(log: bytes, marks: Marks, index: int) -> Lines:
    """The bytes the bot wrote between decision `index`'s mark and the
    next one's (the match's end for the last), as far as the log kept them."""
    start = marks.decisions[index].at
    stop = marks.decisions[index + 1].at if index + 1 < len(marks.decisions) else marks.end
    kept = min(marks.cap, len(log))
    return Lines(text=log[min(start, kept):min(stop, kept)], cut=stop > kept)
