"""A real tournament keeps its seed from the bots, and a new version of a bot
does not get deals that the old version's replays or kept logs show.

`arena tournament run` (real bot processes at the strongest of bwrap and
process available, real gRPC, a real store) seats a bot that collects
everything it sees (tests/sandbox/adversaries/seed_snoop.py; its first
reply is malformed so that the tournament keeps its log). No number in
anything it saw, in any of its matches, is the tournament seed or a deal
seed or deals its hand. Then its author reads the finished matches'
replays and ships a new version that knows every hand dealt there: it is
never dealt one of them (new_version_deals = "auto" with replays kept).
Once the seed is published, a version shipped after it is refused.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
from pathlib import Path

import pytest
from clihelp import cli, cli_ok, refused

from arena.game import Rules
from arena.sandbox import available_levels

from .attacks import attack_field, leftovers
from .redeal import candidates, first_hand, redeals, seen_lines, whole_deal

pytestmark = pytest.mark.slow
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]




def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return cli_ok(*args, cwd=cwd, timeout=900)


def _snoop_logs(folder: Path) -> dict[str, tuple[int, str]]:
    """match id -> (the snoop's seat, its log), from the kept fault logs."""
    out = {}
    for path in (folder / "logs").glob("*-seed-snoop.log"):
        match_id, seat = re.fullmatch(r"(.*)-seat(\d)-seed-snoop\.log", path.name).groups()
        out[match_id] = (int(seat), path.read_text(errors="replace"))
    return out


@pytest.mark.parametrize("replays", [True, False], ids=["replays", "logs-only"])
def test_a_tournament_seed_stays_secret_and_new_versions_get_unseen_deals(
        tmp_path: Path, replays: bool) -> None:
    from arena.tournament.store import Store

    level = "bwrap" if "bwrap" in available_levels() else "process"
    os.chmod(tmp_path, 0o755)
    bots = attack_field(tmp_path, "seed_snoop", "seed-snoop", {"fault": True})
    folder = tmp_path / "secret"
    folder.mkdir()
    seed = secrets.randbelow(2**63)
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "secret"\nseed = {seed}\nbots = [{listed}]\nduplicate_sets = 1\n'
        f'sandbox = "{level}"\nreplays = {str(replays).lower()}\nconcurrency = 1\nbootstrap = 0\n'
        '[rules]\npreset = "standard"\nmax_deals = 1\n'
        '[time_control]\nper_move = 5.0\nstartup = 60.0\n')
    rules = Rules.preset("standard")
    _run("tournament", "run", str(folder), "-q", cwd=tmp_path)
    with Store(folder / "tournament.sqlite") as store:
        first = {r.match_id: r for r in store.matches()}
    logs = _snoop_logs(folder)
    assert len(first) == 6 and set(logs) == set(first)
    for match_id, (seat, log) in logs.items():
        deal_seed = first[match_id].seed
        seen = seen_lines(log)
        assert seen["messages"] and seen["files"], log[-2000:]
        hand = first_hand(rules, deal_seed, seat)
        if seen["first_phase"] == "bidding 1":
            assert seen["hand"] == hand
        text = json.dumps(seen)
        assert str(seed) not in text and str(deal_seed) not in text and match_id in text
        found = candidates(seen)
        assert seed not in found and deal_seed not in found
        assert redeals(found, rules, seat, hand, deal_seed) == [], match_id
    assert leftovers(tmp_path) == []

    # The author reads every replay and ships a version that knows those hands;
    # without replays, the kept logs of its faulty seats (what it printed:
    # the hand it held in each seat order, every hand of the deal).
    known, dealt = [], []
    if replays:
        for replay in (folder / "replays").glob("*.jsonl"):
            header = json.loads(replay.read_text().splitlines()[0])
            known += [first_hand(rules, header["seed"], s) for s in range(3)]
            dealt.append(whole_deal(rules, header["seed"]))
        assert len(known) == 18
    else:
        assert not (folder / "replays").exists()
        for match_id, (_, log) in logs.items():
            known.append(seen_lines(log)["hand"])
            dealt.append(whole_deal(rules, first[match_id].seed))
        assert len(known) == 6 and all(known)
    (bots[0] / "attack.json").write_text(json.dumps({"fault": True, "known_hands": known}))
    _run("tournament", "run", str(folder), "-q", cwd=tmp_path)
    with Store(folder / "tournament.sqlite") as store:
        second = {r.match_id: r for r in store.matches() if r.match_id not in first}
    assert len(second) == 6
    assert {r.seed for r in second.values()}.isdisjoint({r.seed for r in first.values()})
    answers = [re.findall(r"^ATTACK known deal: (\w+)$", log, re.MULTILINE)
               for match_id, (_, log) in _snoop_logs(folder).items() if match_id in second]
    assert len(answers) == 6 and all(a in (["no"], ["unsure"]) for a in answers), answers
    assert ["no"] in answers  # it held its dealt hand at least once, and did not know it
    # New seeds, new deals: compared whole (a single hand matches another
    # seed's by chance once in 346,104; redeal.py).
    for row in second.values():
        assert whole_deal(rules, row.seed) not in dealt
    assert leftovers(tmp_path) == []

    # Published: the seed with its salt (every planned match is finished).
    # From it anyone deals every match to come, fresh seeds included
    # (schedule.deal_seed is public): a version shipped after it is refused.
    _run("leaderboard", "publish", str(folder), "--out", str(tmp_path / "board"), cwd=tmp_path)
    published = json.loads((tmp_path / "board" / "leaderboard.json").read_text())["seed"]
    assert published["seed"] == seed
    (bots[0] / "attack.json").write_text(json.dumps({"fault": True, "seed": seed}))
    refused(cli("tournament", "run", str(folder), "-q", cwd=tmp_path),
            "the tournament seed was published (arena leaderboard publish) before seed-snoop 1 joined")
    with Store(folder / "tournament.sqlite") as store:
        assert {r.match_id for r in store.matches()} == set(first) | set(second)
