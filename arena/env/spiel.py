"""1000 as an OpenSpiel game, "thousand" (Python game, `register()` first).

    import pyspiel, arena.env
    arena.env.register_openspiel()
    game = pyspiel.load_game("thousand", {"preset": "standard", "until": "deal"})

Parameters: `preset` (docs/rules.md#presets), `seed` and `seeds`: the first node is
chance, choosing one of `seeds` outcomes k uniformly, and the game is then
the one of `arena play --seed (seed + k)`; `until` "deal" (the default:
the first deal, returns its score differences over 100) or "game" (the
whole game to the target, over 1000). Returns are each seat's gain minus
the others' mean gain, so they sum to zero.

Information states: the string is the seat's whole observation (the
engine's, as sorted JSON: the auction, every trick in order, its cards), the
tensor is `arena.env.encoding.encode` of it. `resample_from_infostate` draws
the unseen cards with `arena.sdk.belief.Sampler` (3-seat deals) and
re-plays them through the engine to the same information state, which is
what OpenSpiel's ISMCTS asks for.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from arena.env import encoding
from arena.env.core import Table, make_rules
from arena.game.actions import Action
from arena.sdk.belief import Sampler

_DEFAULTS: dict[str, Any] = {"preset": "standard", "seed": 0, "seeds": 64, "until": "deal"}
_DEAL_LENGTH = 400  # decisions in one deal, a bound: at most ~190 bids, 24 plays, a few others


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name="thousand", long_name="1000 (Tysiąc, Тысяча)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS))


class ThousandGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.rules = make_rules(str(p["preset"]), {})
        self.seed, self.seeds, self.until = int(p["seed"]), int(p["seeds"]), str(p["until"])
        if self.until not in ("deal", "game") or self.seeds < 1:
            raise pyspiel.SpielError(f"thousand: until must be deal or game and seeds >= 1, got {p}")
        deals = 1 if self.until == "deal" else self.rules.max_deals
        bound = 8.0 if self.until == "deal" else 4.0
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.ACTIONS, max_chance_outcomes=self.seeds,
            num_players=self.rules.players, min_utility=-bound, max_utility=bound,
            utility_sum=0.0, max_game_length=_DEAL_LENGTH * deals)
        super().__init__(_game_type(), info, p)

    def new_initial_state(self) -> ThousandState:
        return ThousandState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer()


class ThousandState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: ThousandGame) -> None:
        super().__init__(game)
        self.g = game
        self.table: Table | None = None  # None: the chance node before the deal

    def current_player(self) -> int:
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.over:
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = self.table.state.to_act
        assert to_act is not None
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table is not None
        return sorted(encoding.action_index(a) for a in self.table.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.g.seeds
        return [(k, p) for k in range(self.g.seeds)]

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self.table = Table(self.g.rules, self.g.seed + int(action), self.g.until)
        else:
            self.table.apply(encoding.action_at(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {self.g.seed + action}"
        chosen: Action = encoding.action_at(action)
        return str(chosen)

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.over

    def returns(self) -> list[float]:
        if self.table is None or not self.table.over:
            return [0.0] * self.g.rules.players
        return self.table.rewards("total_diff")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ThousandState:
        """A state with the same information state for `player_id`, the unseen
        cards drawn by the SDK's belief sampler (and the later deals from a
        drawn seed, since the seat cannot know the real one)."""
        assert self.table is not None
        obs = self.table.state.observation(player_id).to_dict()
        rng = random.Random(int(probability_sampler() * 2**53))
        sampler = Sampler(self.g.rules, obs)
        out = ThousandState(self.g)
        table = Table.__new__(Table)
        table.rules, table.until = self.table.rules, self.table.until
        table.seed = rng.randrange(2**63)
        table.state = sampler.state(sampler.sample(rng), seed=table.seed)
        table.start_totals = self.table.start_totals
        out.table = table
        return out

    def __str__(self) -> str:
        return "chance: the seed" if self.table is None else self.table.render()


class Observer:
    """PyObserver: `tensor` is the encoding, the string the observation as JSON."""

    def __init__(self) -> None:
        self.tensor = np.zeros(encoding.SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ThousandState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0.0)
        else:
            encoding.encode(state.table.state.observation(player).as_mapping(), out=self.tensor)

    def string_from(self, state: ThousandState, player: int) -> str:
        if state.table is None:
            return "chance"
        return json.dumps(state.table.state.observation(player).to_dict(), sort_keys=True)


_registered = False


def register() -> None:
    global _registered
    if not _registered:
        pyspiel.register_game(_game_type(), ThousandGame)
        _registered = True
