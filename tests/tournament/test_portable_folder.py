"""A tournament folder is self-contained: `tournament new --bot` copies the
bots in, so the folder can be copied or moved (its bots' sources gone) and
runs as before; `tournament status` lists every bot before the first run."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from clihelp import cli, cli_here

from arena.sandbox.botfile import load_bot

from .folders import random_bot


def new_tournament(tmp_path: Path, folder: Path, names: tuple[str, ...]) -> list[Path]:
    sources = [random_bot(tmp_path / "src", n) for n in names]
    # In-process (cli_here): `tournament new` as a process is test_end_to_end's.
    made = cli_here("tournament", "new", folder, *[a for s in sources for a in ("--bot", s)])
    assert made.returncode == 0, made.stderr
    assert f"copied into {folder / 'sources'}" in made.stdout
    toml = folder / "tournament.toml"
    text = toml.read_text()
    for old, new in (("duplicate_sets = 2", "duplicate_sets = 1"), ('sandbox = "auto"',
                     'sandbox = "process"'), ("replays = true", "replays = false"),
                     ("bootstrap = 200", "bootstrap = 5"), ("target = 500", "target = 500\nmax_deals = 1")):
        assert old in text
        text = text.replace(old, new, 1)
    toml.write_text(text)
    return sources


@pytest.mark.slow
def test_new_copies_the_bots_in_and_status_lists_them_before_any_run(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    sources = new_tournament(tmp_path, folder, ("rb", "rc", "rd"))
    listed = tomllib.loads((folder / "tournament.toml").read_text())["bots"]
    assert listed == ["sources/rb", "sources/rc", "sources/rd"]
    for entry, source in zip(listed, sources, strict=True):
        assert load_bot(folder / entry).content_hash == load_bot(source).content_hash
    status = cli("tournament", "status", folder)
    assert status.returncode == 0, status.stderr
    lines = status.stdout.splitlines()
    assert lines[0] == "t: not started"
    assert [line.split()[0] for line in lines[1:]] == ["rb", "rc", "rd"]
    assert all("(listed; registered by the first run)" in line for line in lines[1:])
    # A bot added with `bot add` (which creates the store) is listed beside them.
    added = cli("bot", "add", folder, random_bot(tmp_path / "src", "re"))
    assert added.returncode == 0, added.stderr
    status = cli("tournament", "status", folder).stdout
    assert "re 1.0.0" in status and "(submitted)" in status
    assert sum("(listed; registered by the first run)" in line
               for line in status.splitlines()) == 3
    # A --bot folder already inside the tournament folder is listed where it is.
    inner = tmp_path / "u"
    bots = [random_bot(inner / "mine", n) for n in ("ra", "rz", "ry")]
    made = cli("tournament", "new", inner, *[a for b in bots for a in ("--bot", b)])
    assert made.returncode == 0, made.stderr
    assert tomllib.loads((inner / "tournament.toml").read_text())["bots"] == [
        "mine/ra", "mine/rz", "mine/ry"]
    assert not (inner / "sources").exists()


def test_new_refuses_a_tournament_inside_its_bot(tmp_path: Path) -> None:
    bot = random_bot(tmp_path, "rb")
    made = cli("tournament", "new", bot / "t", "--bot", bot)
    # Refused before the --bot is looked at: the folder itself is inside a bot.
    assert made.returncode == 2 and f"inside the bot folder {bot}" in made.stderr
    assert "Traceback" not in made.stderr


@pytest.mark.slow
def test_a_copied_then_moved_tournament_folder_runs_as_before(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    sources = new_tournament(tmp_path, folder, ("rb", "rc", "rd"))
    copy = tmp_path / "elsewhere" / "deeper" / "t2"
    shutil.copytree(folder, copy)
    for source in sources:  # the bots' own folders are gone
        shutil.rmtree(source)
    first = cli("tournament", "run", copy)
    assert first.returncode == 0, first.stderr
    assert "6/6 matches finished (6 played now, 0 failed)" in first.stdout
    board = cli_here("leaderboard", "publish", copy, "--out", tmp_path / "b1")
    assert board.returncode == 0, board.stderr

    moved = tmp_path / "moved"
    shutil.move(copy, moved)
    status = cli_here("tournament", "status", moved)
    assert status.returncode == 0, status.stderr
    assert "finished 6 (of 6" in status.stdout
    again = cli("tournament", "run", moved)
    assert again.returncode == 0, again.stderr
    assert "6/6 matches finished (0 played now, 0 failed)" in again.stdout  # nothing replayed
    board = cli("leaderboard", "publish", moved, "--out", tmp_path / "b2")
    assert board.returncode == 0, board.stderr
    rows = [json.loads((tmp_path / b / "leaderboard.json").read_text())["rows"]
            for b in ("b1", "b2")]
    assert rows[0] == rows[1] and len(rows[0]) == 3


@pytest.mark.slow
def test_a_moved_folder_reads_its_results_with_a_listed_source_gone(tmp_path: Path) -> None:
    """The store records which bot each listed folder held keyed relative to
    the tournament, so once the folder is moved, status and the leaderboard
    still need no source folder (keyed by absolute path, the moved folder's
    paths were unknown to it and each was read: a folder gone was an error)."""
    folder = tmp_path / "t"
    new_tournament(tmp_path, folder, ("rb", "rc", "rd"))
    first = cli("tournament", "run", folder)
    assert first.returncode == 0, first.stderr
    moved = tmp_path / "moved"
    shutil.move(folder, moved)
    shutil.rmtree(moved / "sources" / "rc")
    status = cli("tournament", "status", moved)
    assert status.returncode == 0, status.stderr
    assert "finished 6 (of 6" in status.stdout and "rc 1.0.0" in status.stdout
    board = cli_here("leaderboard", "show", moved)
    assert board.returncode == 0, board.stderr
    assert "| rc |" in board.stdout
    # Running needs the listed folders: refused in one line, nothing changed.
    again = cli_here("tournament", "run", moved)
    assert again.returncode == 2 and "key 'bots[1]'" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


def test_a_store_with_absolute_folder_keys_still_names_its_listed_bots(tmp_path: Path) -> None:
    """Stores written before relative keys recorded absolute paths: read as before."""
    from arena.tournament.plan.config import load_config
    from arena.tournament.plan.registry import CONFIG_BOTS_KEY, field_names
    from arena.tournament.store import Store

    folder = tmp_path / "t"
    new_tournament(tmp_path, folder, ("rb", "rc", "rd"))
    config = load_config(folder)
    with Store(config.store_path) as store:
        store.set_json(CONFIG_BOTS_KEY, {p: Path(p).name for p in config.bot_paths})
    shutil.rmtree(folder / "sources" / "rc")
    with Store(config.store_path) as store:
        assert field_names(load_config(folder, check_bots=False), store) == ["rb", "rc", "rd"]
