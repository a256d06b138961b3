"""benchmarks/referee_work.py drives the real match loop to the end of a game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType

from arena.game import Rules, new_game
from arena.wire.codec import pb


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


def test_the_stand_in_bots_work_is_timed_alone_over_the_same_messages(
    load_script: Callable[[str, str], ModuleType],
) -> None:
    module = load_script("benchmarks/referee_work.py", "referee_work")
    script: list[tuple[int, bytes, bool]] = []
    asyncio.run(module.in_memory(module.game_spec(2), script).play())
    # The stand-in answers a decision request, and nothing else, with its
    # first legal action under the request's sequence number.
    for _seat, data, decision in script:
        answer = module.stand_in(data)
        assert (answer is not None) == decision
        if answer is not None:
            asked = pb.RefereeMessage.FromString(data).decision
            reply = pb.BotMessage.FromString(answer).reply
            assert (reply.seq, reply.action) == (asked.seq, asked.legal_actions[0])
    assert sum(decision for *_, decision in script) == module.play_one(2)[1]
    assert module.stand_in_cpu(2) > 0
    # What is left for the referee once the stand-in's share is taken out.
    assert module.referee_cpu_per_decision(2) > 0


def test_with_turns_every_other_seat_is_told_of_each_decision(
    load_script: Callable[[str, str], ModuleType],
) -> None:
    """`--turns`: the same game, each seat asking for Turn notices; the standard
    rules' redeal offers are private, so a decision may go untold, never more."""
    module = load_script("benchmarks/referee_work.py", "referee_work")
    script: list[tuple[int, bytes, bool]] = []
    match = module.in_memory(module.game_spec(2), script)
    for seat in match.seats:
        seat.turn_notices = True
    asyncio.run(match.play())
    turns = [pb.RefereeMessage.FromString(d).turn for s, d, _ in script
             if pb.RefereeMessage.FromString(d).WhichOneof("body") == "turn"]
    decisions = sum(decision for *_, decision in script)
    assert 0 < len(turns) <= 2 * decisions and len(turns) > decisions
    assert module.play_one(2, turns=True)[1] == module.play_one(2)[1] == decisions
