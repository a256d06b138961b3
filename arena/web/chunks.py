"""A long match's player data a few deals at a time.

A 200-deal replay re-played whole is seconds of engine work and megabytes
of steps before the player can draw its first position. For a match of more
than LONG deals the player's page carries only the start: the match, every
deal's result, the result, and the steps of its first FIRST deals; the
player asks for the next deals when it needs them:

    start = start_part(cursor, viewer)           # {..., steps, more: 3}
    part = deals_part(cursor, viewer, 3)         # {from: 3, steps, more: 13}

Each part's steps are those `player.build_steps` builds for its actions
(the first one a whole view, the rest deltas), so the steps a player holds
once it has every part are the ones `player_data` serves, bar the first
step of each part, which is whole (tests/web/test_chunks.py). A
`Cursor` re-plays the records forward once and keeps the game at the start
of each deal it passed, so a later part re-plays from its deal's start, not
from the match's; a damaged record is the ReplayError of the part that
reaches it.
"""

from __future__ import annotations

import threading
from typing import Any

from arena.game import GameState, new_game, parse_action
from arena.referee.replay import Replay, ReplayError
from arena.web.player import build_steps, match_part

LONG = 24      # deals: a match with more is served in parts
FIRST = 2      # deals in the first part (the page itself)
PART = 10      # deals in each later part


def is_long(replay: Replay) -> bool:
    return len(replay.deals) > LONG


class Cursor:
    """The games of one replay at the start of each of its deals."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self._lock = threading.Lock()
        try:
            game = new_game(replay.rules, seed=replay.seed)
        except ValueError as exc:
            raise ReplayError(f"{replay.path}: header does not make a game: {exc}") from None
        # deal number -> (index of its first action, the game before it)
        self._starts: dict[int, tuple[int, GameState]] = {game.deal_number: (0, game)}
        self._frontier = (0, game)
        self._done = not replay.actions

    def _apply(self, i: int, game: GameState) -> GameState:
        rec = self.replay.actions[i]
        try:
            if game.to_act != rec["seat"]:
                raise ValueError(f"seat {rec['seat']} acts, but seat {game.to_act} is to act")
            return game.apply(parse_action(rec["action"]))
        except (ValueError, KeyError) as exc:
            lines = self.replay.action_lines
            where = f":{lines[i]}" if i < len(lines) else ""
            raise ReplayError(f"{self.replay.path}{where}: action {rec.get('n')}: {exc}") from None

    def _reach(self, deal: int) -> None:
        """Walk forward until the start of `deal` is known (or the end)."""
        i, game = self._frontier
        while not self._done and deal not in self._starts:
            game = self._apply(i, game)
            i += 1
            if i >= len(self.replay.actions):
                self._done = True
            if game.deal_number not in self._starts and not self._done:
                self._starts[game.deal_number] = (i, game)
            self._frontier = (i, game)

    def span(self, first: int, count: int) -> tuple[list[tuple[GameState, dict[str, Any] | None]], int | None]:
        """The games and records of deals first .. first+count-1 (each game
        before its record; last the game after the span's last action, with
        no record), and the deal after the span (None: the match's end)."""
        with self._lock:
            self._reach(first)
            if first not in self._starts:
                raise ReplayError(f"{self.replay.path}: no deal {first} in this replay")
            start, game = self._starts[first]
            self._reach(first + count)
        stop = self._starts[first + count][0] if first + count in self._starts else len(self.replay.actions)
        seq: list[tuple[GameState, dict[str, Any] | None]] = []
        for i in range(start, stop):
            seq.append((game, self.replay.actions[i]))
            game = self._apply(i, game)
        seq.append((game, None))
        more = first + count if first + count in self._starts else None
        return seq, more


def start_part(cursor: Cursor, viewer: int | None) -> dict[str, Any]:
    """The first page's data: the match, every deal's result, the result,
    the steps of the first FIRST deals and `more`, the deal to ask next."""
    data = match_part(cursor.replay, viewer)
    seq, more = cursor.span(_first_deal(cursor), FIRST)
    data["steps"] = build_steps(seq, viewer, include_start=True)
    data["more"] = more
    return data


def deals_part(cursor: Cursor, viewer: int | None, first: int) -> dict[str, Any]:
    """The steps of deals first .. first+PART-1 and the deal to ask next."""
    match_part(cursor.replay, viewer)  # a seat that is not one of the match's: ReplayError
    if first <= _first_deal(cursor):
        raise ReplayError(f"{cursor.replay.path}: deal {first} is in the first part")
    seq, more = cursor.span(first, PART)
    return {"from": first, "steps": build_steps(seq, viewer, include_start=False), "more": more}


def _first_deal(cursor: Cursor) -> int:
    return min(cursor._starts)
