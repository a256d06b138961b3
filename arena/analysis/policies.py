"""Reference policies: how the analysis plays a position on after a
candidate action, for every seat, to the end of the deal.

A reference is a function `(state, rng) -> action` for the seat to act in
`state`, that sees only that seat's observation (the engine's) and its legal
actions, as a bot does. The sample bots' policies are bots' files, not
part of the package: they are loaded from the repository's `sample_bots/`
(a checkout has them; an installed wheel does not, which the error says).

- "greedy": the greedy sample bot's heuristic (deterministic, about 0.1 ms
  a decision): the default, cheap enough to play thousands of deals out
  per decision.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from arena.analysis.errors import AnalysisError
from arena.game.actions import Action
from arena.game.state import GameState

Reference = Callable[[GameState, random.Random], Action]
NAMES = ("greedy",)
_BOTS = Path(__file__).resolve().parent.parent.parent / "sample_bots"
_loaded: dict[str, ModuleType] = {}


def _module(bot: str, name: str) -> ModuleType:
    """`sample_bots/BOT/NAME.py`, loaded once by path."""
    key = f"{bot}/{name}"
    module = _loaded.get(key)
    if module is None:
        path = _BOTS / bot / f"{name}.py"
        if not path.is_file():
            raise AnalysisError(f"reference policy {bot!r}: needs the repository's "
                                f"sample_bots/{bot}/{name}.py (a checkout, not an installed wheel)")
        spec = importlib.util.spec_from_file_location(f"arena_analysis_{bot}_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _loaded[key] = module
    return module


def reference(name: str) -> Reference:
    """The reference policy called `name` (one of NAMES)."""
    if name == "greedy":
        choose = _module("greedy", "greedy_policy").choose

        def greedy(state: GameState, rng: random.Random) -> Action:
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            texts = [str(a) for a in legal]
            seat = state.to_act
            assert seat is not None
            return legal[texts.index(choose(state.observation(seat).as_mapping(), texts))]

        return greedy
    raise AnalysisError(f"reference policy {name!r}: not one of {', '.join(NAMES)}")
