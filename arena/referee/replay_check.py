"""Does a match's replay re-play to the result it came with?

The engine deals from the replay's seed (new_game) and applies each
recorded action (replay.replay_states): an action that is not legal there,
or a seat acting out of turn, stops it. The deals' results the engine
computes (game.deals, the records the referee passes on as they are), the
totals and the places (spec.finish_places, the referee's own) must be
those the replay and the result record.

Two readers: `arena verify` (a published bundle's every replay,
arena/verify/replays.py) and the Dask coordinator (every result a worker
of another machine sends back, before it is stored:
arena/tournament/executors/honest.py). Both ask the same questions with this code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from arena.game.records import DealRecord
from arena.referee.replay import Replay, ReplayError, replay_states
from arena.referee.spec import MatchResult, finish_places

_DEAL_FIELDS = tuple(DealRecord.__dataclass_fields__)


class ReplayMismatch(ValueError):
    """A replay that does not re-play to its result: names the match, and
    the deal and decision where it is known."""


def check_replay(replay: Replay, result: MatchResult, *, match_id: str,
                 bots: Sequence[tuple[str, str]], rules: dict[str, Any],
                 seed: int | None, seed_source: str = "the tournament seed gives") -> Any:
    """Re-play `replay` and compare it with `result`, the match `match_id`
    between `bots` ((name, content hash) by seat) under `rules` (every
    option, as a replay header has them) dealt from `seed` (None: not
    known to the caller, only the replay's and the result's are compared).
    Returns the final game; ReplayMismatch at the first difference."""
    where = f"match {match_id}"
    h = replay.header
    if h.get("match_id") != match_id:
        raise ReplayMismatch(f"{where}: its replay file holds match {h.get('match_id')}")
    if result.match_id != match_id:
        raise ReplayMismatch(f"{where}: its result is of match {result.match_id}")
    for seat, (name, content_hash) in enumerate(bots):
        entry = h["bots"][seat] if seat < len(h["bots"]) else {}
        if (entry.get("name"), entry.get("content_hash")) != (name, content_hash):
            raise ReplayMismatch(
                f"{where}: seat {seat} of its replay is {entry.get('name')} "
                f"{str(entry.get('content_hash'))[:12]}, the schedule's is {name} "
                f"{content_hash[:12]}")
    if h["rules"] != rules:
        key = next((k for k in sorted(set(rules) | set(h["rules"]))
                    if rules.get(k) != h["rules"].get(k)), "?")
        raise ReplayMismatch(
            f"{where}: its replay's rules are not the tournament's (option {key!r}: "
            f"{h['rules'].get(key)!r}, the settings give {rules.get(key)!r})")
    if replay.seed != result.seed:
        raise ReplayMismatch(f"{where}: its replay is dealt from seed {replay.seed}, its result "
                             f"says {result.seed}")
    if seed is not None and replay.seed != seed:
        raise ReplayMismatch(f"{where}: its replay is dealt from seed {replay.seed}, not the one "
                             f"{seed_source} ({seed}): other cards than the tournament's")
    game: Any = None
    last: dict[str, Any] | None = None
    try:
        for state, rec in replay_states(replay):
            game, last = state, rec
    except ReplayError as exc:
        at = f", deal {last.get('deal')}, decision {last.get('n')}" if last else ""
        raise ReplayMismatch(f"{where}{at}: {exc}") from None
    _deals(where, list(game.deals), replay.deals, result.deals)
    _outcome(where, game, replay.result, result)
    return game


def _deals(where: str, played: list[DealRecord], recorded: list[dict[str, Any]],
           resulted: tuple[DealRecord, ...]) -> None:
    if len(recorded) != len(played):
        raise ReplayMismatch(f"{where}: its replay records {len(recorded)} deals, the re-play "
                             f"has {len(played)}")
    if len(resulted) != len(played):
        raise ReplayMismatch(f"{where}: its result records {len(resulted)} deals, the re-play "
                             f"has {len(played)}")
    for rec, res, want in zip(recorded, resulted, played, strict=True):
        # A field the replay's deal record lacks (`redeals`, recorded since
        # a later engine) was not recorded by the arena that played it: it
        # is not compared, in the replay nor in the result read from the
        # same version's store (which gives it its default).
        keys = [k for k in _DEAL_FIELDS if k in rec]
        for source, got in (("its replay records", rec), ("its result records", asdict(res))):
            for key in keys:
                value = got[key]
                value = list(value) if isinstance(value, (list, tuple)) else value
                right = getattr(want, key)
                right = list(right) if isinstance(right, tuple) else right
                if value != right:
                    raise ReplayMismatch(f"{where}, deal {want.deal_number}: {source} {key} "
                                         f"{value}, the re-play gives {right}")


def _outcome(where: str, game: Any, recorded: dict[str, Any] | None,
             result: MatchResult) -> None:
    if recorded is None:
        raise ReplayMismatch(f"{where}: its replay has no result record")
    totals = [int(t) for t in game.totals]
    seats = sorted(result.seats, key=lambda s: s.seat)
    for source, given in (("its replay records", list(recorded.get("totals", []))),
                          ("its result records", [s.total for s in seats])):
        if given != totals:
            raise ReplayMismatch(f"{where}: {source} totals {given}, the re-play gives {totals}")
    forfeits = [s.seat for s in seats if s.status == "forfeit"]
    if [s.status for s in seats] != list(recorded.get("statuses", [])):
        raise ReplayMismatch(f"{where}: its result's seat statuses are not its replay's")
    finish, place_of = finish_places(game.finish, forfeits)
    places = [place_of[i] for i in range(len(seats))]
    for source, given in (("its replay records", list(recorded.get("places", []))),
                          ("its result records", [s.place for s in seats])):
        if given != places:
            raise ReplayMismatch(f"{where}: {source} places {given}, the re-play gives {places}")
    if [list(g) for g in result.finish] != [list(g) for g in finish]:
        raise ReplayMismatch(f"{where}: its result's finishing order is not the re-play's")
    faults = [dict(s.faults) for s in seats]
    if faults != list(recorded.get("faults", [])):
        raise ReplayMismatch(f"{where}: its result's faults {faults} are not its replay's "
                             f"{recorded.get('faults')}")
    if result.reason != recorded.get("reason"):
        raise ReplayMismatch(f"{where}: its result ends by {result.reason!r}, its replay by "
                             f"{recorded.get('reason')!r}")
