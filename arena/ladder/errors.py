"""The one base of the ladder package's errors.

Every refusal the ladder raises for a person to read (a ladder.toml that
is unusable, an archive that may not be unpacked, a quota reached, a
token that opens nothing) is a `LadderError`: one line naming what and
where. The web pages answer it as an error page or a plain line, the
command line as `error: ...` with exit status 2.
"""

from __future__ import annotations


class LadderError(Exception):
    """A ladder operation refused, in one line."""


class Refused(LadderError):
    """A request the ladder refuses (the HTTP status to answer with, and
    for a rate limit the seconds to wait); nothing of it is stored."""

    def __init__(self, message: str, status: int = 400, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
