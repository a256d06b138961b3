""""Review this game": the analysis of a person's seat after a game
(docs/analysis.md), asked from the end-of-game panel of a seat's page.

    reviews = Reviews(work=32)
    status = reviews.start(replay_path, seat)        # or ReviewRefused (busy)
    status = reviews.status(replay_path, seat)       # queued / running / done / failed

A review is `arena analyze REPLAY --seat N --seat-view`: built from what
that seat knew only (no open-hand line), so it says nothing of the other
seats' cards beyond what the seat saw; the server only offers it once the
game is over. Its report is kept beside the replay, `NAME.review-sN.json`
(written whole: a stopped server leaves none half written), where the
replay player of `arena serve` finds it (its graph under the table).

A review is seconds of CPU. One runs at a time, in a process of its own
(spawned: the server's process holds a referee's gRPC threads, which a
fork must not copy), and at most `pending_limit` wait; past that a start
is refused with a line to try again later. Progress reaches the page by a
small file the worker rewrites after each decision.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from arena.web.filenames import file_names

WORK = 32            # deals per decision: the analysis default
PENDING_LIMIT = 4    # reviews queued or running at once, per server


class ReviewRefused(RuntimeError):
    """A review that cannot start now; says why and when to try again."""


@dataclass(frozen=True)
class Status:
    state: str                   # "queued" | "running" | "done" | "failed"
    done: int = 0                # decisions of the seat gone through (running)
    total: int = 0
    report: dict[str, Any] | None = None   # done
    error: str = ""              # failed


def report_path(replay: Path, seat: int) -> Path:
    """Where the review of `seat` of `replay` is kept: beside the replay."""
    return replay.with_name(f"{replay.stem}.review-s{seat}.json")


def _progress_path(replay: Path, seat: int) -> Path:
    return replay.with_name(f"{replay.stem}.review-s{seat}.progress")


def _write_whole(path: Path, text: str) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def run_review(replay: str, seat: int, work: int) -> str:
    """The worker's job: analyse the seat, keep the report; "" or the
    one-line reason it could not."""
    from arena.analysis.errors import AnalysisError
    from arena.analysis.replay import Settings, analyse, dumps
    from arena.referee.replay import ReplayError, read_replay

    path = Path(replay)
    progress = _progress_path(path, seat)

    def tell(done: int, total: int) -> None:
        _write_whole(progress, f"{done} {total}")

    try:
        report = analyse(read_replay(path), seat, Settings(work=work, open_hand=False), tell)
    except (AnalysisError, ReplayError, OSError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    _write_whole(report_path(path, seat), dumps(report))
    progress.unlink(missing_ok=True)
    return ""


def read_report(replay: Path, seat: int) -> dict[str, Any] | None:
    """The kept review of the seat, None if there is none (or it is damaged)."""
    try:
        data = json.loads(report_path(replay, seat).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("seat") == seat else None


@dataclass
class _Job:
    replay: Path
    seat: int
    state: str = "queued"        # queued | running | failed (done: its report is kept)
    error: str = ""


def _child(replay: str, seat: int, work: int, answer: Connection) -> None:
    answer.send(run_review(replay, seat, work))
    answer.close()


class Reviews:
    """The reviews one server runs (module docstring), one at a time in a
    spawned process, by a thread of their own. Thread-safe: the routes call
    it from the event loop."""

    def __init__(self, work: int = WORK, pending_limit: int = PENDING_LIMIT) -> None:
        self.work = work
        self.pending_limit = pending_limit
        self._lock = threading.Lock()
        self._jobs: dict[tuple[Path, int], _Job] = {}
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._process: BaseProcess | None = None
        self._closed = False

    def status(self, replay: Path, seat: int) -> Status | None:
        """The seat's review: kept, in the works, failed; None if never asked."""
        report = read_report(replay, seat)
        if report is not None:
            return Status("done", report=report)
        with self._lock:
            job = self._jobs.get((replay, seat))
        if job is None:
            return None
        if job.state == "running":
            done, total = _read_progress(_progress_path(replay, seat))
            return Status("running", done, total)
        return Status(job.state, error=job.error)

    def start(self, replay: Path, seat: int) -> Status:
        """Start the seat's review unless it is kept or under way (then its
        status); ReviewRefused when `pending_limit` are under way already."""
        current = self.status(replay, seat)
        if current is not None and current.state != "failed":
            return current
        with self._lock:
            if self._closed:
                raise ReviewRefused("the server is stopping")
            busy = sum(1 for job in self._jobs.values() if job.state in ("queued", "running"))
            if busy >= self.pending_limit:
                raise ReviewRefused(f"{busy} reviews are under way on this server (at most "
                                    f"{self.pending_limit}); ask again in a minute")
            job = self._jobs[(replay, seat)] = _Job(replay, seat)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="reviews", daemon=True)
                self._thread.start()
        self._queue.put(job)
        return Status("queued")

    def busy(self) -> bool:
        """A review is queued or running."""
        with self._lock:
            return any(job.state in ("queued", "running") for job in self._jobs.values())

    def _work(self) -> None:
        context = multiprocessing.get_context("spawn")
        while (job := self._queue.get()) is not None:
            receive, send = context.Pipe(duplex=False)
            with self._lock:
                if self._closed:
                    return
                job.state = "running"
                process = self._process = context.Process(
                    target=_child, args=(str(job.replay), job.seat, self.work, send), daemon=True)
                process.start()
            send.close()
            process.join()
            try:
                reason = receive.recv() if receive.poll() else ""
            except EOFError:  # it ended before answering: stopped, or killed
                reason = ""
            receive.close()
            reason = reason or f"the review's process ended with status {process.exitcode}"
            # The page shows it to the network: the file's name, not where
            # the server keeps it (a replay's errors begin with its path).
            reason = file_names(reason)
            with self._lock:
                self._process = None
                if read_report(job.replay, job.seat) is not None:
                    del self._jobs[(job.replay, job.seat)]  # kept: status reads the report
                else:
                    job.state, job.error = "failed", reason or "the review kept no report"

    def close(self) -> None:
        """Stop: a review under way is dropped (none is half kept), the queued ones too."""
        with self._lock:
            self._closed = True
            process, thread = self._process, self._thread
        if process is not None:
            process.terminate()
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=30)


def _read_progress(path: Path) -> tuple[int, int]:
    try:
        done, total = path.read_text(encoding="utf-8").split()
        return int(done), int(total)
    except (OSError, ValueError):
        return 0, 0
