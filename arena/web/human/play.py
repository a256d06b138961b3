"""A match with human seats: the referee, the bots, the bridges and the web
server in one event loop (what `arena play human ...` runs).

    result = await play_with_people(spec, people, on_ready=print_links)

`spec.bots` holds a placeholder for each human seat; `people` maps those
seats to their names. The match starts once every person has opened their
join link and the page is connected, so nobody's clock runs before they
sit down.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from arena.referee.hosted import hosted_bot, register_host, unregister_host
from arena.referee.spec import MatchResult, MatchSpec, TimeControl
from arena.web.human.routes import Tables, http_error, human_routes
from arena.web.human.seat import GRACE, HumanSeat
from arena.web.human.serving import Serving

# A person's default time control: a generous limit per move (the page
# counts it down) and a bank for the odd long think; no increment.
HUMAN_TIME = TimeControl(per_move=60.0, bank=120.0, increment=0.0, startup=15.0)
LINGER = 2.0   # seconds the last frames have to reach the pages after the match


def human_spec(spec: MatchSpec, seats: Sequence[HumanSeat], keys: Mapping[int, str],
               time_control: TimeControl, per_seat: Mapping[int, TimeControl] | None = None) -> MatchSpec:
    """`spec` with each human seat played by its bridge, under its own time
    control: `per_seat`'s for the seats it names, else `time_control`."""
    bots = list(spec.bots)
    for seat in seats:
        bots[seat.seat] = hosted_bot(seat.name, keys[seat.seat])
    own = tuple((s.seat, (per_seat or {}).get(s.seat, time_control)) for s in seats)
    return dataclasses.replace(spec, bots=tuple(bots), seat_time=(*spec.seat_time, *own))


async def wait_seated(seats: Sequence[HumanSeat]) -> None:
    """Until every seat has joined and its page is open."""
    while not all(s.joined and s.connected for s in seats):
        for s in seats:
            s.changed.clear()
        waits = [asyncio.ensure_future(s.changed.wait()) for s in seats]
        try:
            await asyncio.wait(waits, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()


async def linger(seats: Sequence[HumanSeat], patience: float = LINGER) -> None:
    """Give the pages a moment to get the match's last frames."""
    end = time.monotonic() + patience
    while time.monotonic() < end and any(s.connected and not s.flushed for s in seats):
        await asyncio.sleep(0.05)


async def play_with_people(
    spec: MatchSpec, people: Mapping[int, str], *, host: str = "127.0.0.1", port: int = 0,
    time_control: TimeControl = HUMAN_TIME, grace: float = GRACE,
    on_ready: Callable[[list[tuple[HumanSeat, str]]], None] | None = None,
) -> MatchResult:
    """Serve the human seats, wait for the people, play the match."""
    from arena.referee.match import build_rules, play_match

    build_rules(spec)  # a bad choice of rules fails before anyone is asked to join
    seats = [HumanSeat(seat=i, name=name, grace=grace) for i, name in sorted(people.items())]
    tables = Tables()
    tables.add("play", seats)
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from arena.web.app import STATIC_DIR  # the shared table drawing and its style

    # The server stops with the match: the page says where its replay is.
    after = (f"The replay is the file {Path(spec.replay_path).name!r} given to `arena play --replay` "
             "(`arena replay show FILE`; `arena serve FILE` opens it in the player)."
             if spec.replay_path else
             "No replay was kept: `arena play human ... --replay FILE` keeps one.")
    app = Starlette(routes=[*human_routes(tables, title=lambda _g: f"match {spec.match_id}", after=after),
                            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static")],
                    exception_handlers={HTTPException: http_error})
    loop = asyncio.get_running_loop()
    keys = {s.seat: register_host(s.play, loop) for s in seats}
    try:
        async with Serving(app, host, port) as serving:
            if on_ready is not None:
                on_ready([(s, f"{serving.url}/join/{s.join_secret}") for s in seats])
            await wait_seated(seats)
            result = await play_match(human_spec(spec, seats, keys, time_control))
            await linger(seats)
            return result
    finally:
        for key in keys.values():
            unregister_host(key)
