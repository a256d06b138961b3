"""The human seat's bridge in-process: what a page that (re)joins is sent
while another seat decides (a Turn notice was the last message)."""

from __future__ import annotations

import asyncio
import json

from arena.game import Rules, new_game
from arena.web.human.seat import HumanSeat
from arena.wire import codec
from arena.wire.codec import pb


class _Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        self.texts.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


def _turn(seat: int, per_move: float) -> bytes:
    game = new_game(Rules.preset("standard"), seed=3)
    obs = codec.observation_to_pb(game.observation(0).to_dict()).SerializeToString()
    return codec.turn_message(seat, "bidding", 1, per_move, [], obs)


def _rejoin(human: HumanSeat) -> list[dict[str, object]]:
    async def run() -> list[str]:
        socket = _Socket()
        task = asyncio.get_running_loop().create_task(human.attach(socket))
        while not human.flushed or not socket.texts:
            await asyncio.sleep(0.01)
        human.detach(socket)
        await task
        return socket.texts

    return [json.loads(t) for t in asyncio.run(run())]


def test_a_page_that_rejoins_during_another_seats_turn_gets_its_clock() -> None:
    human = HumanSeat(seat=0, name="p")
    human.started = True
    assert human._forward(_turn(2, 30.0))
    frames = _rejoin(human)
    assert frames[0]["type"] == "referee" and "turn" in frames[0]["message"]  # type: ignore[operator]
    assert frames[0]["view"]["viewer"] == 0  # type: ignore[index]
    clock = frames[-1]
    assert clock["type"] == "turn_clock" and clock["seat"] == 2
    assert 0 < clock["left_s"] <= 30.0  # type: ignore[operator]


def test_no_turn_clock_once_the_turn_is_over() -> None:
    """A deal result (or the seat's own request) ends the other seat's turn."""
    human = HumanSeat(seat=0, name="p")
    human.started = True
    human._forward(_turn(1, 30.0))
    human._forward(pb.RefereeMessage(deal_result=pb.DealResult(deal_number=1)).SerializeToString())
    assert human.turn is None
    assert all(f["type"] != "turn_clock" for f in _rejoin(human))
