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
import contextlib
import dataclasses
import hashlib
import hmac
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException

from arena.referee.hosted import hosted_bot, register_host, unregister_host
from arena.referee.spec import MatchResult, MatchSpec, TimeControl
from arena.web.human.routes import RematchRefused, ReviewDesk, Tables, http_error, human_routes
from arena.web.human.seat import GRACE, HumanSeat
from arena.web.human.serving import Serving
from arena.web.review import Reviews

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


def rematch_spec(spec: MatchSpec, number: int) -> MatchSpec:
    """Rematch `number` (1, 2, ...) of `spec`: the same options, bots and
    clocks, new cards. Its seed is an HMAC of the first match's seed under
    the match's secret key (so the same --seed and --key repeat the rematches
    too, and nobody without the key learns a deal seed from another); its
    replay goes beside the first's, `NAME-rematchN.jsonl`."""
    digest = hmac.new(spec.key.encode(), f"rematch {spec.seed} {number}".encode(), hashlib.sha256).digest()
    replay = ""
    if spec.replay_path:
        first = Path(spec.replay_path)
        replay = str(first.with_name(f"{first.stem}-rematch{number}{first.suffix}"))
    return dataclasses.replace(spec, match_id=f"{spec.match_id}-rematch{number}",
                               seed=int.from_bytes(digest[:8], "big") >> 1, replay_path=replay)


class _Rematches:
    """After a match, the people's pages may ask for a rematch (`ask`), each
    from the browser that held its seat; the first ask makes the next match's
    seats, and each asker is seated in its own seat of it at once."""

    def __init__(self, people: Mapping[int, str], grace: float) -> None:
        self.people = people
        self.grace = grace
        self.seats = self.new_seats()
        self.previous: list[HumanSeat] = []     # the match that just ended
        self.next: list[HumanSeat] | None = None
        self.asked = asyncio.Event()
        self.open = False                       # a match has ended and a rematch may be asked

    def new_seats(self) -> list[HumanSeat]:
        return [HumanSeat(seat=i, name=name, grace=self.grace) for i, name in sorted(self.people.items())]

    def ask(self, _game: str, seat: int, session: str | None) -> tuple[HumanSeat, str] | None:
        before = next((s for s in self.previous if s.seat == seat), None)
        if before is None or not before.admits(session):
            return None
        if not self.open:
            raise RematchRefused("no rematch can be asked now: the next match has begun, or the server is stopping")
        if self.next is None:
            self.next = self.new_seats()
            self.asked.set()
        mine = next(s for s in self.next if s.seat == seat)
        if mine.joined:
            raise RematchRefused(f"seat {seat} of the rematch is taken already")
        got = mine.use_join(mine.join_secret, "rematch")
        assert got is not None
        return mine, got


async def play_with_people(
    spec: MatchSpec, people: Mapping[int, str], *, host: str = "127.0.0.1", port: int = 0,
    time_control: TimeControl = HUMAN_TIME, grace: float = GRACE,
    on_ready: Callable[[list[tuple[HumanSeat, str]]], None] | None = None,
    rematch: bool = False, on_result: Callable[[MatchResult], None] | None = None,
    review: bool = False,
) -> MatchResult:
    """Serve the human seats, wait for the people, play the match. With
    `rematch`, the end of the match offers its people a rematch (rematch_spec):
    the server waits `grace` seconds for one to be asked, and plays it when its
    people are seated; each match's result but the last goes to `on_result`
    as the next begins, the last is returned. With `review` (and a replay
    kept), the end of the match offers "Review this game" (web/review.py):
    the server waits `grace` seconds for one to be asked, and serves while
    a review runs and `grace` seconds after, for its page to be read."""
    from arena.referee.match import build_rules, play_match

    build_rules(spec)  # a bad choice of rules fails before anyone is asked to join
    table = _Rematches(people, grace)
    tables = Tables()
    tables.add("play", table.seats)
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from arena.web.app import STATIC_DIR  # the shared table drawing and its style

    # The server stops with the match: the page says where its replay is.
    after = (f"The replay is the file {Path(spec.replay_path).name!r} given to `arena play --replay` "
             "(`arena replay show FILE`; `arena serve FILE` opens it in the player)."
             if spec.replay_path else
             "No replay was kept: `arena play human ... --replay FILE` keeps one.")
    if rematch and spec.replay_path:
        after += f" A rematch's is beside it: {Path(spec.replay_path).stem}-rematch1{Path(spec.replay_path).suffix}, ..."
    reviews = Reviews() if review and spec.replay_path else None
    finished: list[Path] = []    # the replay of the match just over, while a review may be asked
    desk = ReviewDesk(reviews, lambda _g: finished[-1] if finished else None) if reviews else None
    app = Starlette(routes=[*human_routes(tables, title=lambda _g: f"match {spec.match_id}", after=after,
                                          rematch=table.ask if rematch else None, review=desk),
                            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static")],
                    exception_handlers={HTTPException: http_error})
    loop = asyncio.get_running_loop()
    try:
        async with Serving(app, host, port) as serving:
            number = 0
            while True:
                seats = table.seats
                keys = {s.seat: register_host(s.play, loop) for s in seats}
                try:
                    if on_ready is not None:
                        on_ready([(s, f"{serving.url}/join/{s.join_secret}") for s in seats])
                    await wait_seated(seats)
                    this = spec if number == 0 else rematch_spec(spec, number)
                    finished.clear()
                    result = await play_match(human_spec(this, seats, keys, time_control))
                    if this.replay_path:
                        finished.append(Path(this.replay_path))
                    await linger(seats)
                finally:
                    for key in keys.values():
                        unregister_host(key)
                if not rematch and reviews is None:
                    return result
                table.previous, table.next, table.open = seats, None, rematch
                table.asked.clear()
                try:
                    asked = await _after_match(table.asked, reviews, grace)
                finally:
                    table.open = False
                if not asked:
                    return result
                assert table.next is not None
                if on_result is not None:
                    on_result(result)
                number += 1
                table.seats = table.next
                tables.add("play", table.seats)
    finally:
        if reviews is not None:
            await asyncio.to_thread(reviews.close)


async def _after_match(asked: asyncio.Event, reviews: Reviews | None, grace: float) -> bool:
    """After a match: True once a rematch is asked; False when `grace`
    seconds passed with none asked and no review running (a review keeps
    the server up, and `grace` more seconds after it ends for its page)."""
    deadline = time.monotonic() + grace
    while not asked.is_set():
        if reviews is not None and reviews.busy():
            deadline = time.monotonic() + grace
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asked.wait(), timeout=min(left, 0.2))
    return True
