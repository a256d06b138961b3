"""benchmarks/strength.py as a user runs it: a line of whole games written
game by game, resumed without replaying, the table printed; a bad line named."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "strength.py"


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=600)


@pytest.mark.slow
def test_games_are_checkpointed_resumed_and_reported(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    first = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:czech", "--out", out)
    assert first.returncode == 0, first.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["seat"] for r in rows) == [0, 1, 2]       # the same deals, focus in each seat
    assert len({r["seed"] for r in rows}) == 1
    assert all(max(r["totals"]) >= 1000 or r["deals"] >= 200 for r in rows)  # whole games
    assert all(r["search_cpu"] for r in rows)
    # Each seat's contracts: declared at least as often as made, and every
    # deal with a declarer counted once.
    for r in rows:
        assert all(0 <= made <= n for n, made in r["declared"])
        assert 0 < sum(n for n, _ in r["declared"]) <= r["deals"]
    assert "| search-vs-greedy:czech | 3 |" in first.stdout
    assert "search-vs-greedy:czech: contracts made, focus bot " in first.stdout
    again = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:czech", "--out", out)
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 3  # nothing replayed


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    done = run("--lines", "search-vs-clever:standard", "--out", tmp_path / "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "strength.py: bad line 'search-vs-clever:standard': want FOCUS-vs-OTHER:PRESET, two of "
        "search, greedy, random, learned, e.g. search-vs-greedy:standard"]
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.slow
def test_an_experiment_is_recorded_and_resumed_apart(tmp_path: Path) -> None:
    """--set and --auction-work are part of a game's key: the same seeds
    under another setting are played again, not taken for the default's."""
    out = tmp_path / "s.jsonl"
    base = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:standard", "--out", out)
    assert base.returncode == 0, base.stderr
    varied = run("--games", 3, "--work", 2, "--auction-work", 4, "--set", "scoring.SECOND=-600",
                 "--lines", "search-vs-greedy:standard", "--out", out)
    assert varied.returncode == 0, varied.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 6
    assert [(r["auction_work"], r["settings"]) for r in rows[3:]] == [
        (4, {"scoring.SECOND": -600})] * 3
    assert "4 per auction, give, contract or offer" in varied.stdout
    assert "scoring.SECOND = -600" in varied.stdout


@pytest.mark.parametrize("item", ["NOPE=1", "scoring.SECOND=x", "Context=1", "scoring.Scorer=2"])
def test_a_bad_setting_is_named(tmp_path: Path, item: str) -> None:
    done = run("--set", item, "--out", tmp_path / "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"strength.py: bad --set {item!r}: want NAME=INT for a constant of search_policy "
        "(or scoring.NAME)"]
    assert not (tmp_path / "x.jsonl").exists()


def _strength_module() -> object:
    spec = importlib.util.spec_from_file_location("strength_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_oracle_hands_the_search_the_true_deal_only_where_asked() -> None:
    """--oracle-phases play: a card play sees the true hands (every seat's,
    the talon taken, the gives), any other decision the sampler's deals."""
    strength: Any = _strength_module()
    import search_policy  # the benchmark put the bot's folder on sys.path

    from arena.game import Rules, new_game

    rules = Rules.preset("standard")
    strength._oracle_in.update({"play"})
    real_deals = strength._sampled_deals
    try:
        search_policy.Context.deals = strength._oracle_deals
        g = new_game(rules, 20000)
        checked = set()
        while not g.is_over and checked != {"bidding", "play"}:
            seat = g.to_act
            obs = strength.wire(g.observation(seat).to_dict())
            legal = g.legal_actions()
            if len(legal) > 1 and g.phase in ("bidding", "play"):
                strength._truth[:] = [strength.true_deal(g)]
                ctx = search_policy.Context(rules, obs, 5, 1, search_policy.Budget.start(1e9, 1e9))
                deals = ctx.deals(5)
                truth = tuple(tuple(g.hand(s)) for s in range(3))
                if g.phase == "play":
                    assert [d.hands for d in deals] == [truth]
                else:
                    # Sampled: five deals, each keeping this seat's own hand,
                    # not the truth handed over.
                    assert len(deals) == 5
                    assert all(d.hands[seat] == truth[seat] for d in deals)
                    assert any(d.hands != truth for d in deals)
                checked.add(g.phase)
            texts = [str(a) for a in legal]
            g = g.apply(legal[texts.index(strength.greedy_choose(obs, texts))])
        assert checked == {"bidding", "play"}
    finally:
        search_policy.Context.deals = real_deals


@pytest.mark.slow
def test_an_oracle_run_is_a_bound_recorded_apart(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    bound = run("--games", 3, "--work", 2, "--oracle", "--lines", "search-vs-greedy:standard",
                "--out", out)
    assert bound.returncode == 0, bound.stderr
    assert "ORACLE (a bound, not a bot): the true deal in every decision" in bound.stdout
    real = run("--games", 3, "--work", 2, "--lines", "search-vs-greedy:standard", "--out", out)
    assert real.returncode == 0, real.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["settings"] for r in rows] == [{"oracle": 1}] * 3 + [{}] * 3
    assert "ORACLE" not in real.stdout
