"""What a page open to the network needs, for every part of the app that
takes writes (the lobby's forms, the ladder's uploads and sign-ins):

* `read_body`: a request body read no further than a limit (a body read
  whole first would sit in the memory of the process whose loop also
  runs matches);
* `Signer`: values signed with HMAC-SHA256 and an expiry (a session
  cookie holds one: it cannot be forged or extended without the key);
* `csrf_token` / `csrf_ok`: a form's token, an HMAC of the session it
  belongs to, so another site's page cannot post with the visitor's
  cookie (it can neither read the token nor make it);
* `same_origin`: a browser's Origin header, when it sends one, must be
  this server;
* `RateLimiter`: at most N events per minute per key (the client's
  address), answered with 429 and Retry-After;
* `small_number` and the path convertor `{name:num}`: a number in a URL
  or a form, ASCII digits of a bounded length (str.isdigit admits "²",
  which int() refuses, and int() refuses over 4,300 digits: each was a 500).

None of these logs what it checks: cookies and tokens never reach a log.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import HTTPConnection, Request

NUMBER_DIGITS = 15   # any count, seat or index of the app; SQLite's INTEGER holds it


async def read_body(request: Request, limit: int) -> bytes | None:
    """The body, or None if it is (or says it is) over `limit` bytes; read
    no further than that."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def small_number(text: str) -> int | None:
    """`text` as a number if it is 1 to NUMBER_DIGITS ASCII digits, else None."""
    if text.isascii() and text.isdigit() and len(text) <= NUMBER_DIGITS:
        return int(text)
    return None


class SmallNumber(Convertor[int]):
    """`{name:num}` in a route: as Starlette's `int`, bounded, so that a
    longer run of digits is no match (a 404) rather than a failing int()."""

    regex = f"[0-9]{{1,{NUMBER_DIGITS}}}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("num", SmallNumber())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """`sign(value, seconds)` -> text; `unsign(text)` -> the value while it
    has not expired and its signature is this key's, else None."""

    def __init__(self, key: bytes, clock: Callable[[], float] = time.time) -> None:
        if len(key) < 16:
            raise ValueError("a signing key needs at least 16 bytes")
        self._key = key
        self._clock = clock

    def _mac(self, text: str) -> str:
        return _b64(hmac.new(self._key, text.encode(), hashlib.sha256).digest())

    def sign(self, value: str, seconds: float) -> str:
        text = f"{_b64(value.encode())}.{int(self._clock() + seconds)}"
        return f"{text}.{self._mac(text)}"

    def unsign(self, signed: str) -> str | None:
        if len(signed) > 4096:
            return None
        parts = signed.split(".")
        if len(parts) != 3:
            return None
        text = f"{parts[0]}.{parts[1]}"
        if not hmac.compare_digest(parts[2].encode(), self._mac(text).encode()):
            return None
        if not parts[1].isdigit() or int(parts[1]) < self._clock():
            return None
        try:
            return _unb64(parts[0]).decode()
        except ValueError:
            return None

    def derive(self, label: str, value: str) -> str:
        """An HMAC of `value` for one purpose (`label`): a CSRF token."""
        return self._mac(f"{label}:{value}")


def csrf_token(signer: Signer, session: str) -> str:
    return signer.derive("csrf", session)


def csrf_ok(signer: Signer, session: str, given: str) -> bool:
    return bool(session) and bool(given) and hmac.compare_digest(
        given.encode(), csrf_token(signer, session).encode())


def same_origin(request: HTTPConnection) -> bool:
    """False when the request carries an Origin (or, without one, a
    Referer) of another host than the one it was sent to."""
    origin = request.headers.get("origin") or request.headers.get("referer") or ""
    if not origin or origin == "null":
        return origin != "null"
    return urlsplit(origin).netloc == request.headers.get("host", "")


def client_of(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


class RateLimiter:
    """At most `per_minute` events per key in any 60 seconds (a sliding
    window); `hit(key)` counts one and returns 0, or the seconds until one
    more is allowed (then nothing is counted)."""

    WINDOW = 60.0
    KEYS = 100_000   # beyond this many keys the oldest are forgotten (memory stays bounded)

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> int:
        now = self._clock()
        with self._lock:
            times = self._seen.pop(key, None) or deque()
            while times and times[0] <= now - self.WINDOW:
                times.popleft()
            self._seen[key] = times  # most recently used last
            if len(times) >= self.per_minute:
                return max(1, math.ceil(times[0] + self.WINDOW - now))
            times.append(now)
            while len(self._seen) > self.KEYS:
                self._seen.pop(next(iter(self._seen)))
            return 0
