"""The tournament seed is the organiser's secret until the results are out.

Every deal seed derives from it (schedule.derive_seed), so a bot that
learned it would know every hand and talon of the tournament. What bots get
from it passes through a one-way function keyed by it: each match's key for
the bots' ARENA_SEED (`match_key`, HMAC-SHA256). Match ids are made of
public facts only (schedule.match_id).

So that nobody has to take the organiser's word that the seed was fixed
before the matches, the store keeps a random salt (made when the first run
plans matches) and `leaderboard publish` prints and writes the commitment
SHA-256("<salt>:<seed>") from the first publication on. The seed and the
salt are published only once every planned match is finished (or with
`--reveal`); anyone can then check the commitment and re-deal every match.
The salt keeps a short seed from being found by hashing candidates.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Protocol

SALT_KEY = "seed_salt"  # the store's meta key

def match_key(tournament_seed: int, match_id: str) -> str:
    """The key of a tournament match's bot seeds (MatchSpec.key): reproducible
    from the tournament seed, and no way back to it."""
    return hmac.new(str(tournament_seed).encode(), f"arena-match-key:{match_id}".encode(),
                    hashlib.sha256).hexdigest()


class _Meta(Protocol):
    def get_meta(self, key: str, default: str = "") -> str: ...
    def set_meta(self, key: str, value: str) -> None: ...


def commitment(salt: str, tournament_seed: int) -> str:
    """SHA-256 of "<salt>:<seed>", hex: what is published before the seed."""
    return hashlib.sha256(f"{salt}:{tournament_seed}".encode()).hexdigest()


def salt(store: _Meta) -> str:
    """The store's salt, made (random, 128 bits) and kept on first use."""
    value = store.get_meta(SALT_KEY)
    if not value:
        value = secrets.token_hex(16)
        store.set_meta(SALT_KEY, value)
    return value


@dataclass(frozen=True)
class SeedDisclosure:
    """What a leaderboard says about the tournament seed."""

    commitment: str
    seed: int | None = None   # set once revealed
    salt: str = ""            # set once revealed


def disclose(store: _Meta, tournament_seed: int, finished: bool, reveal: bool) -> SeedDisclosure:
    """The commitment always; the seed and salt too when every planned match
    is `finished` or the organiser asks to `reveal` them."""
    s = salt(store)
    if finished or reveal:
        return SeedDisclosure(commitment(s, tournament_seed), tournament_seed, s)
    return SeedDisclosure(commitment(s, tournament_seed))
