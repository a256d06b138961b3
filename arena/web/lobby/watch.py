"""Spectators of the lobby's games: the public view of each table, live.

The referee tells a game's `Feed` the engine's public view of the table
after every action (`play_match(watch=...)`, arena/referee/loop.py): what
anyone watching may know, never a seat's view. The feed makes each one a
frame (`{"type": "view", "n": N, "names": [...], "view": V}`, V the web's
public view, arena/web/views.py `public_view`; the seats' names as the
lobby lists them) and hands it to every watcher's queue; an
action that changes nothing a watcher may know (a private offer declined,
docs/rules.md#private-offers) makes no frame, so the frames of two tables
with the same public story are the same bytes. When the game is over, one
more frame, `{"type": "over", ...}`, links the all-cards replay (served
only then, routes.py).

Anyone who reaches the lobby may watch, so watching is bounded: at most
PER_GAME watchers of one game and TOTAL of all games at once (each holds a
connection and a queue on the loop that runs the referees), and one address
may open at most OPENS_PER_MINUTE streams a minute (routes.py). A watcher
whose queue is full (it does not read) is let go.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from arena.game import Rules
from arena.game.observation import Observation
from arena.web.views import public_view

PER_GAME = 32
TOTAL = 256
OPENS_PER_MINUTE = 30
# Frames a watcher may fall behind by before it is let go: a game of bots
# plays hundreds of actions a second, a reader that keeps up drains them.
BACKLOG = 4096


def dumps(frame: object) -> str:
    """One frame as compact, key-sorted JSON: equal frames are equal text."""
    return json.dumps(frame, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


# Sent to every watcher as the server stops (its stream then ends).
CLOSED = '{"type":"closed","why":"the server is stopping"}'


class WatchRefused(Exception):
    """Too many watchers; says which bound and its number."""


class Watcher:
    """One open stream: the frames it has still to send."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(BACKLOG)
        self.dropped = False    # it fell BACKLOG frames behind: let go

    def put(self, frame: str) -> None:
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped = True


class Feed:
    """One game's frames: the last view (for a watcher that comes in late),
    the end, and the watchers to tell."""

    def __init__(self, game_id: str, rules: Rules | None) -> None:
        self.game_id = game_id
        self.rules = rules
        self.n = 0
        self.last_view = ""     # the view part of the last frame, to skip a repeat
        self.last = ""          # the last frame
        self.end = ""           # the "over" frame, once the game is over
        self.watchers: set[Watcher] = set()
        self.names: list[str] = []  # the seats' names as the game is played (a bot in a seat nobody took)
        self.pending: Observation | None = None  # the last position, told while nobody watched

    def tell(self, obs: Observation) -> None:
        """A position's public view (the referee calls this after each action).
        With nobody watching it is only kept: the frame, some 2-15 engine
        steps of JSON (benchmarks/watch.py), is made when a watcher comes."""
        if not self.watchers:
            self.pending = obs
            return
        self.pending = None
        self._frame(obs)

    def catch_up(self) -> None:
        """The frame of the position kept while nobody watched, if any."""
        if self.pending is not None:
            obs, self.pending = self.pending, None
            self._frame(obs)

    def _frame(self, obs: Observation) -> None:
        view = dumps(public_view(obs.as_mapping(), self.rules))
        if view == self.last_view:
            return
        self.last_view = view
        self.n += 1
        self.last = f'{{"n":{self.n},"names":{dumps(self.names)},"type":"view","view":{view}}}'
        for w in self.watchers:
            w.put(self.last)

    def finish(self, frame: Mapping[str, Any]) -> None:
        self.end = dumps({"type": "over", **frame})
        for w in self.watchers:
            w.put(self.end)


class Watching:
    """Every game's feed and every watcher, with the bounds on watchers."""

    def __init__(self, per_game: int = PER_GAME, total: int = TOTAL) -> None:
        self.per_game = per_game
        self.total = total
        self.feeds: dict[str, Feed] = {}

    def feed(self, game_id: str, rules: Rules | None = None) -> Feed:
        """The game's feed (made by its first watcher, or as it starts:
        `rules` then gives the views their public marks, the barrel lock)."""
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = Feed(game_id, rules)
        elif rules is not None:
            feed.rules = rules
        return feed

    def finish(self, game_id: str, frame: Mapping[str, Any]) -> None:
        """The game is over: its watchers are told; a watcher that comes
        later is told by the lobby from its store (routes), so the feed goes
        once nobody watches."""
        feed = self.feed(game_id)
        feed.finish(frame)
        if not feed.watchers:
            del self.feeds[game_id]

    def count(self) -> int:
        return sum(len(f.watchers) for f in self.feeds.values())

    def join(self, game_id: str) -> tuple[Feed, Watcher]:
        """A new watcher of `game_id`, given the frames so far that it needs
        (the last view, the end); WatchRefused over a bound."""
        feed = self.feed(game_id)
        if len(feed.watchers) >= self.per_game:
            raise WatchRefused(f"game {game_id} has {len(feed.watchers)} watchers already "
                               f"(at most {self.per_game} at once): try again later")
        if self.count() >= self.total:
            raise WatchRefused(f"this server has {self.total} watchers already (at most "
                               f"{self.total} at once over all games): try again later")
        w = Watcher()
        feed.catch_up()
        for frame in (feed.last, feed.end):
            if frame:
                w.put(frame)
        feed.watchers.add(w)
        return feed, w

    def close(self) -> None:
        """The server stops: every stream is told so, and ends."""
        for feed in self.feeds.values():
            for w in feed.watchers:
                w.put(CLOSED)

    def leave(self, feed: Feed, w: Watcher) -> None:
        feed.watchers.discard(w)
        if feed.end and not feed.watchers and self.feeds.get(feed.game_id) is feed:
            del self.feeds[feed.game_id]
