"""Connections: tokens are single-use, anything else is refused and changes nothing."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import grpc
import pytest

from arena.referee.seats import Seat
from arena.referee.server import RefereeService, start_server, stop_server
from arena.referee.spec import TimeControl
from arena.sandbox.botfile import BotSpec
from arena.wire.codec import pb

pytestmark = pytest.mark.slow

CHANNELS: list[grpc.aio.Channel] = []
BOT = BotSpec(name="x", version="1", language="python", path=".", run=("true",))


async def _hello(
    address: str, token: str
) -> tuple[grpc.aio.StreamStreamCall, asyncio.Task[object], pb.RefereeMessage | None]:
    """Say hello; the first answer if one comes within 0.5 s (else None, the
    read still pending: reading in a task, as waiting on call.read() would cancel the call)."""
    channel = grpc.aio.insecure_channel(address)
    CHANNELS.append(channel)
    call = channel.stream_stream(
        "/arena.v1.Referee/Play", request_serializer=pb.BotMessage.SerializeToString,
        response_deserializer=pb.RefereeMessage.FromString,
    )()
    await call.write(pb.BotMessage(hello=pb.Hello(token=token)))
    reader = asyncio.ensure_future(call.read())
    done, _ = await asyncio.wait([reader], timeout=0.5)
    if not done:
        return call, reader, None
    first = reader.result()
    return call, reader, None if first is grpc.aio.EOF else first  # type: ignore[return-value]


@pytest.mark.parametrize("transport", ["unix", "tcp"])
def test_tokens_are_single_use_and_strangers_are_refused(transport: str) -> None:
    async def scenario() -> None:
        seats = [Seat(i, BOT, f"token-{i}", TimeControl()) for i in range(3)]
        service = RefereeService(seats)
        with tempfile.TemporaryDirectory() as tmp:
            server, address = await start_server(service, transport, tmp)
            if transport == "unix":
                assert address == f"unix:{Path(tmp) / 'referee.sock'}"
            else:
                assert address.startswith("127.0.0.1:")
            try:
                _, _, wrong = await _hello(address, "nope")
                assert wrong is not None and "unknown token" in wrong.refused
                assert not any(s.claimed for s in seats)

                call1, read1, answer = await _hello(address, "token-1")
                assert answer is None
                await asyncio.wait_for(seats[1].connected.wait(), 2)
                assert seats[1].claimed and seats[1].alive

                _, _, again = await _hello(address, "token-1")
                assert again is not None and "already connected" in again.refused
                assert seats[1].alive  # the thief changed nothing

                await seats[1].send(pb.RefereeMessage(refused="bye").SerializeToString())
                got = await read1
                assert got.refused == "bye"
                assert [r.reason for r in service.refusals] == [
                    "unknown token", "seat 1 is already connected (token used before)"]
                call1.cancel()
            finally:
                for channel in CHANNELS:
                    await channel.close()
                CHANNELS.clear()
                await stop_server(server, seats)

    asyncio.run(scenario())
