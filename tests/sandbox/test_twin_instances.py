"""A bot's two instances on the same deals at once would tell each other
their hands; a tournament never plays them so (arena/tournament/executors/deal_gate.py).

The channel: every sandbox of a bot mounts its one folder, and a lock taken
on a file there (flock needs no write access) is seen from every other
sandbox on the kernel. The twin bot (adversaries/twin.py) locks a file per
card of its hand and reads which card files another instance holds.

1. The channel is real: two `arena play` runs on one seed, the twin in seat
   0 of one and seat 1 of the other, the second started once the first holds
   its locks (read from the host's /proc/locks, no clock): the second learns
   seat 0's hand, a hand of its own deal it may not see.
2. `arena tournament run` with two matches at once (two duplicate sets, six
   seat orders each on one deal seed): no twin learns a hand of its own
   deal, as no two matches on one seed are played at the same time.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from clihelp import cli_ok, start

from arena.game import Rules
from arena.sandbox import available_levels

from .attacks import attack_field, leftovers
from .redeal import first_hand, whole_deal

pytestmark = pytest.mark.slow
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
LEVEL = "bwrap" if "bwrap" in available_levels() else "process"
RULES = "lithuanian"  # no redeals: the first hands are the deal's
CARDS = [r + s for s in "CDHS" for r in "AKQJT9"]


def _bots(root: Path, config: dict[str, object]) -> list[Path]:
    """The twin and two random bots; the twin's folder holds a file per card
    (the files it locks to tell its other instance its hand)."""
    field = attack_field(root, "twin", "twin", config, image="arena-python:1")
    (field[0] / "cards").mkdir()
    for card in CARDS:
        (field[0] / "cards" / card).write_text("")
    return field


def _told(log: str) -> tuple[int, list[str], list[str]]:
    """The twin's seat, hand and the cards it saw another instance hold."""
    m = re.search(r"^ATTACK twin: seat (\d) hand ([\w ]+?) saw ([\w ]+)$", log, re.MULTILINE)
    assert m, log[-2000:]
    seen = [] if m.group(3) == "nothing" else m.group(3).split()
    return int(m.group(1)), m.group(2).split(), seen


def _locks_on(folder: Path) -> int:
    """How many locks are held on the twin's card files (the host's
    /proc/locks: `1: FLOCK  ADVISORY  WRITE 123 fe:00:2269419 0 EOF`, device
    numbers in hex; a waiter's line has `->` before its kind)."""
    files = set()
    for card in CARDS:
        st = os.stat(folder / "cards" / card)
        files.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
    held = 0
    for line in Path("/proc/locks").read_text().splitlines():
        m = re.search(r" ([0-9a-f]+):([0-9a-f]+):(\d+) ", line)
        if "->" not in line and m and (int(m[1], 16), int(m[2], 16), int(m[3])) in files:
            held += 1
    return held


def test_two_instances_on_the_same_deals_tell_each_other_their_hands(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)
    twin, one, two = _bots(tmp_path, {"wait": 120})
    seed = 424242
    common = ("--seed", seed, "--rules", RULES, "--sandbox", LEVEL, "--option", "max_deals=1",
              "--time-per-move", "150", "--startup", "60")
    (tmp_path / "logs1").mkdir()
    (tmp_path / "logs2").mkdir()
    first = start("play", twin, one, two, *common, "--logs", tmp_path / "logs1",
                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while _locks_on(twin) < 7:  # its first decision: its hand is locked
            assert first.poll() is None, first.communicate()
            time.sleep(0.1)
        cli_ok("play", one, twin, two, *common, "--logs", tmp_path / "logs2",
               cwd=tmp_path, timeout=600)
        _, err = first.communicate(timeout=600)
        assert first.returncode == 0, err[-3000:]
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    [log1] = (tmp_path / "logs1").glob("*-twin.log")
    [log2] = (tmp_path / "logs2").glob("*-twin.log")
    seat1, hand1, _ = _told(log1.read_text())
    seat2, hand2, seen2 = _told(log2.read_text())
    rules = Rules.preset(RULES)
    assert (seat1, seat2) == (0, 1)
    assert hand1 == first_hand(rules, seed, 0) and hand2 == first_hand(rules, seed, 1)
    assert seen2 == hand1  # seat 0's hand, told to seat 1 of the same deal
    assert leftovers(tmp_path) == []


def test_a_tournament_never_seats_a_bot_twice_on_the_same_deals_at_once(tmp_path: Path) -> None:
    from arena.tournament.store import Store

    os.chmod(tmp_path, 0o755)
    bots = _bots(tmp_path, {"wait": 3, "fault": True})
    folder = tmp_path / "twins"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "twins"\nseed = {2**50 + 11}\nbots = [{listed}]\nduplicate_sets = 2\n'
        f'sandbox = "{LEVEL}"\nreplays = false\nconcurrency = 2\nbootstrap = 0\n'
        f'[rules]\npreset = "{RULES}"\nmax_deals = 1\n'
        '[time_control]\nper_move = 10.0\nstartup = 60.0\n')
    cli_ok("tournament", "run", str(folder), "-q", cwd=tmp_path, timeout=900)
    with Store(folder / "tournament.sqlite") as store:
        rows = {r.match_id: r for r in store.matches()}
    logs = {re.fullmatch(r"(.*)-seat\d-twin\.log", p.name).group(1): p.read_text()  # type: ignore[union-attr]
            for p in (folder / "logs").glob("*-twin.log")}
    assert len(rows) == 12 and set(logs) == set(rows)
    rules = Rules.preset(RULES)
    for match_id, log in logs.items():
        seat, hand, seen = _told(log)
        deal = whole_deal(rules, rows[match_id].seed)
        assert deal[seat] == hand
        learned = [s for s in range(3) if s != seat and set(deal[s]) <= set(seen)]
        assert learned == [], f"{match_id}: the twin in seat {seat} learned seat {learned}'s hand"
    assert leftovers(tmp_path) == []
