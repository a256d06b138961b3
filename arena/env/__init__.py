"""1000 for reinforcement learning: PettingZoo, Gymnasium and OpenSpiel
(the optional extra `pip install .[env]`; docs/learning.md).

    import arena.env
    env = arena.env.aec(preset="standard")           # PettingZoo AEC, agents seat_0..
    env = arena.env.single(preset="standard", opponents="greedy")   # Gymnasium
    arena.env.register_openspiel()                   # pyspiel.load_game("thousand")

Only the rules engine (arena.game) and the SDK (arena.sdk) are used, never
the referee; each face imports its library when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.env.aec_env import ThousandAEC
    from arena.env.single_env import ThousandSingle

__all__ = ["aec", "register_openspiel", "single"]


def aec(preset: str = "standard", **options: Any) -> ThousandAEC:
    """PettingZoo AEC environment (arena.env.aec_env)."""
    from arena.env.aec_env import ThousandAEC

    return ThousandAEC(preset, **options)


def single(preset: str = "standard", **options: Any) -> ThousandSingle:
    """Gymnasium single-agent environment (arena.env.single_env)."""
    from arena.env.single_env import ThousandSingle

    return ThousandSingle(preset, **options)


def register_openspiel() -> None:
    """Register the game "thousand" with pyspiel (arena.env.spiel)."""
    from arena.env.spiel import register

    register()
