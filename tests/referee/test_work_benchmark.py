"""benchmarks/referee_work.py drives the real match loop to the end of a game."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from arena.game import Rules, new_game

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "referee_work.py"


def test_the_in_memory_transport_plays_the_whole_game_as_first_legal_bots() -> None:
    spec = importlib.util.spec_from_file_location("referee_work", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cpu, decisions = module.play_one(2)
    # The same game played straight through the engine, first legal action each time.
    game = new_game(Rules.preset("standard"), seed=2)
    actions = 0
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
        actions += 1
    assert decisions == actions
    assert cpu > 0
