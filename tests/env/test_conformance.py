"""The environments pass their libraries' own conformance checks:
PettingZoo's api_test and seed_test, Gymnasium's check_env, OpenSpiel's
random simulation test, over rule variants (3, 4 and 2 players, discards,
blind bids, the Finnish lottery)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import arena.env
from arena.env import encoding
from arena.env.core import EnvError

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}), ("czech", {"blind": "czech"}), ("finnish", {"exchange": "discard"}),
    ("finnish", {"players": 4, "lottery": True}), ("standard", {"players": 2}),
    ("standard", {"players": 2, "two_player_form": "banks"}),
]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # The checkers' advice for other kinds of env (a Box observation, a spec
    # for gymnasium.make) is not a failure.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("preset,options", VARIANTS, ids=str)
def test_pettingzoo_api_test(preset: str, options: dict[str, Any]) -> None:
    api_test(arena.env.aec(preset, **options), num_cycles=400)


@pytest.mark.parametrize("until", ["game", "deal"])
def test_pettingzoo_seed_test(until: str) -> None:
    seed_test(lambda: arena.env.aec("standard", until=until), num_cycles=300)


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_gymnasium_check_env(opponents: str) -> None:
    check_env(arena.env.single("standard", opponents=opponents), skip_render_check=False)


def test_a_whole_aec_game_ends_with_rewards_that_sum_to_zero() -> None:
    env = arena.env.aec("standard", target=500, reward="total_diff")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert obs["observation"].shape == (encoding.SIZE,) and mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps > 30 and set(final) == {"seat_0", "seat_1", "seat_2"}
    assert abs(sum(final.values())) < 1e-9 and any(r != 0 for r in final.values())


def test_placing_rewards_and_one_deal_episodes() -> None:
    env = arena.env.single("standard", opponents="greedy", until="deal", reward="placing", seat=1)
    obs, info = env.reset(seed=9)
    assert info["seat"] == 1
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert reward in (-1.0, -0.5, 0.0, 0.5, 1.0)
    assert "totals" in info and env.table is not None and len(env.table.state.deals) == 1


def test_an_illegal_action_is_refused_in_one_line() -> None:
    env = arena.env.aec("standard")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(EnvError, match="is not legal for seat_"):
        env.step(bad)
    single = arena.env.single("standard")
    single.reset(seed=1)
    _, reward, terminated, _, info = single.step(bad)
    assert terminated and reward == -1.0 and info == {"illegal": True}


def test_bad_options_name_what_is_wrong() -> None:
    with pytest.raises(EnvError, match="preset 'nope'"):
        arena.env.aec("nope")
    with pytest.raises(EnvError, match="rules option"):
        arena.env.aec("standard", target=7)
    with pytest.raises(EnvError, match="until='forever'"):
        arena.env.aec("standard", until="forever")
    with pytest.raises(EnvError, match="opponent 'smart'"):
        arena.env.single("standard", opponents="smart")


def test_render_is_text() -> None:
    env = arena.env.aec("standard", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "deal 1" in text and "seat_0" in text and "legal:" in text


def test_openspiel_random_simulation() -> None:
    arena.env.register_openspiel()
    for params in ({"preset": "standard"}, {"preset": "czech", "seeds": 8}):
        game = pyspiel.load_game("thousand", params)
        pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_openspiel_whole_game_and_information_state() -> None:
    # A whole game by random play is thousands of moves: played here by
    # hand (random_sim_test re-checks every state, which is quadratic on it).
    arena.env.register_openspiel()
    game = pyspiel.load_game("thousand", {"preset": "standard", "until": "game", "seeds": 4})
    assert game.information_state_tensor_shape() == [encoding.SIZE]
    assert game.num_distinct_actions() == encoding.ACTIONS
    state = game.new_initial_state()
    state.apply_action(2)
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        p = state.current_player()
        assert len(state.information_state_tensor(p)) == encoding.SIZE
        state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9 and any(r != 0 for r in returns)
    assert len(state.table.state.deals) > 1


def test_openspiel_resampling_keeps_the_information_state_and_ismcts_runs() -> None:
    """resample_from_infostate (the SDK's belief sampler) gives states with
    the same information state for the player, other hidden cards, and
    OpenSpiel's own ISMCTS bot searches on them."""
    from open_spiel.python.algorithms import ismcts, mcts

    arena.env.register_openspiel()
    game = pyspiel.load_game("thousand", {"preset": "standard"})
    rng = np.random.default_rng(6)
    differed = checked = 0
    for outcome in range(3):
        state = game.new_initial_state()
        state.apply_action(outcome)
        while not state.is_terminal():
            p = state.current_player()
            if rng.random() < 0.2:
                other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.legal_actions() == state.legal_actions()
                checked += 1
                differed += other.table.state.hand((p + 1) % 3) != state.table.state.hand((p + 1) % 3)
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 10 and differed > 0
    state = game.new_initial_state()
    state.apply_action(1)
    for _ in range(3):
        state.apply_action(state.legal_actions()[-1])
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.0, 16,
                           random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()
