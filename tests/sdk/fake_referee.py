"""A scripted referee for client-side tests: a real grpc.aio server on a
unix socket that plays one short scenario with one bot process (an SDK bot
or a sample bot in any language), so a test can see what the bot sent and
how it ended (its exit status and what it printed)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from arena.game import Rules, new_game
from arena.wire import codec
from arena.wire.codec import pb

# full:    match start, the decisions with their replies, match end (a whole match, cut short)
# eof:     match start, the decisions with their replies, then the stream just ends
# refused: the Hello is refused
# abort:   match start, the decisions with their replies, then an INTERNAL error
SCENARIOS = ("full", "eof", "refused", "abort")


def first_decision() -> pb.DecisionRequest:
    game = new_game(Rules.preset("standard"), seed=1)
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions()
    return pb.DecisionRequest(
        seq=1, observation=codec.observation_to_pb(game.observation(seat).to_dict()),
        legal_actions=[codec.action_to_pb(a) for a in legal], legal_texts=[str(a) for a in legal],
        time_limit_s=5.0, bank_left_s=4.0,
        events=[pb.Event(deal_number=1, seat=seat, kind="deal", text="deal 1")],
    )


@dataclass
class Outcome:
    returncode: int
    stderr: str
    replies: list[pb.Reply] = field(default_factory=list)
    hello: pb.Hello | None = None


async def _serve(scenario: str, command: list[str], tmp: Path, decisions: Sequence[pb.DecisionRequest],
                 cwd: Path | None, env: Mapping[str, str]) -> Outcome:
    replies: list[pb.Reply] = []
    hello: list[pb.Hello] = []

    async def play(requests: AsyncIterator[pb.BotMessage], context: Any) -> AsyncIterator[pb.RefereeMessage]:
        it = requests.__aiter__()
        hello.append((await it.__anext__()).hello)
        if scenario == "refused":
            yield pb.RefereeMessage(refused="unknown token")
            return
        yield pb.RefereeMessage(match_start=pb.MatchStart(protocol_version=2, match_id="fake", seat=0))
        for request in decisions:
            yield pb.RefereeMessage(decision=request)
            try:
                answer = await asyncio.wait_for(it.__anext__(), 10)
            except (StopAsyncIteration, TimeoutError):
                return
            replies.append(answer.reply)
        if scenario == "abort":
            await context.abort(grpc.StatusCode.INTERNAL, "the referee failed")
        if scenario == "full":
            yield pb.RefereeMessage(match_end=pb.MatchEnd(
                totals=[120, 0, 0], places=[1, 2, 2], statuses=["ok"] * 3, reason="complete"))
            await asyncio.sleep(0.5)  # the bot closes its side, then the stream ends

    server = grpc.aio.server()
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("arena.v1.Referee", {
        "Play": grpc.stream_stream_rpc_method_handler(
            play, request_deserializer=pb.BotMessage.FromString,
            response_serializer=pb.RefereeMessage.SerializeToString),
    }),))
    address = f"unix:{tmp / 'fake.sock'}"
    server.add_insecure_port(address)
    await server.start()
    try:
        proc = await asyncio.create_subprocess_exec(
            *command, cwd=cwd, env={**os.environ, **env, "ARENA_ADDRESS": address, "ARENA_TOKEN": "t"},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        await server.stop(grace=0.2)
    assert proc.returncode is not None
    return Outcome(proc.returncode, err.decode(errors="replace"), replies, hello[0] if hello else None)


def run_against(scenario: str, command: list[str], tmp: Path,
                decisions: Sequence[pb.DecisionRequest] | None = None, *,
                cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Outcome:
    """Start `command` (in `cwd`, with `env` added) as a bot against the
    scenario, asking `decisions` (by default one real first decision); what
    it sent and how it ended."""
    assert scenario in SCENARIOS
    return asyncio.run(_serve(scenario, command, tmp, decisions or [first_decision()], cwd, env or {}))


def python_bot(tmp: Path, body: str, catch_errors: bool = False) -> list[str]:
    """The command of an SDK bot whose class body is `body` (indented 4)."""
    script = tmp / "bot.py"
    script.write_text(
        "import sys\nfrom arena.sdk import Bot, run\n\n\nclass B(Bot):\n"
        + body + f"\n\nsys.exit(run(B(), catch_errors={catch_errors}))\n")
    return [sys.executable, str(script)]
