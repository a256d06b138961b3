"""The learned sample bot in real matches, and the environment's seeds:
`arena play --seed S` with the learned bot (through the real referee, as
real processes) is re-played action by action in the AEC environment reset
with seed S: every action of the match is legal there and every deal ends
with the same totals, so the env deals what matches deal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sdk.fake_referee import first_decision

import arena.env
from arena.env import encoding
from arena.env.policy import MLPPolicy, PolicyBot
from arena.game.actions import parse_action
from arena.sdk.bot import Observation

ROOT = Path(__file__).resolve().parents[2]
ARENA = str(Path(sys.executable).with_name("arena"))


def replay_in_env(replay: Path, preset: str, options: dict[str, int]) -> int:
    """Steps the match's actions through the env; returns the deals checked."""
    lines = [json.loads(x) for x in replay.read_text().splitlines()]
    header = lines[0]
    env = arena.env.aec(preset, **options)
    env.reset(seed=header["seed"])
    deals = 0
    for rec in lines[1:]:
        if rec["type"] == "action":
            assert env.agent_selection == f"seat_{rec['seat']}"
            obs = env.observe(env.agent_selection)
            index = encoding.action_index(parse_action(rec["action"]))
            assert obs["action_mask"][index] == 1, rec
            env.step(index)
        elif rec["type"] == "deal":
            assert env.table is not None
            done = env.table.state.deals
            assert len(done) >= rec["deal_number"]
            assert list(done[rec["deal_number"] - 1].totals) == rec["totals"]
            deals += 1
    assert env.table is not None and env.table.state.is_over
    return deals


@pytest.mark.slow
@pytest.mark.parametrize("seed,seats", [(11, ("learned", "greedy", "random")),
                                        (12, ("random", "learned", "greedy"))])
def test_arena_play_with_the_learned_bot_deals_as_the_env(tmp_path: Path, seed: int,
                                                          seats: tuple[str, ...]) -> None:
    replay = tmp_path / "match.jsonl"
    done = subprocess.run(
        [ARENA, "play", *(str(ROOT / "sample_bots" / b) for b in seats), "--seed", str(seed),
         "--rules", "standard", "--option", "target=500", "--sandbox", "process",
         "--replay", str(replay), "--json"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    learned = next(s for s in result["seats"] if s["bot"] == "learned")
    assert all(s["status"] == "ok" for s in result["seats"])
    assert learned["decisions"] > 20 and all(n == 0 for _, n in learned["faults"])
    assert replay_in_env(replay, "standard", {"target": 500}) >= 1


def test_the_learned_weights_fit_the_encoding_and_pick_legal_actions() -> None:
    policy = MLPPolicy.load(ROOT / "sample_bots" / "learned" / "weights.npz")
    env = arena.env.aec("czech")
    env.reset(seed=3)
    for _ in range(300):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            break
        choice = policy(obs)
        assert obs["action_mask"][choice] == 1
        env.step(choice)


def test_policy_bot_refuses_an_illegal_choice_in_one_line() -> None:
    obs = Observation(first_decision())
    legal = [encoding.action_index(a) for a in obs.legal_actions]
    bad = next(i for i in range(encoding.ACTIONS) if i not in legal)
    bot = PolicyBot(lambda o: bad, name="bad")
    with pytest.raises(ValueError, match=f"policy chose action index {bad}, not one of the legal"):
        bot.act(obs)
    good = PolicyBot(lambda o: int(np.flatnonzero(o["action_mask"])[-1]))
    assert good.act(obs) == obs.legal_actions[-1]


@pytest.mark.slow
def test_the_core_package_never_imports_the_learning_libraries() -> None:
    """Bots, the referee and the CLI load without them; arena.env loads
    without the referee."""
    code = ("import sys\n"
            "import arena.sdk, arena.env.policy, arena.env.encoding, arena.referee, arena.cli\n"
            "bad = [m for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'rlcard') if m in sys.modules]\n"
            "assert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    code2 = ("import sys\nimport arena.env.aec_env, arena.env.single_env, arena.env.spiel\n"
             "ref = [m for m in sys.modules if m.startswith(('arena.referee', 'arena.sandbox', 'arena.tournament'))]\n"
             "assert not ref, ref\n")
    done = subprocess.run([sys.executable, "-c", code2], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.docker
def test_the_learned_bot_plays_at_the_docker_level(tmp_path: Path) -> None:
    """Its bot.toml names arena-numpy:1 (the Python image plus numpy), which
    the docker level builds the first time a bot names it; then it plays."""
    from arena.sandbox.levels import available_levels

    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    done = subprocess.run([ARENA, "bot", "check", str(ROOT / "sample_bots" / "learned"),
                           "--sandbox", "docker"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "started (sandbox level: docker)" in done.stdout
    assert "finished the match" in done.stdout


@pytest.mark.slow
def test_the_learned_bot_is_entered_in_a_tournament(tmp_path: Path) -> None:
    """From policy to bot to table: the learned bot in a real tournament
    (`arena tournament run`, then `arena leaderboard show`) with greedy and
    random, one duplicate set of short matches."""
    from builders import tournament_toml

    folder = tournament_toml(
        tmp_path / "t", [ROOT / "sample_bots" / b for b in ("learned", "greedy", "random")],
        name="entered", seed=2**50 + 17, sandbox="process", concurrency=1, cpu_slots=False,
        rules={"preset": "standard", "max_deals": 2})
    run = subprocess.run([ARENA, "tournament", "run", str(folder), "-q"], capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    board = subprocess.run([ARENA, "leaderboard", "show", str(folder)], capture_output=True,
                           text=True, timeout=120)
    assert board.returncode == 0, board.stderr
    rows = {cells[2]: cells for line in board.stdout.splitlines()
            if line.startswith("| ") and len(cells := [c.strip() for c in line.split("|")]) > 8}
    assert set(rows) >= {"learned", "greedy", "random"}, board.stdout
    assert rows["learned"][3] == "1.0.0" and rows["learned"][8] == "6", rows["learned"]
