"""`arena submit`'s side of the ladder's HTTP API: a bot folder packed as a
tar.gz in memory, posted with the author's token, its state polled.

The token is read from a file (`--token-file`, `ARENA_TOKEN_FILE`, or the
user's config file), or from `ARENA_TOKEN`; a token on the command line is
taken too, but every user of a shared machine can read a command line.
Over the network the token goes only by HTTPS: plain HTTP to anything but
this machine is refused unless the author says `--insecure`.
"""

from __future__ import annotations

import ipaddress
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from arena.ladder.errors import LadderError
from arena.sandbox import botpack
from arena.sandbox.botfile import BotFileError, load_bot

TOKEN_ENV = "ARENA_TOKEN"
TOKEN_FILE_ENV = "ARENA_TOKEN_FILE"
TIMEOUT = 60.0
SETTLED = ("active", "refused", "replaced")


def config_token_file() -> Path:
    """The user's own token file: $XDG_CONFIG_HOME/arena/token (~/.config)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arena" / "token"


def find_token(given: str | None, token_file: Path | None) -> str:
    """The token, from the first of: --token, --token-file, $ARENA_TOKEN_FILE,
    $ARENA_TOKEN, the config file. LadderError if none is found or a named
    file cannot be read."""
    if given:
        return given.strip()
    named = token_file or (Path(os.environ[TOKEN_FILE_ENV]) if os.environ.get(TOKEN_FILE_ENV) else None)
    if named is not None:
        try:
            text = named.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise LadderError(f"token file {named}: cannot read it ({exc.strerror or exc})") from None
        if not text:
            raise LadderError(f"token file {named}: it is empty")
        return text.split()[0]
    if os.environ.get(TOKEN_ENV, "").strip():
        return os.environ[TOKEN_ENV].strip()
    own = config_token_file()
    if own.is_file():
        text = own.read_text(encoding="utf-8").strip()
        if text:
            return text.split()[0]
    raise LadderError(f"no token: pass --token-file FILE, or set {TOKEN_FILE_ENV} or {TOKEN_ENV}, "
                      f"or put it in {own} (the organiser's `arena ladder user add` printed it)")


def base_url(url: str, insecure: bool = False) -> str:
    """The server's base URL (scheme://host:port) from any URL of the ladder
    (its table, say). Refused: not http(s), no host, or plain HTTP to
    another machine without `insecure` (the token would cross the network
    readable)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LadderError(f"{url}: not a ladder's address (expected http(s)://HOST[:PORT]/)")
    if parts.scheme == "http" and not insecure and not _loopback(parts.hostname):
        raise LadderError(f"{url}: plain HTTP to another machine would send your token readable "
                          "on the network; use the ladder's https:// address (or --insecure)")
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pack(folder: Path) -> bytes:
    """The bot folder as a tar.gz made in memory: the files that make the
    bot (as its content hash counts them), plain files only, modes 0644 or
    0755, no owners, fixed times (the same folder packs to the same bytes).
    LadderError for a folder that is not a bot or holds a symbolic link."""
    try:
        load_bot(folder, hashed=False)
    except BotFileError as exc:
        raise LadderError(str(exc)) from None
    try:
        return botpack.pack(folder)
    except botpack.PackError as exc:
        raise LadderError(f"{exc}; the ladder takes plain files only") from None


@dataclass(frozen=True)
class Answer:
    status: int
    data: dict[str, Any]


def _request(url: str, token: str, body: bytes | None = None) -> Answer:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/gzip")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return Answer(response.status, json.loads(response.read() or b"{}"))
    except urllib.error.HTTPError as exc:
        text = exc.read(4096).decode("utf-8", "replace").strip().splitlines()
        line = text[0] if text else exc.reason
        wait = exc.headers.get("Retry-After")
        more = f" (Retry-After: {wait} s)" if wait else ""
        raise LadderError(f"the ladder refused it: {exc.code} {line}{more}") from None
    except (TimeoutError, urllib.error.URLError, ConnectionError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LadderError(f"{url}: cannot reach the ladder ({reason})") from None
    except ValueError:
        raise LadderError(f"{url}: the answer is not the ladder's JSON") from None


def submit(base: str, token: str, archive: bytes) -> dict[str, Any]:
    """Post an archive; the new submission ({id, bot, version, state, url, api})."""
    return _request(f"{base}/api/ladder/submissions", token, archive).data


def status(base: str, token: str, submission_id: int) -> dict[str, Any]:
    return _request(f"{base}/api/ladder/submissions/{submission_id}", token).data
