"""Re-deal and re-play every published replay with the engine.

The engine deals from the replay's seed (new_game) and applies each
recorded action (replay.replay_states): an action that is not legal there,
or a seat acting out of turn, stops it. The deals' results the engine
computes (game.deals, the records the referee passes on as they are),
the totals and the places (spec.finish_places, the referee's own) must be
those the replay and the bundle's result record.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from arena.game import Rules
from arena.game.records import DealRecord
from arena.referee.replay import ReplayError, read_replay, replay_states
from arena.referee.spec import finish_places
from arena.verify.errors import Mismatch
from arena.verify.load import Bundle, BundleMatch

_DEAL_FIELDS = tuple(DealRecord.__dataclass_fields__)


@dataclass(frozen=True)
class Replayed:
    decisions: int
    deals: int


def check_match(bundle: Bundle, x: BundleMatch, rules: dict[str, Any],
                seed: int | None) -> Replayed:
    """Re-play match `x`'s replay; Mismatch at its first difference.
    `seed` is its deal seed from the tournament seed (None before the reveal)."""
    assert x.replay is not None
    where = f"match {x.match_id}"
    try:
        replay = read_replay(bundle.folder / x.replay)
    except ReplayError as exc:
        raise Mismatch(f"{where}: {exc}") from None
    h = replay.header
    if h.get("match_id") != x.match_id:
        raise Mismatch(f"{where}: its replay file holds match {h.get('match_id')}")
    for seat, bot_id in enumerate(x.bots):
        bot = bundle.bots[bot_id]
        entry = h["bots"][seat] if seat < len(h["bots"]) else {}
        if (entry.get("name"), entry.get("content_hash")) != (bot.name, bot.content_hash):
            raise Mismatch(f"{where}: seat {seat} of its replay is {entry.get('name')} "
                           f"{str(entry.get('content_hash'))[:12]}, the schedule's is {bot.name} "
                           f"{bot.content_hash[:12]}")
    if h["rules"] != rules:
        key = next((k for k in sorted(set(rules) | set(h["rules"]))
                    if rules.get(k) != h["rules"].get(k)), "?")
        raise Mismatch(f"{where}: its replay's rules are not the tournament's (option {key!r}: "
                       f"{h['rules'].get(key)!r}, the settings give {rules.get(key)!r})")
    if replay.seed != x.result.seed:
        raise Mismatch(f"{where}: its replay is dealt from seed {replay.seed}, its result says "
                       f"{x.result.seed}")
    if seed is not None and replay.seed != seed:
        raise Mismatch(f"{where}: its replay is dealt from seed {replay.seed}, not the one the "
                       f"tournament seed gives ({seed}): other cards than the tournament's")
    game: Any = None
    last: dict[str, Any] | None = None
    try:
        for state, rec in replay_states(replay):
            game, last = state, rec
    except ReplayError as exc:
        at = f", deal {last.get('deal')}, decision {last.get('n')}" if last else ""
        raise Mismatch(f"{where}{at}: {exc}") from None
    _deals(where, list(game.deals), replay.deals, x.result.deals)
    _outcome(where, game, replay.result, x)
    return Replayed(len(replay.actions), len(game.deals))


def _deals(where: str, played: list[DealRecord], recorded: list[dict[str, Any]],
           resulted: tuple[DealRecord, ...]) -> None:
    if len(recorded) != len(played):
        raise Mismatch(f"{where}: its replay records {len(recorded)} deals, the re-play has "
                       f"{len(played)}")
    if len(resulted) != len(played):
        raise Mismatch(f"{where}: its result records {len(resulted)} deals, the re-play has "
                       f"{len(played)}")
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
                    raise Mismatch(f"{where}, deal {want.deal_number}: {source} {key} {value}, "
                                   f"the re-play gives {right}")


def _outcome(where: str, game: Any, recorded: dict[str, Any] | None, x: BundleMatch) -> None:
    if recorded is None:
        raise Mismatch(f"{where}: its replay has no result record")
    totals = [int(t) for t in game.totals]
    seats = sorted(x.result.seats, key=lambda s: s.seat)
    for source, given in (("its replay records", list(recorded.get("totals", []))),
                          ("its result records", [s.total for s in seats])):
        if given != totals:
            raise Mismatch(f"{where}: {source} totals {given}, the re-play gives {totals}")
    forfeits = [s.seat for s in seats if s.status == "forfeit"]
    if [s.status for s in seats] != list(recorded.get("statuses", [])):
        raise Mismatch(f"{where}: its result's seat statuses are not its replay's")
    finish, place_of = finish_places(game.finish, forfeits)
    places = [place_of[i] for i in range(len(seats))]
    for source, given in (("its replay records", list(recorded.get("places", []))),
                          ("its result records", [s.place for s in seats])):
        if given != places:
            raise Mismatch(f"{where}: {source} places {given}, the re-play gives {places}")
    if [list(g) for g in x.result.finish] != [list(g) for g in finish]:
        raise Mismatch(f"{where}: its result's finishing order is not the re-play's")
    faults = [dict(s.faults) for s in seats]
    if faults != list(recorded.get("faults", [])):
        raise Mismatch(f"{where}: its result's faults {faults} are not its replay's "
                       f"{recorded.get('faults')}")
    if x.result.reason != recorded.get("reason"):
        raise Mismatch(f"{where}: its result ends by {x.result.reason!r}, its replay by "
                       f"{recorded.get('reason')!r}")


def tournament_rules(bundle: Bundle) -> dict[str, Any]:
    """Every rule option of the tournament's matches, as a replay header has them."""
    return Rules.from_dict(bundle.config.match.rules_dict()).to_dict()
