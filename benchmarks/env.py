"""Learning-environment speed: env steps per second on one core, side by side.

    .venv/bin/python benchmarks/env.py [--seconds 3] [--preset standard]

Every line plays uniformly random legal actions with the observation
encoded at every step, for about --seconds each, in this one process (it
pins itself to one CPU where the OS allows):

- engine: the bare rules engine, `legal_actions()` + `apply()` (the baseline);
- engine + encoding: the same plus the acting seat's observation built by
  the engine, encoded (arena.env.encoding) with its action mask: what
  every environment step costs on top of the engine;
- arena.env AEC (PettingZoo) and the Gymnasium wrapper (random opponents;
  its rate counts every seat's decisions, and the learner's steps apart);
- RLCard's Dou Dizhu and Leduc Hold'em, and PettingZoo's classic Leduc and
  Texas Hold'em (RLCard-based) when installed (`pip install .[bench]`).

Goals (issue 37): the AEC env >= 5x RLCard's Dou Dizhu rate; the encoding
costs <= 50% over the bare engine (engine + encoding >= 2/3 of the engine's
rate). The breakdown line says where an encoded step's time goes.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from arena.env import encoding
from arena.game import Rules, new_game


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to cpu {cpus[-1]}"
    return "not pinned (no sched_setaffinity)"


def timed(run: Callable[[float], int], seconds: float) -> float:
    """Steps per second of `run(deadline) -> steps` (CPU time of this process)."""
    start = time.process_time()
    steps = run(start + seconds)
    return steps / (time.process_time() - start)


def engine(preset: str, encode: bool) -> Callable[[float], int]:
    rules = Rules.preset(preset)

    def run(deadline: float) -> int:
        rng = random.Random(1)
        steps, seed = 0, 0
        while time.process_time() < deadline:
            g = new_game(rules, seed)
            seed += 1
            while not g.is_over:
                legal = g.legal_actions()
                if encode:
                    s = g.to_act
                    assert s is not None
                    encoding.encode(g.observation(s).as_mapping())
                    encoding.legal_mask(legal)
                g = g.apply(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def breakdown(preset: str, seconds: float) -> dict[str, float]:
    """Microseconds per step in each part of an encoded engine step."""
    rules = Rules.preset(preset)
    rng = random.Random(2)
    parts = dict.fromkeys(("legal_actions + apply", "observation (engine)", "encode", "mask"), 0.0)
    steps, seed = 0, 0
    clock = time.perf_counter
    end = time.process_time() + seconds
    while time.process_time() < end:
        g = new_game(rules, seed)
        seed += 1
        while not g.is_over:
            t0 = clock()
            legal = g.legal_actions()
            t1 = clock()
            s = g.to_act
            assert s is not None
            obs = g.observation(s).as_mapping()
            t2 = clock()
            encoding.encode(obs)
            t3 = clock()
            encoding.legal_mask(legal)
            t4 = clock()
            g = g.apply(legal[rng.randrange(len(legal))])
            t5 = clock()
            parts["legal_actions + apply"] += (t1 - t0) + (t5 - t4)
            parts["observation (engine)"] += t2 - t1
            parts["encode"] += t3 - t2
            parts["mask"] += t4 - t3
            steps += 1
    return {k: v / steps * 1e6 for k, v in parts.items()}


def aec(preset: str) -> Callable[[float], int]:
    import arena.env

    return aec_random_play(lambda: arena.env.aec(preset))


def aec_random_play(make: Callable[[], Any]) -> Callable[[float], int]:
    """Random legal moves in an AEC env from `make` until the CPU deadline:
    the same loop for the arena's env and PettingZoo's own games."""
    def run(deadline: float) -> int:
        env = make()
        rng = np.random.default_rng(1)
        steps, seed = 0, 0
        while time.process_time() < deadline:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps
    return run


def single(preset: str, counted: list[int]) -> Callable[[float], int]:
    import arena.env

    def run(deadline: float) -> int:
        env = arena.env.single(preset, opponents="random")
        rng = np.random.default_rng(1)
        learner = 0
        seed = 0
        while time.process_time() < deadline:
            obs, _ = env.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
                learner += 1
        counted.append(learner)
        return learner
    return run


def rlcard_env(name: str) -> Callable[[float], int]:
    import rlcard

    def run(deadline: float) -> int:
        env = rlcard.make(name, config={"seed": 1})
        rng = random.Random(1)
        steps = 0
        while time.process_time() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def pettingzoo_classic(module: str) -> Callable[[float], int]:
    import importlib

    return aec_random_play(importlib.import_module(f"pettingzoo.classic.{module}").env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per line")
    ap.add_argument("--preset", default="standard")
    args = ap.parse_args()
    print(f"benchmarks/env.py: {pin_one_core()}, {args.seconds:g} CPU s per line, preset {args.preset}")
    rates: dict[str, float] = {}
    rates["engine"] = timed(engine(args.preset, False), args.seconds)
    rates["engine + encoding"] = timed(engine(args.preset, True), args.seconds)
    rates["arena.env AEC (PettingZoo)"] = timed(aec(args.preset), args.seconds)
    counted: list[int] = []
    # The wrapper's rate per learner step; each learner step also plays the
    # two opponents' decisions (about 3 engine decisions a step).
    rates["arena.env Gymnasium (learner steps)"] = timed(single(args.preset, counted), args.seconds)
    skipped = []
    for label, maker in (("RLCard Dou Dizhu", lambda: rlcard_env("doudizhu")),
                         ("RLCard Leduc Hold'em", lambda: rlcard_env("leduc-holdem")),
                         ("PettingZoo classic Leduc Hold'em", lambda: pettingzoo_classic("leduc_holdem_v4")),
                         ("PettingZoo classic Texas Hold'em", lambda: pettingzoo_classic("texas_holdem_v4"))):
        try:
            run = maker()
        except ImportError as exc:
            skipped.append(f"{label} ({exc.name} not installed: pip install .[bench])")
            continue
        rates[label] = timed(run, args.seconds)
    base = rates["engine"]
    print("| environment | steps/s (one core) | vs bare engine |")
    print("|---|---|---|")
    for label, rate in rates.items():
        print(f"| {label} | {rate:,.0f} | {rate / base:.2f}x |")
    for s in skipped:
        print(f"skipped: {s}")
    enc = rates["engine + encoding"]
    print(f"encoding overhead: {base / enc - 1:.0%} over the bare engine's step (goal <= 50%)")
    dd = rates.get("RLCard Dou Dizhu")
    if dd:
        print(f"AEC env vs RLCard Dou Dizhu: {rates['arena.env AEC (PettingZoo)'] / dd:.1f}x (goal >= 5x)")
    parts = breakdown(args.preset, args.seconds)
    total = sum(parts.values())
    print("where an encoded engine step's time goes (us/step): " + ", ".join(
        f"{k} {v:.1f} ({v / total:.0%})" for k, v in parts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
