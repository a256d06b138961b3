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
- "search": the search sample bot's determinized search at `work`
  simulated deals a decision (its own seed drawn from the rollout's
  generator, so every candidate of a decision meets the same draws): a
  stronger yardstick, some tens of times slower than greedy at work 8.
- "search-seat": the search bot for the analysed seat's own later
  decisions, greedy for the others: the seat plays on as well as a strong
  bot would, at a fraction of "search"'s cost.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from arena.analysis.errors import AnalysisError
from arena.game.actions import Action
from arena.game.state import GameState

Reference = Callable[[GameState, random.Random], Action]
NAMES = ("greedy", "search", "search-seat")
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
        sys.modules[spec.name] = module  # a dataclass in it looks its module up there
        spec.loader.exec_module(module)
        _loaded[key] = module
    return module


def _search_module() -> ModuleType:
    """search_policy.py, which imports its folder's fastplay and scoring by
    their plain names: those are loaded first under them (unless a module
    of that name is there already, e.g. a benchmark that put the folder on
    sys.path)."""
    for helper in ("fastplay", "scoring"):
        if helper not in sys.modules:
            sys.modules[helper] = _module("search", helper)
    return _module("search", "search_policy")


def reference(name: str, work: int = 8, seat: int | None = None) -> Reference:
    """The reference policy called `name` (one of NAMES); `work` is the
    search's simulated deals per decision, `seat` the analysed seat
    ("search-seat")."""
    if name == "search-seat":
        own, others = reference("search", work), reference("greedy")

        def mixed(state: GameState, rng: random.Random) -> Action:
            return (own if state.to_act == seat else others)(state, rng)

        return mixed
    if name == "greedy":
        choose = _module("greedy", "greedy_policy").choose
        return _from_bot(lambda state, seat, texts, rng: choose(
            state.observation(seat).as_mapping(), texts))
    if name == "search":
        search = _search_module()

        def searching(state: GameState, seat: int, texts: list[str], rng: random.Random) -> str:
            obs = state.observation(seat).to_dict()
            obs["talon_count"] = obs.pop("talon_size")  # the bot reads the wire's names
            return str(search.choose(state.rules, obs, texts, work=work, seed=rng.getrandbits(63)))

        return _from_bot(searching)
    raise AnalysisError(f"reference policy {name!r}: not one of {', '.join(NAMES)}")


def _from_bot(pick: Callable[[GameState, int, list[str], random.Random], str]) -> Reference:
    """A sample bot's choice `pick(state, seat, legal texts, rng)` (the bots
    speak in the actions' notation) as a Reference; a forced action is
    played without asking it."""
    def play(state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        texts = [str(a) for a in legal]
        seat = state.to_act
        assert seat is not None
        return legal[texts.index(pick(state, seat, texts, rng))]

    return play
