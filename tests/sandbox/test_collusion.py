"""Two different bots at one table cannot pass cards through the files the
engine mounts into their containers (arena/sandbox/own_init.py).

The colluders (adversaries/colluder.py) look up every file mounted into
their container from the host and use read locks on its bytes as a channel
(a lock needs no write access). Docker's `--init` mounts one host file,
its init binary, into every container: through it the reader got the
sender's whole hand. Each container now runs its init from a copy of its
own, and the reader gets nothing.

Only at the docker level: at bwrap the system's folders are bound from the
host into every sandbox, and colluding bots share them (docs/sandbox.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox import available_levels
from arena.sandbox.botfile import BotSpec, load_bot

from .attacks import HERE, leftovers, random_bot

pytestmark = [pytest.mark.slow, pytest.mark.docker,
              pytest.mark.skipif("docker" not in available_levels(),
                                 reason="sandbox level 'docker' unavailable here")]


def _colluder(root: Path, name: str, role: str) -> BotSpec:
    folder = root / "bots" / name
    folder.mkdir(parents=True)
    for shared in ("adversary.py", "reach.py"):
        shutil.copy(HERE / "adversaries" / shared, folder / shared)
    shutil.copy(HERE / "adversaries" / "colluder.py", folder / "bot.py")
    (folder / "attack.json").write_text(json.dumps({"role": role}))
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\nimage = "arena-python:1"\n')
    return load_bot(folder)


def test_colluding_bots_share_no_locked_file(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)
    sender, reader = _colluder(tmp_path, "sender", "send"), _colluder(tmp_path, "reader", "read")
    spec = MatchSpec(
        match_id="collusion", bots=(sender, reader, random_bot(tmp_path)), seed=5,
        sandbox="docker", rules_preset="lithuanian", rules_options=(("max_deals", 2),),
        work_dir=str(tmp_path / "work"),
        time_control=TimeControl(per_move=10.0, bank=20.0, startup=120.0))
    (tmp_path / "work").mkdir()
    result = run_match(spec)
    logs = [Path(s.log_path).read_text(errors="replace") for s in result.seats[:2]]
    [sent] = re.findall(r"^ATTACK collude: sent ([\w ]+) on (\d+) files$", logs[0], re.MULTILINE)
    hand, files = sent[0].split(), int(sent[1])
    assert len(hand) == 7 and files >= 1, logs[0][-2000:]  # it did lock (its own /bot at least)
    reads = re.findall(r"^ATTACK collude: read ([\w ]+)$", logs[1], re.MULTILINE)
    assert len(reads) >= 2, logs[1][-2000:]
    seen = {c for r in reads if r != "nothing" for c in r.split()}
    assert seen == set(), f"the reader learned {sorted(seen)} (the sender held {hand})"
    assert all(s.status == "ok" for s in result.seats), result
    assert leftovers(tmp_path) == []
