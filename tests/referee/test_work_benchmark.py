"""benchmarks/referee_work.py drives the real match loop to the end of a game."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from arena.game import Rules, new_game


def test_the_in_memory_transport_plays_the_whole_game_as_first_legal_bots(
    load_script: Callable[[str, str], ModuleType],
) -> None:
    module = load_script("benchmarks/referee_work.py", "referee_work")
    cpu, decisions = module.play_one(2)
    # The same game played straight through the engine, first legal action each time.
    game = new_game(Rules.preset("standard"), seed=2)
    actions = 0
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
        actions += 1
    assert decisions == actions
    assert cpu > 0
