"""The rules engine for 1000: pure, deterministic, no I/O (see RULES.md).

    from arena.game import Rules, new_game, parse_action
    g = new_game(Rules.preset("standard"), seed=42)
    while not g.is_over:
        g = g.apply(g.legal_actions()[0])
"""

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
from arena.game.state import GameState, new_game

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
    "new_game",
    "parse_action",
    "sort_key",
    "to_fields",
]
