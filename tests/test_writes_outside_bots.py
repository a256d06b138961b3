"""No command writes into a bot's folder (one with bot.toml): what it writes
there would be part of the bot (its content hash, so its version, would
change) and, worse, a bot reads its own folder at every sandbox level, so a
replay part file or another bot's log written there while the match is
played would show it cards it may not see. Every option that names where a
command writes (play --replay/--logs, serve --lobby --data, gauntlet --dir,
tournament new) is refused in one line when it lies in a bot's folder, and
nothing is written: the bot's content hash is unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clihelp import ROOT, cli, refused

from arena.sandbox.botfile import folder_hash

RANDOM = ROOT / "sample_bots" / "random"

pytestmark = [pytest.mark.slow]


def a_bot(tmp: Path, name: str) -> Path:
    folder = tmp / name
    shutil.copytree(RANDOM, folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', f'name = "{name}"'))
    return folder


@pytest.mark.parametrize("where", ["own", "another"])
def test_nothing_is_written_into_a_bots_folder(tmp_path: Path, where: str) -> None:
    seats = [a_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    # a seat's own folder, or the folder of a bot that does not play
    home = seats[0] if where == "own" else a_bot(tmp_path, "rd")
    before = folder_hash(home)
    inside = home / "out" / "deeper"
    # (a gauntlet's own bot is named by its own line: "whose copy would contain it")
    said = f"inside the bot folder {home} ("
    replay = inside / "m.jsonl"
    for args, named in (
            (("play", *seats, "--replay", replay), f"--replay {replay}"),
            (("play", *seats, "--logs", inside), f"--logs {inside}"),
            (("serve", "--lobby", "--bot", seats[0], "--data", inside, "--port", "0"),
             f"--data {inside}"),
            (("gauntlet", seats[0], "--against", seats[1], "--against", seats[2],
              "--dir", inside), f"--dir {inside}"),
            (("tournament", "new", inside, "--bot", seats[1]), str(inside))):
        done = cli(*args)
        refused(done, said)
        assert done.stderr.startswith(f"error: {named}: inside the bot folder"), done.stderr
        assert not (home / "out").exists() and folder_hash(home) == before, args
    # the folder itself, not only below it
    refused(cli("play", *seats, "--logs", home), f"--logs {home}: a bot's folder (it has bot.toml)")
    refused(cli("play", *seats, "--replay", home / "m.jsonl"),
            f"--replay {home / 'm.jsonl'}: inside the bot folder {home}")
    assert folder_hash(home) == before


def test_beside_the_bots_is_fine(tmp_path: Path) -> None:
    """The refusal is of a bot's folder only: a folder beside the bots
    takes the replay and the logs, and the bots' content is unchanged."""
    seats = [a_bot(tmp_path, n) for n in ("ra", "rb", "rc")]
    hashes = [folder_hash(s) for s in seats]
    done = cli("play", *seats, "--sandbox", "process", "--option", "target=500", "--option",
               "max_deals=1", "--replay", tmp_path / "out" / "m.jsonl", "--logs", tmp_path / "logs")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "m.jsonl").is_file() and any((tmp_path / "logs").iterdir())
    assert [folder_hash(s) for s in seats] == hashes
