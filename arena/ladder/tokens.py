"""API tokens: random, shown once, stored hashed, compared in constant time.

A token is 32 random bytes (256 bits) in URL-safe base64 behind a prefix
that says what it is (`arena_`). With that much entropy a plain SHA-256
is the right hash: no one can try candidates against it (a slow password
hash protects guessable secrets, and a token is not one). The store keeps
only the hash; the server hashes what a request presents, finds the user
by that hash and compares the two hashes with hmac.compare_digest, so the
time taken tells nothing of how much of a wrong token was right. Nothing
logs a token or its hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

PREFIX = "arena_"
_BYTES = 32
MAX_LENGTH = 200   # longer than any token: refused before it is hashed


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(_BYTES)


def digest(token: str) -> str:
    """The stored form of a token (hex SHA-256)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same(stored: str, presented: str) -> bool:
    """Whether a presented token hashes to `stored`, in constant time."""
    if not presented or len(presented) > MAX_LENGTH:
        return False
    return hmac.compare_digest(stored.encode(), digest(presented).encode())


def plausible(token: str) -> bool:
    """Shaped like a token (a first, cheap filter; `same` decides)."""
    return token.startswith(PREFIX) and 0 < len(token) <= MAX_LENGTH
