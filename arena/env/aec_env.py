"""1000 as a PettingZoo AEC environment (agents seat_0 .. seat_{n-1}).

    env = arena.env.aec(preset="standard")      # any rules option too: target=500
    env.reset(seed=7)                           # the deals of `arena play --seed 7`
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs)  # an index where obs["action_mask"] is 1
        env.step(action)

The observation is a dict: `observation`, float32[arena.env.encoding.SIZE],
the seat's encoded observation, and `action_mask`, int8[ACTIONS], its legal
actions in the fixed action space (docs/learning.md). Rewards come at the
episode's end only (`reward="total_diff"` or `"placing"`); an episode is a
whole game or, with `until="deal"`, the first deal.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from arena.env import encoding
from arena.env.core import REWARDS, UNTIL, EnvError, Table, check_choice, fresh_seed, make_rules


def spaces() -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    obs = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(-4.0, 4.0, (encoding.SIZE,), np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (encoding.ACTIONS,), np.int8),
    })
    return obs, gymnasium.spaces.Discrete(encoding.ACTIONS)


class ThousandAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"name": "thousand_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, preset: str = "standard", *, until: str = "game", reward: str = "total_diff",
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_choice("until", until, UNTIL)
        check_choice("reward", reward, REWARDS)
        if render_mode not in (None, "ansi", "human"):
            raise EnvError(f"render_mode={render_mode!r}: expected None, 'ansi' or 'human'")
        self.rules = make_rules(preset, options)
        self.until, self.reward_kind, self.render_mode = until, reward, render_mode
        n = self.rules.players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        obs_space, act_space = spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.table: Table | None = None
        self._next_seed: int | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            # Without a seed, the next game of the last seeded sequence (so a
            # seeded run stays reproducible), or a fresh one.
            seed = self._next_seed if self._next_seed is not None else fresh_seed()
        self._next_seed = seed + 1
        self.table = Table(self.rules, seed, self.until)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.table is not None
        to_act = self.table.state.to_act
        self.agent_selection = f"seat_{to_act if to_act is not None else 0}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.table is None:
            raise EnvError("observe: call reset() first")
        return self.table.observation(int(agent.removeprefix("seat_")))

    def step(self, action: int | None) -> None:
        if self.table is None:
            raise EnvError("step: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        legal = table.state.legal_actions()
        try:
            chosen = encoding.action_at(int(action))  # type: ignore[arg-type]
        except (IndexError, TypeError, ValueError):
            raise EnvError(f"step: action {action!r} of {agent} is not an index 0..{encoding.ACTIONS - 1}") from None
        if chosen not in legal:
            raise EnvError(f"step: action {action} ({chosen}) is not legal for {agent}; "
                           f"legal: {', '.join(map(str, legal[:10]))}")
        self._cumulative_rewards[agent] = 0.0
        table.apply(chosen)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if table.over:
            for a, r in zip(self.agents, table.rewards(self.reward_kind), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.infos = {a: {"totals": list(table.state.totals)} for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        if self.table is None:
            return "no game: call reset()"
        return self.table.render()

    def close(self) -> None:
        self.table = None

