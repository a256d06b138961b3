"""`bank = 0` (no time bank) is one rule for `arena play --bank 0` and for
tournament.toml: both play with it, both refuse a negative bank."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import ROOT, cli, refused

from .folders import random_bot, write

RANDOM = ROOT / "sample_bots" / "random"


def bank_config(folder: Path, bots: list[Path], bank: str) -> None:
    write(folder, bots)
    with (folder / "tournament.toml").open("a") as f:
        f.write(f"[time_control]\nbank = {bank}\n")


@pytest.mark.slow
def test_bank_zero_plays_in_both_commands(tmp_path: Path) -> None:
    replay = tmp_path / "m.jsonl"
    played = cli("play", RANDOM, RANDOM, RANDOM, "--bank", "0", "--sandbox", "process",
                 "--option", "max_deals=1", "--seed", "5", "--replay", replay, "--json")
    assert played.returncode == 0, played.stderr
    header = json.loads(replay.read_text().splitlines()[0])
    assert header["time_control"]["bank"] == 0

    folder = tmp_path / "t"
    bank_config(folder, [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")], "0")
    run = cli("tournament", "run", folder)
    assert run.returncode == 0, run.stderr
    assert "6/6 matches finished" in run.stdout


@pytest.mark.slow
def test_a_negative_bank_is_refused_by_both(tmp_path: Path) -> None:
    refused(cli("play", RANDOM, RANDOM, RANDOM, "--bank", "-1"), "--bank -1")
    folder = tmp_path / "t"
    bank_config(folder, [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")], "-1")
    refused(cli("tournament", "run", folder), "key 'time_control.bank': must be >= 0 seconds")
