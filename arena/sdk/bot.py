"""The SDK's bot base class, the observation it sees, and the client loop."""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import grpc

from arena.game.actions import Action
from arena.game.cards import Card
from arena.wire import codec
from arena.wire.codec import pb

PROTOCOL_VERSION = 2


class Observation:
    """What the seat may know now, plus the decision's legal actions.

    Every field of the protocol's `Observation` message is an attribute
    (`obs.hand`, `obs.phase`, `obs.trick`, `obs.talon_count`, ...) and an
    item (`obs["hand"]`); `obs.data` is the whole dict, keyed by the proto's
    field names. Cards are text ("QH"); `hand_cards` gives Card values.
    What a seat may know: docs/protocol.md#what-a-seat-may-know.

    `talon_size`, the field's name before the proto renamed it to
    `talon_count` (same number, same bytes on the wire), still works as an
    attribute and an item, with a DeprecationWarning.
    """

    def __init__(self, request: pb.DecisionRequest) -> None:
        self.request = request          # the raw DecisionRequest message
        self.seq: int = request.seq
        self.time_limit_s: float = request.time_limit_s
        self.bank_left_s: float = request.bank_left_s
        self._data: dict[str, Any] | None = None
        self._legal: list[Action] | None = None

    @property
    def data(self) -> dict[str, Any]:
        """The observation as a dict keyed by the proto's field names (built
        on first use): the engine's `Observation.to_dict()` but for
        `talon_count`, which the engine calls "talon_size"."""
        if self._data is None:
            self._data = codec.observation_from_pb(self.request.observation, wire_names=True)
        return self._data

    @property
    def legal_actions(self) -> list[Action]:
        """The legal actions as engine values, in the engine's sorted order."""
        if self._legal is None:
            self._legal = [codec.text_to_action(t) for t in self.request.legal_texts]
        return self._legal

    @property
    def legal_texts(self) -> list[str]:
        return list(self.request.legal_texts)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._field(name)
        except KeyError:
            raise AttributeError(f"observation has no field {name!r}") from None

    def __getitem__(self, name: str) -> Any:
        return self._field(name)

    def _field(self, name: str) -> Any:
        data = self.data
        # A former name of a renamed field (same number and type on the wire).
        renamed = codec.OBSERVATION_RENAMES.get(name)
        if renamed is not None and name not in data:
            # stacklevel 3: the bot's line that used the old name
            warnings.warn(f"observation field {name!r} is now called {renamed!r}",
                          DeprecationWarning, stacklevel=3)
            name = renamed
        return data[name]

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(c) for c in self.data["hand"])

    def __repr__(self) -> str:
        return f"Observation(seq={self.seq}, phase={self.data.get('phase')!r}, legal={self.legal_texts})"


class Bot:
    """Subclass and implement `act`. The hooks are optional."""

    name: str = "python-bot"
    version: str = "0"
    # True: the referee also tells this bot, with a `Turn` message, whenever
    # another seat is asked to decide (`on_turn`; docs/protocol.md#turn-notices).
    turn_notices: bool = False

    def on_match_start(self, start: pb.MatchStart) -> None:
        """The match begins: `start.seat` is this bot's seat, `start.rules` the rules."""

    def act(self, obs: Observation) -> Action | str:
        """Return one of `obs.legal_actions` (or its text)."""
        raise NotImplementedError

    def on_event(self, event: pb.Event) -> None:
        """Something happened at the table (a bid, a play, a trick won, ...)."""

    def on_turn(self, turn: pb.Turn) -> None:
        """Another seat decides now (only with `turn_notices = True`): `turn.seat`,
        `turn.phase`, its clock `turn.time_limit_s`. Its events come first, to `on_event`."""

    def on_deal_end(self, result: pb.DealResult) -> None:
        """A deal was scored."""

    def on_match_end(self, end: pb.MatchEnd) -> None:
        """The match is over: final totals, places and statuses."""


def _reply(seq: int, choice: Action | str) -> pb.BotMessage:
    """The Reply for `choice`; TypeError, naming `act`, for anything that is
    neither an action nor its text (None, a number, an un-awaited coroutine
    of an `async def act`), which the codec would fail on obscurely."""
    if isinstance(choice, str):
        return pb.BotMessage(reply=pb.Reply(seq=seq, text=choice))
    if not isinstance(choice, Action):
        if inspect.iscoroutine(choice):
            choice.close()  # never awaited: say so here, not in a warning at exit
            raise TypeError("act() must be a plain function (def, not async def): it returned a coroutine")
        raise TypeError(f"act() must return one of obs.legal_actions or its text, "
                        f"got {type(choice).__name__}: {choice!r:.60}")
    return pb.BotMessage(reply=pb.Reply(seq=seq, action=codec.action_to_pb(choice)))


def _decide(bot: Bot, obs: Observation, catch_errors: bool) -> pb.BotMessage:
    """The reply to one decision request: `act`'s choice, or with
    `catch_errors` the first legal action when `act` raises or returns
    something that is not an action."""
    try:
        return _reply(obs.seq, bot.act(obs))
    except Exception:
        if not catch_errors:
            raise
        traceback.print_exc()
        return _reply(obs.seq, obs.legal_actions[0])


def _hook(hook: Callable[[Any], None], arg: Any, catch_errors: bool) -> None:
    """Call one of the bot's hooks; with `catch_errors` an exception in it is
    printed and the match goes on, as for `act`."""
    try:
        hook(arg)
    except Exception:
        if not catch_errors:
            raise
        traceback.print_exc()


def run(
    bot: Bot, address: str | None = None, token: str | None = None, catch_errors: bool = False
) -> int:
    """Play one match for `bot`; returns the process exit status to use."""
    address = address or os.environ.get("ARENA_ADDRESS", "")
    token = token or os.environ.get("ARENA_TOKEN", "")
    if not address or not token:
        print("arena.sdk: ARENA_ADDRESS and ARENA_TOKEN must be set (the referee starts bots)",
              file=sys.stderr)
        return 2
    return asyncio.run(_play(bot, address, token, catch_errors))


async def _play(bot: Bot, address: str, token: str, catch_errors: bool) -> int:
    """The match loop on one grpc.aio stream. A bot's hooks are plain
    functions called in this loop: a bot has one stream and nothing else to
    do while it thinks. (grpc.aio rather than the threaded sync API: one
    thread instead of three hand-offs per message, measured about a fifth
    less CPU per decision, which tournaments pay on every move.)"""
    async with grpc.aio.insecure_channel(address) as channel:
        play: Any = channel.stream_stream(
            "/arena.v1.Referee/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.RefereeMessage.FromString,
        )
        call = play()
        status = 0
        finished = False  # match_end (or a refusal) seen: the stream may end now
        try:
            await call.write(pb.BotMessage(hello=pb.Hello(
                token=token, bot_name=bot.name, bot_version=bot.version,
                protocol_version=PROTOCOL_VERSION, turn_notices=bot.turn_notices,
            )))
            while True:
                msg = await call.read()
                if not isinstance(msg, pb.RefereeMessage):  # grpc.aio.EOF: the stream ended
                    break
                body = msg.WhichOneof("body")
                if body == "decision":
                    for event in msg.decision.events:  # events delivered with the request
                        _hook(bot.on_event, event, catch_errors)
                    await call.write(_decide(bot, Observation(msg.decision), catch_errors))
                elif body == "event":
                    _hook(bot.on_event, msg.event, catch_errors)
                elif body == "turn":
                    for event in msg.turn.events:  # the events before the turn, first
                        _hook(bot.on_event, event, catch_errors)
                    _hook(bot.on_turn, msg.turn, catch_errors)
                elif body == "deal_result":
                    for event in msg.deal_result.events:  # the deal's last events, first
                        _hook(bot.on_event, event, catch_errors)
                    _hook(bot.on_deal_end, msg.deal_result, catch_errors)
                elif body == "match_start":
                    _hook(bot.on_match_start, msg.match_start, catch_errors)
                elif body == "match_end":
                    finished = True
                    for event in msg.match_end.events:
                        _hook(bot.on_event, event, catch_errors)
                    _hook(bot.on_match_end, msg.match_end, catch_errors)
                    break
                elif body == "refused":
                    print(f"arena.sdk: refused by the referee: {msg.refused}", file=sys.stderr)
                    finished, status = True, 1
                    break
            if not finished:
                print("arena.sdk: the stream ended before the match did", file=sys.stderr)
                status = 1
            await call.done_writing()
        except grpc.aio.AioRpcError as exc:
            if not (finished and exc.code() == grpc.StatusCode.CANCELLED):
                print(f"arena.sdk: stream ended: {exc.code()}", file=sys.stderr)
                status = 1
        except grpc.aio.UsageError:
            if not finished:  # written to a stream the referee had closed
                print("arena.sdk: the referee closed the stream before the match ended",
                      file=sys.stderr)
                status = 1
        except Exception:  # noqa: BLE001 - any error of the bot's own code ends its match
            # The bot's own error (in act or a hook, without catch_errors). Its
            # traceback goes out before the stream closes: the referee stops a
            # bot whose stream is gone, and would cut the printing short.
            traceback.print_exc()
            sys.stderr.flush()
            status = 1
        finally:
            call.cancel()
    return status
