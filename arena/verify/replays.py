"""Re-deal and re-play every published replay with the engine.

The comparison itself (the deals, totals, places and faults the re-play
gives against the replay's and the result's) is the referee's
(arena/referee/replay_check.py), which the Dask coordinator also runs on
every result a worker returns; here it is given the bundle's bots, rules
and deal seed, and its difference becomes a Mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.game import Rules
from arena.referee.replay import ReplayError, read_replay
from arena.referee.replay_check import ReplayMismatch, check_replay
from arena.verify.errors import Mismatch
from arena.verify.load import Bundle, BundleMatch


@dataclass(frozen=True)
class Replayed:
    decisions: int
    deals: int


def check_match(bundle: Bundle, x: BundleMatch, rules: dict[str, Any],
                seed: int | None) -> Replayed:
    """Re-play match `x`'s replay; Mismatch at its first difference.
    `seed` is its deal seed from the tournament seed (None before the reveal)."""
    assert x.replay is not None
    try:
        replay = read_replay(bundle.folder / x.replay)
    except ReplayError as exc:
        raise Mismatch(f"match {x.match_id}: {exc}") from None
    bots = [(bundle.bots[i].name, bundle.bots[i].content_hash) for i in x.bots]
    try:
        game = check_replay(replay, x.result, match_id=x.match_id, bots=bots, rules=rules,
                            seed=seed)
    except ReplayMismatch as exc:
        raise Mismatch(str(exc)) from None
    return Replayed(len(replay.actions), len(game.deals))


def tournament_rules(bundle: Bundle) -> dict[str, Any]:
    """Every rule option of the tournament's matches, as a replay header has them."""
    return Rules.from_dict(bundle.config.match.rules_dict()).to_dict()
