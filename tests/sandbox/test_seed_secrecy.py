"""No value a bot can see lets it re-deal its match (docs/sandbox.md).

A real `arena play` (real bot processes, real gRPC, the seed and match id
chosen by the command as a user gets them) seats a bot that collects
everything it sees: every message, its environment, arguments, working
folder, the files it can read in its sandbox, /proc/self, its host name and
socket path. Every number in all of it, every run of digits and each of its
substrings, and every run of hex digits is tried as a seed for the engine's
`new_game`, as a cheating bot would try them: none deals the bot's own first
hand. The true seed does (the search can find a seed that is there).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from clihelp import cli

from arena.game import Rules
from arena.referee.bot_seed import bot_seed

from .attacks import leftovers
from .conftest import level_params
from .redeal import candidates, first_hand, redeals, seen_lines, whole_deal

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def test_the_search_finds_a_seed_that_is_there() -> None:
    """The check below cannot pass by being blind: a seed hidden in a text,
    as a match id, inside a longer run of digits or in hex, is found and
    deals the hand; the neighbours of the seed do not."""
    rules = Rules.preset("standard")
    seed = 7_318_273_645_112_901
    hand = first_hand(rules, seed, 0)
    for seen in ({"match_id": f"play-{seed}"}, {"path": f"/tmp/x{seed}99/sock"},
                 {"n": seed}, {"env": {"X": f"{seed:x}"}}):
        assert redeals(candidates(seen), rules, 0, hand, seed) == [seed], seen
    assert redeals({seed - 1, seed + 1, 11, 0}, rules, 0, hand, seed) == []


def test_a_seed_that_deals_only_the_same_hand_is_not_a_redeal() -> None:
    """Seeds 790 and 2287 deal seat 0 the same seven cards and the others
    different ones (a coincidence of one in 346,104 a seed): to a bot
    holding 790's hand, 2287 is no redeal, as it tells nothing of the rest."""
    rules = Rules.preset("standard")
    hand = first_hand(rules, 790, 0)
    assert first_hand(rules, 2287, 0) == hand
    assert whole_deal(rules, 2287) != whole_deal(rules, 790)
    assert redeals({2287, 790}, rules, 0, hand, 790) == [790]


def test_bot_seeds_are_keyed_not_derived_from_the_deal_seed() -> None:
    """ARENA_SEED is an HMAC of the match key: the same key gives the same
    seeds (a match repeats), another key other seeds, and no deal seed
    goes in at all."""
    assert bot_seed("k", 0) == bot_seed("k", 0) != bot_seed("k", 1)
    assert bot_seed("k", 0) != bot_seed("l", 0)
    assert all(0 <= bot_seed("k", s) < 2**63 for s in range(4))
    with pytest.raises(ValueError):
        bot_seed("", 0)


def _snoop(root: Path) -> Path:
    folder = root / "bots" / "seed_snoop"
    folder.mkdir(parents=True)
    for name in ("adversary.py", "reach.py"):
        shutil.copy(HERE / "adversaries" / name, folder / name)
    shutil.copy(HERE / "adversaries" / "seed_snoop.py", folder / "bot.py")
    (folder / "bot.toml").write_text(
        'name = "seed-snoop"\nversion = "1"\nlanguage = "python"\n'
        'run = "python3 bot.py"\nimage = "arena-python:1"\n')
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("level", level_params())
def test_nothing_a_bot_sees_redeals_its_match(tmp_path: Path, level: str) -> None:
    os.chmod(tmp_path, 0o755)
    snoop = _snoop(tmp_path)
    other = tmp_path / "bots" / "random"
    shutil.copytree(ROOT / "sample_bots" / "random", other,
                    ignore=shutil.ignore_patterns("__pycache__"))
    logs = tmp_path / "logs"
    done = cli("play", snoop, other, other, "--sandbox", level, "--option", "max_deals=1",
               "--time-per-move", "5", "--startup", "120", "--logs", logs, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    seed = result["seed"]
    assert [s["status"] for s in result["seats"]] == ["ok", "ok", "ok"], result["seats"]
    assert all(n == 0 for s in result["seats"] for _, n in s["faults"]), result["seats"]
    assert all(s["sandbox"] == level for s in result["seats"])
    assert leftovers(tmp_path) == []

    log = Path(result["seats"][0]["log_path"]).read_text(errors="replace")
    seen = seen_lines(log)
    assert seen["messages"] and seen["env"]["ARENA_SEED"] and seen["files"], seen.keys()
    rules = Rules.preset("standard")
    hand = first_hand(rules, seed, 0)  # what the bot holds when the deal starts
    if seen["first_phase"] == "bidding 1":
        # It held the dealt hand at its first decision (the auction can end
        # before its turn, and then the exchange has changed its hand; or
        # another seat asked for a redeal first).
        assert seen["hand"] == hand
    text = json.dumps(seen)
    assert str(seed) not in text and result["match_id"] in text
    found = candidates(seen)
    assert len(found) > 100  # it did see numbers: the socket path, its seed, the observations
    assert seed not in found
    assert redeals(found, rules, 0, hand, seed) == []
