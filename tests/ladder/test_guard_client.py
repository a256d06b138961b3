"""The parts of the ladder's server and client that need no server: signed
values, CSRF tokens, the rate limiter (web/guard.py), where `arena submit`
finds its token, which addresses it sends one to, how it packs a bot
(ladder/client.py), and error pages that name files without the server's
paths (web/app.file_names)."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from arena.ladder import client
from arena.ladder.errors import LadderError
from arena.web.filenames import file_names
from arena.web.guard import RateLimiter, Signer, csrf_ok, csrf_token

from .ladders import bot_copy

KEY = b"k" * 32


def test_a_signed_value_cannot_be_forged_extended_or_kept_past_its_time() -> None:
    now = [1000.0]
    signer = Signer(KEY, clock=lambda: now[0])
    signed = signer.sign("7:nonce", 60)
    assert signer.unsign(signed) == "7:nonce"
    value, expiry, mac = signed.split(".")
    assert signer.unsign(f"{value}.{int(expiry) + 3600}.{mac}") is None   # extended
    assert signer.unsign(f"MTpub25jZQ.{expiry}.{mac}") is None             # another value
    assert Signer(b"o" * 32, clock=lambda: now[0]).unsign(signed) is None  # another key
    now[0] += 61
    assert signer.unsign(signed) is None
    with pytest.raises(ValueError):
        Signer(b"short")


def test_a_csrf_token_is_its_sessions_only() -> None:
    signer = Signer(KEY)
    token = csrf_token(signer, "session-a")
    assert csrf_ok(signer, "session-a", token)
    assert not csrf_ok(signer, "session-b", token)
    assert not csrf_ok(signer, "session-a", "")
    assert not csrf_ok(signer, "", csrf_token(signer, ""))


def test_the_rate_limiter_counts_per_key_in_a_sliding_minute() -> None:
    now = [0.0]
    limiter = RateLimiter(2, clock=lambda: now[0])
    assert limiter.hit("a") == 0 and limiter.hit("a") == 0
    assert limiter.hit("b") == 0
    now[0] = 10.0
    assert limiter.hit("a") == 50          # the first of a's two leaves the window at 60
    now[0] = 60.5
    assert limiter.hit("a") == 0


def test_the_token_comes_from_a_file_env_or_config_never_a_guess(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (client.TOKEN_ENV, client.TOKEN_FILE_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with pytest.raises(LadderError, match="no token"):
        client.find_token(None, None)
    own = tmp_path / "config" / "arena" / "token"
    own.parent.mkdir(parents=True)
    own.write_text("arena_own\n")
    assert client.find_token(None, None) == "arena_own"
    monkeypatch.setenv(client.TOKEN_ENV, "arena_env")
    assert client.find_token(None, None) == "arena_env"
    named = tmp_path / "t"
    named.write_text("arena_file  # mine\n")
    monkeypatch.setenv(client.TOKEN_FILE_ENV, str(named))
    assert client.find_token(None, None) == "arena_file"
    assert client.find_token("arena_given", named) == "arena_given"
    with pytest.raises(LadderError, match="cannot read it"):
        client.find_token(None, tmp_path / "missing")


@pytest.mark.parametrize(("url", "base"), [
    ("http://127.0.0.1:8000/ladder/", "http://127.0.0.1:8000"),
    ("http://localhost:8000", "http://localhost:8000"),
    ("http://[::1]:9/ladder/bot/x", "http://[::1]:9"),
    ("https://ladder.example.org/ladder/", "https://ladder.example.org"),
])
def test_base_url(url: str, base: str) -> None:
    assert client.base_url(url) == base


def test_plain_http_to_another_machine_is_refused_unless_insecure() -> None:
    with pytest.raises(LadderError, match="readable on the network"):
        client.base_url("http://ladder.example.org/")
    assert client.base_url("http://ladder.example.org/", insecure=True) == "http://ladder.example.org"
    with pytest.raises(LadderError, match="not a ladder's address"):
        client.base_url("ftp://x/")


def test_pack_takes_the_bots_files_the_same_way_every_time(tmp_path: Path) -> None:
    bot = bot_copy(tmp_path, "random", "packed")
    (bot / "__pycache__").mkdir()
    (bot / "__pycache__" / "x.pyc").write_bytes(b"cache")
    data = client.pack(bot)
    assert client.pack(bot) == data
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        names = tar.getnames()
        assert all(m.isfile() and m.uid == 0 and m.mtime == 0 for m in tar.getmembers())
    assert "bot.toml" in names and not any("__pycache__" in n for n in names)
    os.symlink("/etc/passwd", bot / "link")
    with pytest.raises(LadderError, match="symbolic link"):
        client.pack(bot)
    with pytest.raises(LadderError, match=r"bot\.toml"):
        client.pack(tmp_path)


def test_error_pages_name_files_not_the_servers_paths() -> None:
    assert file_names("/srv/l/replays/b1-o0-ab.jsonl: deal 0 is in the first part") == \
        "b1-o0-ab.jsonl: deal 0 is in the first part"
    assert file_names("see http://x/y/z") == "see http://x/y/z"
