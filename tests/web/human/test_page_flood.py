"""A page that floods its seat with messages that answer nothing: after
REFUSED_LIMIT of them the seat stops answering and closes the page's socket,
so neither the server's memory nor the match's event loop (which the bots'
clocks share) is the page's to take. In-process, then a real `arena play
human` over a real websocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import websockets

from arena.web.human.seat import NOTICES_KEPT, REFUSED_LIMIT, HumanSeat

from .browser_client import join

ROOT = Path(__file__).resolve().parents[3]
URL = re.compile(r"open (http://127\.0\.0\.1:(\d+)/join/\S+)")


def test_refused_messages_are_told_up_to_the_limit_and_kept_bounded() -> None:
    seat = HumanSeat(seat=0, name="ann")
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    seat._queue = queue  # a page attached (what attach() sets up)
    for i in range(10 * REFUSED_LIMIT):
        seat.receive({"type": "act", "seq": i, "action": "pass"} if i % 2 else {"type": "x"})
        assert seat.flooding == (i >= REFUSED_LIMIT)
    assert queue.qsize() == REFUSED_LIMIT
    assert len(seat.notices) == min(REFUSED_LIMIT, NOTICES_KEPT)
    told = [json.loads(queue.get_nowait()) for _ in range(2)]
    assert [t["type"] for t in told] == ["notice", "notice"]


@pytest.mark.slow
def test_a_flooding_page_gets_its_socket_closed(run_arena: Any) -> None:
    proc = run_arena("play", "human", str(ROOT / "sample_bots" / "greedy"),
                     str(ROOT / "sample_bots" / "random"), "--no-open", "--port", "0",
                     "--sandbox", "process", "--grace", "2")
    m = URL.search(proc.wait_line("open http"))
    assert m

    async def flood() -> tuple[int, int]:
        path, cookie = await asyncio.to_thread(join, m.group(1))
        sent = 0
        async with websockets.connect(f"ws://127.0.0.1:{m.group(2)}{path}/socket",
                                      additional_headers={"Cookie": cookie}) as ws:
            # The page reads what the server sends, as a browser does: a
            # client that reads nothing stops taking frames once its queue
            # is full, and then never sees the server's close frame (under
            # load the server sends its notices before it reads the flood).
            drain = asyncio.create_task(_drain(ws))
            try:
                while sent < 100 * REFUSED_LIMIT - 1:
                    await ws.send(json.dumps({"type": "nothing"}))
                    sent += 1
                    await asyncio.sleep(0)
                await asyncio.wait_for(ws.wait_closed(), 30)
            except websockets.ConnectionClosed:
                pass
            finally:
                drain.cancel()
            assert ws.close_code is not None
            return sent, ws.close_code

    sent, code = asyncio.run(flood())
    # The close code is the server's (1008, policy violation): it is what
    # proves the flood was cut. How many messages the client got into its
    # socket first depends on how far the server's loop lagged behind it
    # (under load it can be all of them), so it is not asserted.
    assert code == 1008, (sent, code)
    _code, _out, err = proc.finish()  # the seat is given up after the grace; the match ends
    assert f"its page sent more than {REFUSED_LIMIT} messages that answer nothing" in err, err


async def _drain(ws: Any) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _message in ws:
            pass
