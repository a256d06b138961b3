"""The tournament seed is the organiser's secret until the results are out.

Every deal seed derives from it (schedule.derive_seed), so a bot that
learned it would know every hand and talon of the tournament. What bots get
from it passes through a one-way function keyed by it: each match's key for
the bots' ARENA_SEED (`match_key`, HMAC-SHA256). Match ids are made of
public facts only (schedule.match_id).
"""

from __future__ import annotations

import hashlib
import hmac


def match_key(tournament_seed: int, match_id: str) -> str:
    """The key of a tournament match's bot seeds (MatchSpec.key): reproducible
    from the tournament seed, and no way back to it."""
    return hmac.new(str(tournament_seed).encode(), f"arena-match-key:{match_id}".encode(),
                    hashlib.sha256).hexdigest()
