"""A bot's-eye view of one decision: what the referee sent the seat, what
came back, the clock, and the lines the bot printed meanwhile.

    view = decision_view(replay, seat=1, n=57, marks=read_marks(p), log=data)

The observation and the legal actions are re-built by the engine from the
replay at that decision (the game re-played to action `n`), encoded as the
referee encodes them (arena.wire.codec): the bytes of `observation_bytes`
are the Observation of that DecisionRequest (tests/referee/test_botseye.py
compares them with what a bot received over gRPC). Only the acting seat's
observation is ever built: a view of seat 1 is seat 1's decision or nothing.

The view (JSON data):

    n, seat, deal, phase   the action's number in the replay, its seat, its deal
    seq                    the request's seq (None: no marks kept)
    sent                   True: a request went out; False: none (the seat had
                           forfeited: its default action played); None: unknown
    observation            the Observation as the bot read it (codec.observation_from_pb)
    legal                  the legal actions' texts, in the request's order
    reply, fault, note     the action played, its fault kind and line (if any)
    time, cpu              seconds the reply took; CPU seconds (None where not measured)
    per_move, limit, bank  the clock: per-move time, the request's time limit
                           (per-move + bank) and the bank left (limit, bank:
                           None without marks)
    lines, cut, relayed    the bot's output between this request and the next
                           (None without a kept log), whether part of it was past
                           the log's cap, whether the stream was relayed (docker)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.game import GameState
from arena.referee.marks import Marks, lines_of
from arena.referee.replay import Replay, ReplayError, replay_states
from arena.wire import codec


class DecisionError(LookupError):
    """No such decision of that seat in the replay; says which."""


def request_observation(game: GameState, seat: int) -> bytes:
    """The serialized Observation of `seat` that a DecisionRequest at `game`
    carries: the engine's observation, encoded by the wire's codec."""
    return codec.observation_to_pb(game.observation(seat).as_mapping()).SerializeToString()


States = Iterable[tuple[GameState, dict[str, Any] | None]]


def decision_at(replay: Replay, n: int, states: States | None = None,
                ) -> tuple[GameState, dict[str, Any]]:
    """The game before action `n` and its record; DecisionError if none.
    `states` (default: `replay_states(replay)`) lets a test re-play the
    records on another first deal."""
    if not 0 <= n < len(replay.actions):
        raise DecisionError(f"{replay.path}: no action {n} (the match has {len(replay.actions)})")
    for index, (game, rec) in enumerate(replay_states(replay) if states is None else states):
        if index == n and rec is not None:
            return game, rec
    raise ReplayError(f"{replay.path}: action {n} does not re-play")


def decision_view(replay: Replay, seat: int, n: int, marks: Marks | None = None,
                  log: bytes | None = None, states: States | None = None) -> dict[str, Any]:
    """Decision `n` as seat `seat` met it (the module's docstring)."""
    game, rec = decision_at(replay, n, states)
    if int(rec["seat"]) != seat:
        raise DecisionError(f"action {n} is seat {rec['seat']}'s decision, not seat {seat}'s")
    raw = request_observation(game, seat)
    observation = codec.observation_from_pb(codec.pb.Observation.FromString(raw))
    index = marks.find(n) if marks is not None else None
    mark = marks.decisions[index] if marks is not None and index is not None else None
    lines = lines_of(log, marks, index) if (log is not None and marks is not None
                                            and index is not None) else None
    control = replay.header.get("seat_time_controls", {}).get(str(seat)) \
        or replay.header.get("time_control") or {}
    return {
        "n": n, "seat": seat, "deal": rec.get("deal"), "phase": observation.get("phase"),
        "seq": mark.seq if mark is not None else None,
        "sent": None if marks is None else mark is not None,
        "observation": observation,
        "observation_bytes": raw.hex(),
        "legal": [str(a) for a in game.legal_actions()],
        "reply": rec["action"], "fault": rec.get("fault"), "note": rec.get("note") or None,
        "time": rec.get("time"), "cpu": rec.get("cpu"),
        "per_move": control.get("per_move"),
        "limit": round(mark.limit, 6) if mark is not None else None,
        "bank": round(mark.bank, 6) if mark is not None else None,
        "lines": lines.text.decode("utf-8", errors="replace") if lines is not None else None,
        "cut": lines.cut if lines is not None else False,
        "relayed": marks.relayed if marks is not None else False,
    }
