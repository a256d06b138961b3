"""What the PettingZoo, Gymnasium and OpenSpiel faces share: the game and
its seed, when an episode ends, the rewards, the spaces' encoding, the text
render. No learning library is imported here.

Every observation is the engine's `GameState.observation(seat)`, encoded by
`arena.env.encoding`: the whole truth never reaches an agent.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np

from arena.env import encoding
from arena.game import GameState, Rules, RulesError, new_game
from arena.game.actions import Action

UNTIL = ("game", "deal")
REWARDS = ("total_diff", "placing")


class EnvError(ValueError):
    """A bad option of an environment (one line, naming it)."""


def make_rules(preset: str, options: Mapping[str, Any]) -> Rules:
    if preset not in Rules.presets():
        raise EnvError(f"preset {preset!r}: not a preset; known: {', '.join(Rules.presets())}")
    try:
        return Rules.preset(preset).replace(**options)
    except RulesError as exc:
        raise EnvError(f"rules option: {exc}") from None


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise EnvError(f"{name}={value!r}: expected one of {', '.join(choices)}")


def fresh_seed() -> int:
    """A seed when none is given (63 bits, as `arena play` draws one)."""
    return secrets.randbelow(2**63)


class Table:
    """One game being played: its state, the seed it came from, the totals
    when the episode began, and whether the episode is over."""

    def __init__(self, rules: Rules, seed: int, until: str) -> None:
        self.rules = rules
        self.seed = seed
        self.until = until
        # The same call as the referee's: `arena play --seed S` plays this game.
        self.state: GameState = new_game(rules, seed)
        self.start_totals = self.state.totals

    @property
    def over(self) -> bool:
        if self.state.is_over:
            return True
        return self.until == "deal" and len(self.state.deals) > 0

    def apply(self, action: Action) -> None:
        self.state = self.state.apply(action)

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """The seat's encoded observation and the mask of its legal actions
        (all zero when it is not this seat's turn)."""
        g = self.state
        obs = encoding.encode(g.observation(seat).as_mapping())
        if not self.over and g.to_act == seat:
            mask = encoding.legal_mask(g.legal_actions())
        else:
            mask = np.zeros(encoding.ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def rewards(self, kind: str) -> list[float]:
        """Per seat, at the episode's end: `total_diff`: its gain minus the
        mean gain of the others, over 1000 (a game) or 100 (a deal);
        `placing`: +1 first .. -1 last by those gains (ties share)."""
        n = self.rules.players
        gains = [t - s for t, s in zip(self.state.totals, self.start_totals, strict=True)]
        if kind == "total_diff":
            scale = 1000.0 if self.until == "game" else 100.0
            return [(gains[i] - sum(gains[j] for j in range(n) if j != i) / (n - 1)) / scale
                    for i in range(n)]
        out = []
        for i in range(n):
            better = sum(1 for j in range(n) if gains[j] > gains[i])
            worse = sum(1 for j in range(n) if gains[j] < gains[i])
            out.append((worse - better) / (n - 1))
        return out

    def render(self) -> str:
        """The table in text, as the whole truth (for a person watching a
        training run, never an agent's input)."""
        g = self.state
        lines = [f"{g.rules.preset_name}: deal {g.deal_number}, phase {g.phase}, "
                 f"totals {list(g.totals)}" + (", game over" if g.is_over else "")]
        for s in range(g.players):
            mark = ">" if g.to_act == s else " "
            lines.append(f"{mark} seat_{s}: {' '.join(str(c) for c in g.hand(s))}")
        obs = g.observation(g.to_act if g.to_act is not None else 0).as_mapping()
        if obs["trump"]:
            lines.append(f"  trump {obs['trump']}")
        if obs["trick"]:
            lines.append("  trick: " + " ".join(f"{t['seat']}:{t['card']}" for t in obs["trick"]))
        if obs["auction"]:
            lines.append("  auction: " + ", ".join(f"{a['seat']} {a['action']}" for a in obs["auction"][-6:]))
        if g.to_act is not None and not g.is_over:
            legal = g.legal_actions()
            lines.append(f"  legal: {', '.join(map(str, legal[:12]))}"
                         + (f" (+{len(legal) - 12})" if len(legal) > 12 else ""))
        return "\n".join(lines)
