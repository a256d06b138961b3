"""Connections: tokens are single-use, anything else is refused and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import grpc
import pytest

from arena.referee import server as server_module
from arena.referee.seats import Oversized, Seat
from arena.referee.server import RefereeService, Refusals, start_server, stop_server
from arena.referee.spec import TimeControl
from arena.sandbox.botfile import BotSpec
from arena.wire.codec import pb

pytestmark = pytest.mark.slow

CHANNELS: list[grpc.aio.Channel] = []
BOT = BotSpec(name="x", version="1", language="python", path=".", run=("true",))


async def _hello(
    address: str, token: str, answered: bool = True
) -> tuple[grpc.aio.StreamStreamCall, asyncio.Task[object], pb.RefereeMessage | None]:
    """Say hello; the first answer, or None with the read still pending
    (reading in a task, as waiting on call.read() would cancel the call).
    An expected answer (a refusal) is waited for up to 10 s, so a loaded
    machine does not fail the test; an accepted Hello gets no answer, and
    0.5 s shows that none comes."""
    channel = grpc.aio.insecure_channel(address)
    CHANNELS.append(channel)
    call = channel.stream_stream(
        "/arena.v1.Referee/Play", request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.RefereeMessage.FromString,
    )()
    await call.write(pb.BotMessage(hello=pb.Hello(token=token)))
    reader = asyncio.ensure_future(call.read())
    done, _ = await asyncio.wait([reader], timeout=10.0 if answered else 0.5)
    if not done:
        return call, reader, None
    first = reader.result()
    return call, reader, None if first is grpc.aio.EOF else first  # type: ignore[return-value]


@dataclass
class Serving:
    """Three seats (tokens token-0..2), each with its own server."""

    services: list[RefereeService]
    seats: list[Seat]
    addresses: list[str]
    refusals: Refusals


@contextlib.asynccontextmanager
async def _serving(transport: str = "unix") -> AsyncIterator[Serving]:
    """A referee's servers for three seats, as a match starts them; closes
    every channel the test opened and stops the servers afterwards."""
    seats = [Seat(i, BOT, f"token-{i}", TimeControl()) for i in range(3)]
    refusals = Refusals()
    services = [RefereeService(seat, refusals) for seat in seats]
    with tempfile.TemporaryDirectory() as tmp:
        servers, addresses = [], []
        for seat, service in zip(seats, services, strict=True):
            seat_dir = os.path.join(tmp, f"seat{seat.index}")
            os.mkdir(seat_dir)
            server, address = await start_server(service, transport, seat_dir)
            servers.append(server)
            addresses.append(address)
        try:
            yield Serving(services, seats, addresses, refusals)
        finally:
            for channel in CHANNELS:
                await channel.close()
            CHANNELS.clear()
            for server in servers:
                await stop_server(server, seats)


@pytest.mark.parametrize("transport", ["unix", "tcp"])
def test_tokens_are_single_use_and_strangers_are_refused(transport: str) -> None:
    async def scenario() -> None:
        async with _serving(transport) as srv:
            seats, address = srv.seats, srv.addresses[1]
            if transport == "unix":
                assert address.startswith("unix:") and address.endswith("/seat1/referee.sock")
            else:
                assert address.startswith("127.0.0.1:")
            assert len(set(srv.addresses)) == 3  # a listener per seat
            _, _, wrong = await _hello(address, "nope")
            assert wrong is not None and "unknown token" in wrong.refused
            # Another seat's token opens nothing on this seat's socket.
            _, _, other = await _hello(address, "token-0")
            assert other is not None and "unknown token" in other.refused
            assert not any(s.claimed for s in seats)

            call1, read1, answer = await _hello(address, "token-1", answered=False)
            assert answer is None
            await asyncio.wait_for(seats[1].connected.wait(), 10)
            assert seats[1].claimed and seats[1].alive

            _, _, again = await _hello(address, "token-1")
            assert again is not None and "already connected" in again.refused
            assert seats[1].alive  # the thief changed nothing

            await seats[1].send(pb.RefereeMessage(refused="bye").SerializeToString())
            got = await read1
            assert got.refused == "bye"
            assert [(r.seat, r.reason) for r in srv.refusals.kept] == [
                (1, "unknown token"), (1, "unknown token"),
                (1, "seat 1 is already connected (token used before)")]
            assert [s.refused for s in srv.services] == [0, 3, 0]
            call1.cancel()

    asyncio.run(scenario())


async def _open_silent(address: str) -> tuple[grpc.aio.StreamStreamCall, asyncio.Task[object]]:
    """A stream that never says Hello, its first read pending in a task."""
    channel = grpc.aio.insecure_channel(address)
    CHANNELS.append(channel)
    call = channel.stream_stream(
        "/arena.v1.Referee/Play", request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.RefereeMessage.FromString,
    )()
    return call, asyncio.ensure_future(call.read())


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached within 10 s")


def test_silent_streams_are_closed_in_time_and_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream that never says Hello cannot be held for the match, nor can
    many of them pile up; an honest bot still gets its seat."""
    # 3 s: long enough that the third stream surely arrives while the first
    # two still wait, on a loaded machine too.
    monkeypatch.setattr(server_module, "HELLO_TIMEOUT", 3.0)
    monkeypatch.setattr(server_module, "UNCLAIMED_LIMIT", 2)

    async def scenario() -> None:
        async with _serving() as srv:
            service, address = srv.services[0], srv.addresses[0]
            silent = [await _open_silent(address) for _ in range(2)]
            # The server must have taken both before the third arrives.
            await _until(lambda: service.unclaimed == 2)
            _, third = await _open_silent(address)
            first_answer = await asyncio.wait_for(third, 10)
            assert "too many connections waiting" in first_answer.refused  # type: ignore[attr-defined]
            for _, reader in silent:
                answer = await asyncio.wait_for(reader, 10)
                assert "no Hello within 3s" in answer.refused  # type: ignore[attr-defined]
            await _until(lambda: service.unclaimed == 0)
            # The honest bot's Hello must not race the short limit above.
            monkeypatch.setattr(server_module, "HELLO_TIMEOUT", 10.0)
            _, _, answer = await _hello(address, "token-0", answered=False)
            assert answer is None
            await _until(lambda: srv.seats[0].claimed)
            assert srv.refusals.total == 3

    asyncio.run(scenario())


def test_silent_streams_on_one_seat_leave_the_others_their_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat lockout: streams that never say Hello fill only the Hello
    slots of the socket they were opened on. Every other seat still connects."""
    async def scenario() -> None:
        async with _serving() as srv:
            hog = srv.addresses[0]
            for _ in range(server_module.UNCLAIMED_LIMIT):
                await _open_silent(hog)
            await _until(lambda: srv.services[0].unclaimed == server_module.UNCLAIMED_LIMIT)
            _, refused = await _open_silent(hog)
            answer = await asyncio.wait_for(refused, 10)
            assert "too many connections waiting" in answer.refused  # type: ignore[attr-defined]
            for i in (1, 2):
                _, _, answer = await _hello(srv.addresses[i], f"token-{i}", answered=False)
                assert answer is None
                await asyncio.wait_for(srv.seats[i].connected.wait(), 10)
            assert [s.claimed for s in srv.seats] == [False, True, True]

    asyncio.run(scenario())


def test_a_socket_that_refuses_flood_limit_streams_reports_its_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "FLOOD_LIMIT", 5)

    async def scenario() -> None:
        async with _serving() as srv:
            flooded: list[tuple[int, int]] = []
            srv.services[2].flooded = lambda seat, n: flooded.append((seat.index, n))
            for i in range(8):
                _, _, wrong = await _hello(srv.addresses[2], f"guess-{i}")
                assert wrong is not None and "unknown token" in wrong.refused
            assert flooded == [(2, 5), (2, 6), (2, 7), (2, 8)]  # from the limit on
            assert [s.refused for s in srv.services] == [0, 0, 8]

    asyncio.run(scenario())


def test_streams_that_end_before_their_hello_count_as_refused() -> None:
    """Opening streams that end at once costs the referee as much as refused
    ones: they count towards the flood limit too."""
    async def scenario() -> None:
        async with _serving() as srv:
            for _ in range(3):
                call, reader = await _open_silent(srv.addresses[0])
                await call.done_writing()  # ends its side before any message
                await asyncio.wait_for(reader, 10)
            await _until(lambda: srv.services[0].refused == 3)
            assert [r.reason for r in srv.refusals.kept] == ["stream closed before its Hello"] * 3
            assert not srv.seats[0].claimed

    asyncio.run(scenario())


def test_refusal_spam_is_counted_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "REFUSALS_KEPT", 3)

    async def scenario() -> None:
        async with _serving() as srv:
            for i in range(7):
                _, _, wrong = await _hello(srv.addresses[i % 3], f"guess-{i}")
                assert wrong is not None and "unknown token" in wrong.refused
            assert srv.refusals.total == 7
            assert [(r.seat, r.reason) for r in srv.refusals.kept] == [
                (0, "unknown token"), (1, "unknown token"), (2, "unknown token")]
            assert srv.refusals.untold == {0: 2, 1: 1, 2: 1}  # guesses 3..6 went to seats 0, 1, 2, 0
            assert not any(s.claimed for s in srv.seats)

    asyncio.run(scenario())


def test_oversized_messages_are_dropped_on_arrival() -> None:
    """Only the size of a message over the limit is kept: a bot cannot park
    up to a megabyte per message in the referee's inbox."""
    async def scenario() -> None:
        async with _serving() as srv:
            seats = srv.seats
            call, _, _ = await _hello(srv.addresses[2], "token-2", answered=False)
            big = pb.BotMessage(hello=pb.Hello(bot_name="x" * (server_module.MESSAGE_LIMIT + 10)))
            small = pb.BotMessage(reply=pb.Reply(seq=1, text="pass"))
            for message in (big, small, big):
                await call.write(message)
            await _until(lambda: len(seats[2].inbox) == 3)
            size = big.ByteSize()
            assert [item for _arrived, item in seats[2].inbox] == [Oversized(size), small.SerializeToString(), Oversized(size)]

    asyncio.run(scenario())
