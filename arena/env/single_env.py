"""1000 as a Gymnasium environment: one seat learns, the others are played
by given opponents ("random", "greedy", or callables over the encoding).

    env = arena.env.single(preset="standard", opponents="greedy", seat=0)
    obs, info = env.reset(seed=7)          # the deals of `arena play --seed 7`
    obs, reward, terminated, truncated, info = env.step(action)

Observations and actions are those of the AEC environment (a dict of
`observation` and `action_mask`; Discrete(ACTIONS)). An action outside the
mask ends the episode at once with reward `illegal_reward` (-1) and
`info["illegal"]` (Gymnasium's checker steps random actions; a learner
should sample from the mask).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from arena.env import encoding
from arena.env.aec_env import spaces
from arena.env.core import REWARDS, UNTIL, EnvError, Table, check_choice, fresh_seed, make_rules
from arena.env.policies import Player, player


class ThousandSingle(gymnasium.Env[dict[str, np.ndarray], int]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium declares it an instance variable

    def __init__(self, preset: str = "standard", *, opponents: Any = "random", seat: int | None = 0,
                 until: str = "game", reward: str = "total_diff", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **options: Any) -> None:
        check_choice("until", until, UNTIL)
        check_choice("reward", reward, REWARDS)
        self.rules = make_rules(preset, options)
        n = self.rules.players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise EnvError(f"seat={seat!r}: expected a seat 0..{n - 1} or None (a random seat each episode)")
        given = list(opponents) if isinstance(opponents, Sequence) and not isinstance(opponents, str) \
            else [opponents] * (n - 1)
        if len(given) != n - 1:
            raise EnvError(f"opponents: {n - 1} needed for {n} players, got {len(given)}")
        self.opponents: list[Player] = [player(o) for o in given]
        self.fixed_seat, self.until, self.reward_kind = seat, until, reward
        self.illegal_reward, self.render_mode = illegal_reward, render_mode
        self.observation_space, self.action_space = spaces()  # type: ignore[assignment]
        self.table: Table | None = None
        self.seat = seat or 0
        self._next_seed: int | None = None
        self._rng = np.random.default_rng(0)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else fresh_seed()
        self._next_seed = seed + 1
        # The opponents' and the seat's draws come from the game seed too.
        self._rng = np.random.default_rng([seed, 1000])
        n = self.rules.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self._rng.integers(n))
        self.table = Table(self.rules, seed, self.until)
        self._others()
        return self.table.observation(self.seat), {"seat": self.seat, "seed": seed}

    def _others(self) -> None:
        """Let the other seats play until it is the learner's turn or the episode ends."""
        table = self.table
        assert table is not None
        while not table.over and table.state.to_act != self.seat:
            s = table.state.to_act
            assert s is not None
            k = (s - self.seat) % self.rules.players - 1
            table.apply(self.opponents[k](table.state, s, self._rng))

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        table = self.table
        if table is None or table.over:
            raise EnvError("step: the episode is over; call reset()")
        legal = table.state.legal_actions()
        chosen = encoding.action_at(int(action)) if 0 <= int(action) < encoding.ACTIONS else None
        if chosen is None or chosen not in legal:
            obs = table.observation(self.seat)
            self.table = None
            return obs, self.illegal_reward, True, False, {"illegal": True}
        table.apply(chosen)
        self._others()
        obs = table.observation(self.seat)
        if table.over:
            reward = table.rewards(self.reward_kind)[self.seat]
            return obs, reward, True, False, {"totals": list(table.state.totals)}
        return obs, 0.0, False, False, {}

    def render(self) -> str:
        return self.table.render() if self.table is not None else "no game: call reset()"
