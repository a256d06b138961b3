"""The referee's in-memory seam (arena.referee.memory): the real game loop
over seats whose bots answer in this process, no gRPC, no processes."""

from __future__ import annotations

import asyncio

from arena.game import Rules, new_game
from arena.referee import (
    FaultPolicy,
    GameLoop,
    MatchSpec,
    Posted,
    build_rules,
    first_legal,
    in_memory,
    memory_seats,
)
from arena.sandbox.botfile import BotSpec
from arena.wire.codec import pb


def _spec(bot: BotSpec, seed: int, **more: object) -> MatchSpec:
    return MatchSpec(match_id="memory", bots=(bot, bot, bot), seed=seed, **more)  # type: ignore[arg-type]


def test_first_legal_seats_play_the_engines_own_first_legal_game(random_bot: BotSpec) -> None:
    loop = in_memory(_spec(random_bot, 5))
    final = asyncio.run(loop.play())
    game = new_game(Rules.preset("standard"), seed=5)
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
    assert final.totals == game.totals
    assert loop.deals == list(game.deals)  # the engine's own records
    assert loop.n_actions == sum(s.decisions for s in loop.seats) > 0
    assert all(not s.forfeited and not any(s.faults.values()) for s in loop.seats)


def test_every_message_is_recorded_in_order_and_each_request_answered(random_bot: BotSpec) -> None:
    record: list[Posted] = []
    loop = in_memory(_spec(random_bot, 2), record=record)
    asyncio.run(loop.play())
    kinds = [pb.RefereeMessage.FromString(data).WhichOneof("body") for _, data, _ in record]
    assert set(kinds) == {"decision", "deal_result"}
    assert [k == "decision" for k in kinds] == [asked for *_, asked in record]
    # Each seat's decision requests count up from 1: none skipped, none twice.
    for seat in loop.seats:
        seqs = [pb.RefereeMessage.FromString(d).decision.seq
                for s, d, asked in record if s == seat.index and asked]
        assert seqs == list(range(1, seat.decisions + 1))


def test_a_stand_in_that_answers_garbage_is_judged_as_a_bot_would_be(random_bot: BotSpec) -> None:
    """Seat 1 answers with bytes that are no BotMessage: a malformed fault,
    and under a forfeit policy the seat forfeits; the others play on."""

    def garbage(data: bytes) -> bytes | None:
        return b"\xff\xff not a message" if first_legal(data) is not None else None

    spec = _spec(random_bot, 3, fault_policy=FaultPolicy(mode="forfeit"),
                 rules_options=(("max_deals", 1),))
    seats = memory_seats(spec)
    seats[1].stand_in = garbage
    loop = GameLoop(build_rules(spec), spec.seed, seats,
                    policy=spec.fault_policy)
    asyncio.run(loop.play())
    assert seats[1].forfeited and seats[1].faults["malformed"] == 1
    assert seats[1].fault_log == ["decision 1: not a BotMessage"]
    assert not seats[0].forfeited and not seats[2].forfeited
