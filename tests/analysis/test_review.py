""""Review this game" (arena/web/review.py): a seat's review runs in a
process of its own, is kept beside the replay, equals `arena analyze
--seat-view` of that seat, and a server refuses more than its limit at once."""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path

import pytest

from arena.analysis.replay import Settings, analyse, dumps
from arena.game import Rules
from arena.referee.replay import read_replay
from arena.web.review import ReviewRefused, Reviews, read_report, report_path

from .games import play_replay

pytestmark = pytest.mark.slow  # a spawned process of its own


def _replay(folder: Path, name: str = "m1.jsonl") -> Path:
    path = folder / name
    play_replay(path, Rules.preset("standard").replace(max_deals=1), seed=8)
    return path


def _wait(reviews: Reviews, replay: Path, seat: int) -> str:
    for _ in range(1200):
        status = reviews.status(replay, seat)
        assert status is not None
        if status.state in ("done", "failed"):
            return status.state
        time.sleep(0.1)
    raise AssertionError("the review did not end within 120 s")


def test_a_review_is_the_seats_view_analysis_kept_beside_the_replay(tmp_path: Path) -> None:
    replay = _replay(tmp_path)
    reviews = Reviews(work=4)
    try:
        assert reviews.status(replay, 1) is None
        assert reviews.start(replay, 1).state == "queued"
        assert reviews.start(replay, 1).state in ("queued", "running", "done")  # not a second job
        assert _wait(reviews, replay, 1) == "done"
    finally:
        reviews.close()
    expected = analyse(read_replay(replay), 1, Settings(work=4, open_hand=False))
    assert report_path(replay, 1).read_text(encoding="utf-8") == dumps(expected)
    assert read_report(replay, 1) == json.loads(dumps(expected))
    assert not list(tmp_path.glob("*.progress")) and not list(tmp_path.glob("*.part"))
    # Another server (or the same after a restart) finds it kept, and starts nothing.
    again = Reviews(work=4)
    status = again.start(replay, 1)
    assert status.state == "done" and status.report == read_report(replay, 1)
    assert not again.busy()
    again.close()


def test_a_review_that_cannot_be_made_fails_in_one_line(tmp_path: Path) -> None:
    replay = tmp_path / "broken.jsonl"
    replay.write_text('{"type": "header"}\n', encoding="utf-8")
    reviews = Reviews(work=2)
    try:
        reviews.start(replay, 0)
        assert _wait(reviews, replay, 0) == "failed"
        status = reviews.status(replay, 0)
        assert status is not None and status.error and "\n" not in status.error
        assert str(replay.name) in status.error or "replay" in status.error
        assert not report_path(replay, 0).exists()
    finally:
        reviews.close()


def test_past_the_limit_a_review_is_refused_and_close_stops_the_one_running(tmp_path: Path) -> None:
    replays = [_replay(tmp_path, f"m{i}.jsonl") for i in range(3)]
    reviews = Reviews(work=64, pending_limit=2)
    try:
        reviews.start(replays[0], 0)
        reviews.start(replays[1], 0)
        with pytest.raises(ReviewRefused, match="2 reviews are under way"):
            reviews.start(replays[2], 0)
        assert reviews.status(replays[2], 0) is None          # nothing was queued
    finally:
        reviews.close()
    assert multiprocessing.active_children() == []            # the running one was stopped
    for r in replays[:2]:  # whole or not at all
        assert read_report(r, 0) is not None or not report_path(r, 0).exists()
    with pytest.raises(ReviewRefused, match="stopping"):
        reviews.start(replays[2], 0)


def test_a_failed_review_names_the_replay_not_the_servers_folder(tmp_path: Path) -> None:
    """A 2-player game cannot be analysed: its review fails, and the line the
    seat's page shows names the replay's file only (it used to show the
    absolute path where the server keeps its replays)."""
    replay = tmp_path / "two.jsonl"
    play_replay(replay, Rules.preset("standard").replace(players=2, max_deals=1), seed=8)
    reviews = Reviews(work=2)
    try:
        reviews.start(replay, 0)
        assert _wait(reviews, replay, 0) == "failed"
        status = reviews.status(replay, 0)
        assert status is not None
        assert status.error.startswith("two.jsonl: the 2-player forms cannot be analysed"), status.error
        assert str(tmp_path) not in status.error
    finally:
        reviews.close()
