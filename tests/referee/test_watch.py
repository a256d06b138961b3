"""The referee's watcher (GameLoop.watch, play_match(watch=...)): told the
engine's public view of the table at the start and after every action, and
nothing else; a watcher that fails is dropped, the match plays on."""

from __future__ import annotations

import asyncio

from arena.game import Rules, new_game
from arena.game.observation import Observation
from arena.referee import MatchSpec, in_memory
from arena.sandbox.botfile import BotSpec


def _spec(bot: BotSpec, seed: int) -> MatchSpec:
    return MatchSpec(match_id="watch", bots=(bot, bot, bot), seed=seed,
                     rules_options=(("max_deals", 2),))


def test_the_watcher_is_told_the_public_view_of_every_position(random_bot: BotSpec) -> None:
    told: list[Observation] = []
    loop = in_memory(_spec(random_bot, 8))  # seats that play the first legal action
    loop.watch = told.append
    final = asyncio.run(loop.play())
    assert len(told) == loop.n_actions + 1
    # The same views, re-built by the engine from the same (first legal) game.
    game = new_game(Rules.preset("standard").replace(max_deals=2), seed=8)
    expected = [game.public_observation()]
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
        expected.append(game.public_observation())
    assert told == expected
    assert final.is_over and all(o.seat is None and o.hand == [] for o in told)
    # Not a seat's view: every seat's own differs from it somewhere.
    assert all(told[0] != new_game(Rules.preset("standard").replace(max_deals=2), seed=8).observation(s)
               for s in range(3))


def test_a_watcher_that_fails_is_dropped_and_the_match_plays_on(random_bot: BotSpec) -> None:
    calls: list[int] = []

    def broken(obs: Observation) -> None:
        calls.append(1)
        raise RuntimeError("the watcher broke")

    loop = in_memory(_spec(random_bot, 9))
    loop.watch = broken
    final = asyncio.run(loop.play())
    assert final.is_over and calls == [1] and loop.watch is None
