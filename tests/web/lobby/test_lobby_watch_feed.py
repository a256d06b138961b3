"""The spectators' feeds (arena.web.lobby.watch): frames made from the
engine's public view only, a repeat skipped, a late watcher given the last
view and the end, and the bounds on watchers."""

from __future__ import annotations

import json
import random

import pytest

from arena.game import Rules, new_game
from arena.web.lobby.watch import BACKLOG, Watching, WatchRefused
from arena.web.views import public_view


def _game_views(seed: int) -> list[object]:
    rng = random.Random(seed)
    g = new_game(Rules.preset("standard").replace(max_deals=1), seed=seed)
    out = [g.public_observation()]
    while not g.is_over:
        g = g.apply(rng.choice(g.legal_actions()))
        out.append(g.public_observation())
    return out


def test_frames_are_the_public_views_and_a_repeat_makes_none() -> None:
    watching = Watching()
    feed, w = watching.join("g1")
    feed.names = ["ann", "greedy", "random"]
    views = _game_views(3)
    for obs in views:
        feed.tell(obs)  # type: ignore[arg-type]
        feed.tell(obs)  # type: ignore[arg-type]  # the same view again (an offer declined): no frame
    frames = [json.loads(w.queue.get_nowait()) for _ in range(w.queue.qsize())]
    assert [f["n"] for f in frames] == list(range(1, len(frames) + 1))
    assert len(frames) == len(views)
    for frame, obs in zip(frames, views, strict=True):
        assert frame["type"] == "view" and frame["names"] == ["ann", "greedy", "random"]
        assert frame["view"] == json.loads(json.dumps(public_view(obs.as_mapping())))  # type: ignore[attr-defined]
        assert frame["view"]["hands"] == [None, None, None] and frame["view"]["viewer"] == "public"


def test_public_view_refuses_a_seat_s_observation() -> None:
    g = new_game(Rules.preset("standard"), seed=1)
    with pytest.raises(ValueError, match="seat 0's observation, not the public view"):
        public_view(g.observation(0).as_mapping())


def test_a_late_watcher_gets_the_last_view_and_the_end_and_the_feed_goes() -> None:
    watching = Watching()
    feed = watching.feed("g1")
    views = _game_views(4)
    for obs in views[:-3]:
        feed.tell(obs)  # type: ignore[arg-type]
    assert feed.n == 0 and not feed.last  # nobody watches: no frame is made
    _, early = watching.join("g1")
    for obs in views[-3:]:
        feed.tell(obs)  # type: ignore[arg-type]
    watching.leave(feed, early)
    _, late = watching.join("g1")
    first = json.loads(late.queue.get_nowait())
    assert first["n"] == feed.n >= 2 and late.queue.empty()
    assert first["view"] == json.loads(json.dumps(public_view(views[-1].as_mapping())))  # type: ignore[attr-defined]
    watching.finish("g1", {"status": "finished", "replay": "/lobby/game/g1/replay.jsonl"})
    assert json.loads(late.queue.get_nowait())["type"] == "over"
    assert "g1" in watching.feeds  # watched still
    watching.leave(feed, late)
    assert "g1" not in watching.feeds
    watching.finish("g2", {"status": "failed"})  # over with nobody watching: nothing kept
    assert "g2" not in watching.feeds


def test_watchers_are_bounded_per_game_and_in_all() -> None:
    watching = Watching(per_game=2, total=3)
    watching.join("a")
    watching.join("a")
    with pytest.raises(WatchRefused, match="game a has 2 watchers already \\(at most 2 at once\\)"):
        watching.join("a")
    feed, w = watching.join("b")
    with pytest.raises(WatchRefused, match="this server has 3 watchers already"):
        watching.join("c")
    watching.leave(feed, w)
    watching.join("c")


def test_a_watcher_that_does_not_read_is_let_go() -> None:
    watching = Watching()
    feed, w = watching.join("g")
    views = _game_views(5)
    for i in range(BACKLOG + 1):
        feed.last_view = ""  # a new view each time
        feed.tell(views[i % len(views)])  # type: ignore[arg-type]
    assert w.dropped and w.queue.qsize() == BACKLOG


def test_every_stream_is_told_when_the_server_stops() -> None:
    from arena.web.lobby.watch import CLOSED

    watching = Watching()
    streams = [watching.join(g)[1] for g in ("a", "a", "b")]
    watching.close()
    assert [w.queue.get_nowait() for w in streams] == [CLOSED] * 3
