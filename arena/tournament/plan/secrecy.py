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

Once the seed is out, every deal it derives is public: the store remembers
the reveal (`mark_revealed`: the last bot version registered by then), and
a run refuses the matches of versions registered since (`revealed_after`),
whose authors could have dealt all their hands from the published seed.
Versions registered before the reveal were written without knowing it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Protocol

SALT_KEY = "seed_salt"  # the store's meta key
# The store's meta key of the reveal: the id of the last bot version
# registered when the seed was first published (leaderboard publish).
REVEALED_KEY = "seed_revealed_after_bot"

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


def mark_revealed(store: _Meta, last_bot_id: int) -> None:
    """The seed has been shown: versions registered after `last_bot_id`
    may have been written by someone who knows it. The first reveal counts."""
    if not store.get_meta(REVEALED_KEY):
        store.set_meta(REVEALED_KEY, str(last_bot_id))


def revealed_after(store: _Meta) -> int | None:
    """The last bot id registered before the seed was shown; None if it
    has not been shown."""
    value = store.get_meta(REVEALED_KEY)
    return int(value) if value else None
