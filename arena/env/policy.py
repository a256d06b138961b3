"""From a policy over the encoding to a bot.

    from arena.env.policy import PolicyBot, MLPPolicy
    policy = MLPPolicy.load("weights.npz")      # or any callable, see below
    sys.exit(run(PolicyBot(policy, name="learned")))

A policy is any callable taking {"observation": float32[SIZE],
"action_mask": int8[ACTIONS]} (arena.env.encoding, the environments' own
observation) and returning an action index where the mask is 1. The bot
encodes each decision's observation as the environments do, so a policy
trained with arena.env plays the same inputs in a match. Only numpy and
the encoding are needed: not the learning libraries, not the engine's
rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

from arena.env import encoding
from arena.game.actions import Action
from arena.sdk.bot import Bot, Observation

Policy = Callable[[Mapping[str, np.ndarray]], int]
F32 = npt.NDArray[np.float32]


class PolicyBot(Bot):
    """A bot that asks `policy` for every decision (ValueError, naming the
    policy's choice, if it picks an action outside the mask)."""

    def __init__(self, policy: Policy, name: str = "policy-bot", version: str = "0") -> None:
        self.policy = policy
        self.name = name
        self.version = version

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        mask = encoding.legal_mask(legal)
        choice = int(self.policy({"observation": encoding.encode(obs.data), "action_mask": mask}))
        if not 0 <= choice < encoding.ACTIONS or not mask[choice]:
            raise ValueError(f"policy chose action index {choice}, not one of the legal "
                             f"{[encoding.action_index(a) for a in legal]}")
        return encoding.action_at(choice)


class MLPPolicy:
    """A small numpy network: logits = W2 relu(W1 x + b1) + b2, the best
    legal action (masked argmax) or, with `sample=True` and an rng, one
    drawn from the masked softmax."""

    def __init__(self, w1: F32, b1: F32, w2: F32, b2: F32) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        if w1.shape[0] != encoding.SIZE or w2.shape[1] != encoding.ACTIONS:
            raise ValueError(f"MLPPolicy: weights are for {w1.shape[0]} inputs and {w2.shape[1]} "
                             f"actions; the encoding has {encoding.SIZE} and {encoding.ACTIONS}")

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        with np.load(path) as z:
            return cls(*(z[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")))

    def save(self, path: str | Path) -> None:
        # float16 on disk: a few hundred kB for the sample bot's folder.
        np.savez_compressed(path, **{k: getattr(self, k).astype(np.float16)
                                     for k in ("w1", "b1", "w2", "b2")})

    def logits(self, x: F32) -> F32:
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: F32 = h @ self.w2 + self.b2
        return out

    def __call__(self, obs: Mapping[str, np.ndarray]) -> int:
        z = self.logits(obs["observation"])
        return int(np.argmax(np.where(obs["action_mask"] > 0, z, -np.inf)))
