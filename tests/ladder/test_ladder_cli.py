"""`arena ladder new` and `arena ladder user add` run as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import cli, cli_ok, refused

from arena.ladder import tokens


@pytest.mark.slow
def test_new_and_user_add_print_the_token_once_and_store_its_hash(tmp_path: Path) -> None:
    folder = tmp_path / "season"
    done = cli_ok("ladder", "new", folder)
    assert "wrote" in done.stdout and (folder / "reference" / "greedy" / "bot.toml").is_file()
    refused(cli("ladder", "new", folder), "exists already")
    added = cli_ok("ladder", "user", "add", folder, "alice")
    token = added.stdout.strip()
    assert tokens.plausible(token) and token not in added.stderr
    stored = (folder / "ladder.sqlite").read_bytes()
    assert token.encode() not in stored and tokens.digest(token).encode() in stored
    refused(cli("ladder", "user", "add", folder, "alice"), "exists already")
    refused(cli("ladder", "user", "add", folder, "no spaces"), "user name")
    assert cli_ok("ladder", "user", "list", folder).stdout.split() == ["alice"]
    refused(cli("ladder", "user", "add", tmp_path / "nothing", "bob"), "missing")


@pytest.mark.slow
def test_serve_refuses_an_unprotected_scheduler_elsewhere_before_anything(tmp_path: Path) -> None:
    """Plain tcp:// to another machine (no packet is sent: the address is
    refused before any connection), and tls:// without certificates."""
    folder = tmp_path / "season"
    cli_ok("ladder", "new", folder)
    refused(cli("ladder", "serve", folder, "--port", "0", "--dask", "tcp://192.0.2.7:8786"),
            "--insecure")
    refused(cli("ladder", "serve", folder, "--port", "0", "--dask", "tls://127.0.0.1:8786"),
            "needs --tls")
    assert not (folder / "replays").exists() and not (folder / "incoming").exists()
