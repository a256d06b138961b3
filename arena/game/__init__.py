"""The rules engine for 1000: pure, deterministic, no I/O (see docs/rules.md).

    from arena.game import Rules, new_game, parse_action
    g = new_game(Rules.preset("standard"), seed=42)
    while not g.is_over:
        g = g.apply(g.legal_actions()[0])

Names are loaded on first use (PEP 562): a bot that only needs
`arena.game.actions` (the SDK) does not pay for importing the whole engine
at every start-up, which tournaments do for every bot of every match.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.game.actions import (
        Action,
        ActionSyntaxError,
        Bid,
        Blind,
        Concede,
        Contract,
        Discard,
        Give,
        Guess,
        Lottery,
        Pass,
        Pick,
        Play,
        Redeal,
        Take,
        action_from_fields,
        parse_action,
        sort_key,
        to_fields,
    )
    from arena.game.cards import DECK, Card, Rank, Suit
    from arena.game.errors import IllegalActionError, SetupError
    from arena.game.observation import Observation
    from arena.game.records import DealRecord
    from arena.game.rules import Rules, RulesError
    from arena.game.state import GameState, game_at_deal, new_game

__all__ = [
    "DECK",
    "Action",
    "ActionSyntaxError",
    "Bid",
    "Blind",
    "Card",
    "Concede",
    "Contract",
    "DealRecord",
    "Discard",
    "GameState",
    "Give",
    "Guess",
    "IllegalActionError",
    "Lottery",
    "Observation",
    "Pass",
    "Pick",
    "Play",
    "Rank",
    "Redeal",
    "Rules",
    "RulesError",
    "SetupError",
    "Suit",
    "Take",
    "action_from_fields",
    "game_at_deal",
    "new_game",
    "parse_action",
    "sort_key",
    "to_fields",
]

_HOME = {
    **dict.fromkeys(("Action", "ActionSyntaxError", "Bid", "Blind", "Concede", "Contract", "Discard",
                     "Give", "Guess", "Lottery", "Pass", "Pick", "Play", "Redeal", "Take",
                     "action_from_fields", "parse_action", "sort_key", "to_fields"), "actions"),
    **dict.fromkeys(("DECK", "Card", "Rank", "Suit"), "cards"),
    **dict.fromkeys(("IllegalActionError", "SetupError"), "errors"),
    "Observation": "observation",
    "DealRecord": "records",
    **dict.fromkeys(("Rules", "RulesError"), "rules"),
    **dict.fromkeys(("GameState", "game_at_deal", "new_game"), "state"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'arena.game' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"arena.game.{home}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
