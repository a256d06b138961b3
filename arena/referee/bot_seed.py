"""What a bot is given that comes from a match's secrets, and how.

A bot that learns a match's deal seed deals every hand and the talon itself
(the rules engine is public). So nothing a bot receives or can read in its
sandbox is the deal seed or a plain function of it. The only value a bot
gets that is tied to the match's randomness is its ARENA_SEED, for its own
reproducible randomness: an HMAC-SHA256 keyed by the match's *key*, a secret
of the organiser that is not derived from the deal seed. Match ids shown to
bots are random (`public_id`) or made of public facts (tournaments: the set,
the table's bots, the seat order), never of a seed.

The key is passed in (`MatchSpec.key`) so that a match can be repeated
exactly: the same seed and key give the same deals and the same ARENA_SEEDs.
A spec without one gets a fresh random key: the deals still repeat, the
bots' own randomness does not.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_BYTES = 16  # 128 bits: no bot tries them all


def new_key() -> str:
    """A fresh random key (hex) for a match's bot seeds."""
    return secrets.token_hex(KEY_BYTES)


def public_id(prefix: str) -> str:
    """A random match id (`play-3f9c...`): says nothing about the seed."""
    return f"{prefix}-{secrets.token_hex(6)}"


def bot_seed(key: str, seat: int) -> int:
    """The ARENA_SEED of `seat`: 63 bits of HMAC-SHA256(key, seat). Without
    the key it is noise, and the key tells nothing of the deal seed."""
    if not key:
        raise ValueError("bot_seed: the key must not be empty")
    digest = hmac.new(key.encode(), f"arena-bot-seed:{seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
