"""A ladder block and a validation match: their ids, deals, specs and what
their results mean.

A block is the arena's duplicate unit: three bots, one deal seed, all six
seat orders (arena.tournament.SEAT_ORDERS), so each bot holds each
seat's cards once and the card luck cancels out. Every block gets fresh
deals: its seed is derive_seed(ladder seed, "ladder-block", block id),
SHA-256 of the secret, and block ids are never reused, so the replays a
finished block publishes show deals no later block is dealt. The bots'
ARENA_SEED comes from the match's key, an HMAC of the match id keyed by
the ladder seed (arena.tournament.match_key): no way back to either seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from arena.ladder.store import MatchRow, Ratings
from arena.manifest import BotSpec
from arena.referee.spec import FaultPolicy, MatchResult, MatchSpec
from arena.tournament import (
    SEAT_ORDERS,
    MatchSettings,
    RatedMatch,
    Rating,
    derive_seed,
    match_key,
    rate_block,
)

REPLAYS_DIR = "replays"
LOGS_DIR = "logs"


def block_seed(ladder_seed: int, block_id: int) -> int:
    return derive_seed(ladder_seed, "ladder-block", block_id)


def match_id(block_id: int, order_no: int, lineup: Sequence[str]) -> str:
    """`b<block>-o<seat order>-<digest of the seated versions>`: sorts by
    block and seat order, and names only public facts."""
    digest = hashlib.sha256("|".join(lineup).encode()).hexdigest()[:8]
    return f"b{block_id:07d}-o{order_no}-{digest}"


def plan(ladder_seed: int, block_id: int, seats: tuple[int, int, int],
         keys: dict[int, str]) -> tuple[int, list[tuple[str, int, tuple[int, ...]]]]:
    """The block's deal seed and its six matches (id, seat order number,
    submission ids by seat); `keys`: submission id -> name@content-hash."""
    seed = block_seed(ladder_seed, block_id)
    out = []
    for order_no, order in enumerate(SEAT_ORDERS):
        seated = tuple(seats[i] for i in order)
        out.append((match_id(block_id, order_no, [keys[s] for s in seated]), order_no, seated))
    return seed, out


def validation_id(submission_id: int, attempt: int) -> str:
    return f"v{submission_id:07d}-{attempt}"


def validation_seed(ladder_seed: int, submission_id: int, attempt: int) -> int:
    return derive_seed(ladder_seed, "ladder-validation", submission_id, attempt)


def spec(settings: MatchSettings, root: Path, ladder_seed: int, row_id: str,
         bots: tuple[BotSpec, ...], seed: int) -> MatchSpec:
    """The referee's spec of a block match: the replay in replays/ (public
    once its block is over), the logs of seats with a fault in logs/
    (their owners' alone)."""
    return settings.match_spec(root, row_id, bots, seed, match_key(ladder_seed, row_id))


def validation_spec(settings: MatchSettings, work: Path, ladder_seed: int, row_id: str,
                    bots: tuple[BotSpec, ...], seed: int, deals: int) -> MatchSpec:
    """The validation match: the new bot in seat 0, `deals` deals, the
    first fault ends it (forfeit: one fault is enough to refuse), every
    seat's log kept in `work` (the submission's own folder: its owner
    reads seat 0's)."""
    options = tuple((k, v) for k, v in settings.rules_options if k != "max_deals")
    return MatchSpec(
        match_id=row_id, bots=bots, seed=seed, key=match_key(ladder_seed, row_id),
        rules_preset=settings.rules_preset, rules_options=(*options, ("max_deals", deals)),
        time_control=settings.time_control, fault_policy=FaultPolicy(mode="forfeit"),
        sandbox=settings.sandbox, replay_path=str(work / f"{row_id}.jsonl"),
        work_dir=str(work), limits=settings.limits)


def verdict(result: MatchResult) -> str:
    """Why the validation match refuses its bot (seat 0), "" if it passed:
    the first fault, in one line."""
    me = result.seats[0]
    if me.fault_log:
        return _line(me.fault_log[0])
    faults = [kind for kind, count in me.faults if count]
    if faults:
        return f"{faults[0]} fault"
    if me.status != "ok":
        return f"finished with status {me.status}"
    if me.moves == 0:
        return "answered no decision"
    return ""


def _line(text: str, limit: int = 300) -> str:
    """One line of at most `limit` characters, control characters as \\xNN
    (a fault line may quote what the bot sent)."""
    flat = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in " ".join(text.split()))
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def rated(matches: Sequence[MatchRow]) -> list[RatedMatch]:
    out = []
    for m in matches:
        assert m.result is not None
        places = tuple(s.place for s in sorted(m.result.seats, key=lambda s: s.seat))
        out.append(RatedMatch(m.match_id, m.block_id, m.seats, places))
    return out


def rate(matches: Sequence[MatchRow], current: Ratings, tau: float) -> Ratings:
    """The seats' ratings after a finished block (arena.tournament.rate_block)."""
    new = rate_block({s: Rating(mu, sigma) for s, (mu, sigma) in current.items()},
                     rated(matches), tau)
    return {s: (r.mu, r.sigma) for s, r in new.items()}
