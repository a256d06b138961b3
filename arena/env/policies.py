"""The other seats' players for the single-agent environment: "random",
"greedy" (the greedy sample bot's own policy function), or any callable over
the encoding (the same form a trained policy has, arena.env.policy).

Each is turned into `Player(state, seat, rng) -> Action`, which sees only
the seat's observation (the engine's) and its legal actions.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from arena.env import encoding
from arena.env.core import EnvError
from arena.game import GameState
from arena.game.actions import Action

Player = Callable[[GameState, int, np.random.Generator], Action]
# A policy over the encoding: {"observation", "action_mask"} -> an action index.
EncodedPolicy = Callable[[Mapping[str, np.ndarray]], int]
_GREEDY = Path(__file__).resolve().parent.parent.parent / "sample_bots" / "greedy" / "greedy_policy.py"
_greedy_module: ModuleType | None = None


def _greedy() -> ModuleType:
    """The greedy sample bot's policy module, loaded from its folder (it is
    a bot's file, not part of the package: a checkout of the repository has it)."""
    global _greedy_module
    if _greedy_module is None:
        if not _GREEDY.is_file():
            raise EnvError("opponent 'greedy': needs the repository's sample_bots/greedy/greedy_policy.py "
                           "(a checkout, not an installed wheel)")
        spec = importlib.util.spec_from_file_location("arena_env_greedy_policy", _GREEDY)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _greedy_module = module
    return _greedy_module


def random_player(state: GameState, seat: int, rng: np.random.Generator) -> Action:
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def greedy_player(state: GameState, seat: int, rng: np.random.Generator) -> Action:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    texts = [str(a) for a in legal]
    choice = _greedy().choose(state.observation(seat).as_mapping(), texts)
    return legal[texts.index(choice)]


def encoded_player(policy: EncodedPolicy) -> Player:
    def play(state: GameState, seat: int, rng: np.random.Generator) -> Action:
        legal = state.legal_actions()
        obs: dict[str, np.ndarray] = {"observation": encoding.encode(state.observation(seat).as_mapping()),
               "action_mask": encoding.legal_mask(legal)}
        action = encoding.action_at(int(policy(obs)))
        if action not in legal:
            raise EnvError(f"opponent policy {policy!r} chose {action}, not a legal action")
        return action
    return play


def player(spec: Any) -> Player:
    if spec == "random":
        return random_player
    if spec == "greedy":
        _greedy()
        return greedy_player
    if callable(spec):
        return encoded_player(spec)
    raise EnvError(f"opponent {spec!r}: expected 'random', 'greedy' or a callable "
                   "taking {'observation', 'action_mask'} and returning an action index")
