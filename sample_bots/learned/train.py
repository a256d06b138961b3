"""Trains the learned sample bot's policy with arena.env (numpy only, one core).

    .venv/bin/python sample_bots/learned/train.py [--games 60] [--rounds 3] [--out weights.npz]

Imitation with the environment in the loop (DAgger): round 0 records the
greedy sample bot's choice at every decision of games it plays in all three
seats of the PettingZoo environment; in each later round the network being
trained plays one seat (the greedy policy the others), and the greedy
choice at the positions the network reaches is added to the data. The
network (arena.env.policy.MLPPolicy: 550 -> 128 -> the fixed action space)
is fitted to all the data so far by a masked softmax cross-entropy with
Adam. The inputs are the environment's observations, so the bot sees in a
match exactly what it was trained on. About 1.5 minutes of CPU on one core with the
defaults; the seeds make a run reproducible.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")        # one core: the machine is shared
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import arena.env
from arena.env import encoding
from arena.env.policies import greedy_player
from arena.env.policy import MLPPolicy

HERE = Path(__file__).resolve().parent
HIDDEN = 128


def collect(games: int, seed0: int, policy: MLPPolicy | None, rng: np.random.Generator,
            ) -> tuple[list[np.ndarray], list[np.ndarray], list[int]]:
    """Observations, masks and the greedy policy's choice at each decision
    with more than one legal action; `policy`, if given, plays seat (game % 3)."""
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    ys: list[int] = []
    env = arena.env.aec("standard")
    for k in range(games):
        env.reset(seed=seed0 + k)
        learner = f"seat_{k % 3}" if policy is not None else None
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.table is not None
            state = env.table.state
            seat = int(agent.removeprefix("seat_"))
            teacher = encoding.action_index(greedy_player(state, seat, rng))
            if int(obs["action_mask"].sum()) > 1:
                xs.append(obs["observation"])
                masks.append(np.flatnonzero(obs["action_mask"]).astype(np.int16))
                ys.append(teacher)
            act = policy(obs) if policy is not None and agent == learner else teacher
            env.step(act)
    return xs, masks, ys


def fit(model: MLPPolicy, xs: np.ndarray, masks: list[np.ndarray], ys: np.ndarray,
        epochs: int, rng: np.random.Generator, lr: float = 1e-3, batch: int = 256) -> float:
    """Adam on the masked softmax cross-entropy; returns the last epoch's mean loss."""
    params = [model.w1, model.b1, model.w2, model.b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    loss_sum = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(ys))
        loss_sum, count = 0.0, 0
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            x = xs[idx]
            h_pre = x @ model.w1 + model.b1
            h = np.maximum(h_pre, 0.0)
            z = h @ model.w2 + model.b2
            legal = np.zeros_like(z, dtype=bool)
            for row, i in enumerate(idx):
                legal[row, masks[i]] = True
            z = np.where(legal, z, -1e9)
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            rows = np.arange(len(idx))
            loss_sum += float(-np.log(p[rows, ys[idx]] + 1e-9).sum())
            count += len(idx)
            dz = p
            dz[rows, ys[idx]] -= 1.0
            dz /= len(idx)
            gw2 = h.T @ dz
            gb2 = dz.sum(axis=0)
            dh = (dz @ model.w2.T) * (h_pre > 0)
            gw1 = x.T @ dh
            gb1 = dh.sum(axis=0)
            t += 1
            for p_, g, m_, v_ in zip(params, (gw1, gb1, gw2, gb2), m, v, strict=True):
                m_ *= 0.9
                m_ += 0.1 * g
                v_ *= 0.999
                v_ += 0.001 * g * g
                p_ -= lr * (m_ / (1 - 0.9**t)) / (np.sqrt(v_ / (1 - 0.999**t)) + 1e-8)
        loss_sum /= max(count, 1)
    return loss_sum


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games recorded per round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds after the first (DAgger)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20260)
    ap.add_argument("--out", type=Path, default=HERE / "weights.npz")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    model = MLPPolicy(
        (rng.standard_normal((encoding.SIZE, HIDDEN)) * np.sqrt(2 / encoding.SIZE)).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        (rng.standard_normal((HIDDEN, encoding.ACTIONS)) * np.sqrt(1 / HIDDEN)).astype(np.float32),
        np.zeros(encoding.ACTIONS, np.float32))
    start = time.process_time()
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    ys: list[int] = []
    for r in range(args.rounds + 1):
        nx, nm, ny = collect(args.games, args.seed + 1000 * r, model if r else None, rng)
        xs += nx
        masks += nm
        ys += ny
        loss = fit(model, np.stack(xs), masks, np.array(ys), args.epochs, rng)
        print(f"round {r}: {len(ys)} decisions, loss {loss:.3f}, "
              f"{time.process_time() - start:.0f} s CPU", flush=True)
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
