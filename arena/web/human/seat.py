"""One person's seat: a bridge between the referee and the person's browser.

The bridge is a bot (docs/people.md): the referee starts it
like one (arena.referee.hosted), with the seat's ARENA_ADDRESS and
ARENA_TOKEN, and it plays over the same gRPC stream as any bot. What the
stream carries goes to the browser as JSON (frames.py), message for
message; what the browser answers goes back as a Reply for the referee to
judge. The referee's clock, legality check and fault policy apply
unchanged: an illegal action sent by hand is the referee's "illegal" fault.

Joining: the seat has a join secret (the link given to the person, single
use, like a bot's token) and, once it is used, a session secret kept in
that browser's cookie. Closing the tab leaves the seat waiting for
`grace` seconds; a page opened again with the cookie takes it back. After
the grace the bridge ends its stream: the referee records the crash and
plays the seat's default action to the end, so the match is never stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.game import Rules
from arena.web.human import frames

log = logging.getLogger("arena.web.human")

GRACE = 60.0                  # seconds a closed tab keeps its seat
ACTION_LIMIT = 200            # characters of an action text from the page
# Messages from a page that answer nothing (not JSON, an unknown type, no
# decision waiting, answered already) a seat takes before it closes the
# page's socket: each is told to the page and costs the match's event loop,
# which the bots' clocks share (a person's page sends none, bar a double click).
REFUSED_LIMIT = 100
NOTICES_KEPT = 100
SERVICE_METHOD = "/arena.v1.Referee/Play"


class BrowserSocket(Protocol):
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass
class _Decision:
    seq: int
    legal: tuple[str, ...]
    limit: float
    arrived: float                # time.monotonic() when the bridge got it
    answered: str = ""


@dataclass
class _Turn:
    """Another seat deciding now, as the last Turn notice told."""

    seat: int
    per_move: float
    arrived: float                # time.monotonic() when the bridge got it


@dataclass
class HumanSeat:
    """The state of one human seat, shared by its bridge and its page."""

    seat: int
    name: str
    grace: float = GRACE
    join_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    session_secret: str = ""       # "" until the join link is used
    frames: list[str] = field(default_factory=list)  # every referee frame sent, in order
    # What the bridge told the page last (for the log and tests).
    notices: deque[str] = field(default_factory=lambda: deque(maxlen=NOTICES_KEPT))
    decision: _Decision | None = None
    turn: _Turn | None = None      # another seat deciding now (Turn notice), if told
    started: bool = False          # the referee started the bridge
    ended: bool = False            # the match ended (or the bridge's stream did)
    left: bool = False             # the grace ran out: the seat was given up
    refused_joins: int = 0
    refused_messages: int = 0      # page messages that answered nothing (REFUSED_LIMIT)
    rules: Rules | None = None     # the match's, from its MatchStart (the views' public marks)
    _queue: asyncio.Queue[str | None] | None = None   # frames for the connected page
    _socket: BrowserSocket | None = None
    _outbox: asyncio.Queue[bytes] = field(default_factory=asyncio.Queue)
    _grace_task: asyncio.Task[None] | None = None
    _call: Any = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # any frame or join

    # ------------------------------------------------------------ joining

    @property
    def joined(self) -> bool:
        return bool(self.session_secret)

    @property
    def connected(self) -> bool:
        return self._socket is not None

    @property
    def flushed(self) -> bool:
        """Every frame queued for the page has been handed to its socket."""
        return self._queue is None or self._queue.empty()

    def use_join(self, secret: str, peer: str) -> str | None:
        """The session secret for the browser that opened the join link
        `secret`, if it is this seat's and unused; None otherwise (a second
        use is refused and logged)."""
        if not hmac.compare_digest(secret.encode(), self.join_secret.encode()):
            return None
        if self.joined:
            self.refused_joins += 1
            log.warning("seat %d (%s): refused a second use of its join link (from %s)",
                        self.seat, self.name, peer)
            return None
        self.session_secret = secrets.token_urlsafe(24)
        log.info("seat %d (%s): joined from %s", self.seat, self.name, peer)
        self.changed.set()
        return self.session_secret

    def admits(self, session: str | None) -> bool:
        return bool(session) and self.joined and hmac.compare_digest(
            (session or "").encode(), self.session_secret.encode())

    # ------------------------------------------------------------ the page

    async def attach(self, socket: BrowserSocket) -> None:
        """Serve one page until it closes: everything so far, then each new frame."""
        old = self._socket
        if old is not None:  # the same browser again (a second tab, a reload): it takes over
            self._push(frames.closed("the seat was opened in another tab"))
            self._push(None)
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        for text in self.frames:  # in one turn of the loop: no frame can slip between
            queue.put_nowait(text)
        if self.left:
            queue.put_nowait(frames.notice(
                "you left the table: your seat plays the default action to the end", "error"))
        elif self.decision is not None and not self.decision.answered:
            left = self.decision.limit - (time.monotonic() - self.decision.arrived)
            queue.put_nowait(frames.clock(self.decision.seq, left))
        elif self.turn is not None and not self.ended:
            left = self.turn.per_move - (time.monotonic() - self.turn.arrived)
            queue.put_nowait(frames.turn_clock(self.turn.seat, left))
        if self.ended:
            queue.put_nowait(frames.closed("the match is over"))
        self._queue, self._socket = queue, socket
        if self._grace_task is not None:
            self._grace_task.cancel()
            self._grace_task = None
            log.info("seat %d (%s): back at the table", self.seat, self.name)
        self.changed.set()
        try:
            while True:
                item = await queue.get()
                if item is None:
                    return
                await socket.send_text(item)
        finally:
            if self._socket is socket:
                self._socket = self._queue = None
                self._start_grace()

    def detach(self, socket: BrowserSocket) -> None:
        """The page on `socket` went away (its reader saw the close)."""
        if self._socket is socket:
            self._push(None)

    def _push(self, text: str | None) -> None:
        if self._queue is not None:
            self._queue.put_nowait(text)

    def _tell(self, text: str, level: str = "info") -> None:
        self.notices.append(text)
        self._push(frames.notice(text, level))

    def _refuse(self, text: str) -> None:
        """A page message that answers nothing: told to the page (up to the limit)."""
        self.refused_messages += 1
        if self.refused_messages <= REFUSED_LIMIT:
            self._tell(text, "error")

    @property
    def flooding(self) -> bool:
        """The page sent more than REFUSED_LIMIT messages that answered nothing."""
        return self.refused_messages > REFUSED_LIMIT

    def _start_grace(self) -> None:
        """The page is gone: the seat waits `grace` seconds for it."""
        if not self.started or self.ended or self.left or self._grace_task is not None:
            return
        log.info("seat %d (%s): the page closed; waiting %gs for it", self.seat, self.name, self.grace)
        self._grace_task = asyncio.get_running_loop().create_task(self._give_up_later())

    async def _give_up_later(self) -> None:
        await asyncio.sleep(self.grace)
        self._grace_task = None
        if self._socket is None and not self.ended:
            self.left = True
            log.warning("seat %d (%s): not back within %gs; the seat is given up (its default "
                        "action plays as a fault)", self.seat, self.name, self.grace)
            if self._call is not None:
                self._call.cancel()

    def receive(self, data: Mapping[str, Any]) -> None:
        """One message from the page. Only an answer to the decision waiting
        is sent on, once; the referee alone judges whether it is legal."""
        kind = data.get("type")
        if kind != "act":
            self._refuse(f"unknown message type {str(kind)[:40]!r}")
            return
        action, seq = data.get("action"), data.get("seq")
        decision = self.decision
        if not isinstance(action, str) or not action or len(action) > ACTION_LIMIT:
            self._refuse("an action must be a text of the action notation")
            return
        if decision is None or str(seq) != str(decision.seq):
            self._refuse(f"no decision {str(seq)[:20]} is waiting for you")
            return
        if decision.answered:
            self._refuse(f"decision {decision.seq} was answered already ({decision.answered})")
            return
        decision.answered = action
        if action not in decision.legal:
            # Sent on all the same: the referee's check is the one that counts.
            self._tell(f"refused: {action!r} is not one of the legal actions; the referee "
                       "records a fault and plays the default action", "error")
        from arena.wire.codec import pb

        reply = pb.BotMessage(reply=pb.Reply(seq=decision.seq, text=action))
        self._outbox.put_nowait(reply.SerializeToString())

    # ------------------------------------------------------------ the bridge (a bot)

    async def play(self, env: Mapping[str, str]) -> None:
        """The bridge's gRPC side: what the referee starts for this seat."""
        import grpc

        from arena.wire.codec import pb

        self.started = True
        if self._socket is None:
            self._start_grace()
        # Turn notices: the page shows whose turn it is and their clock between
        # this seat's own decisions (docs/protocol.md#turn-notices).
        hello = pb.BotMessage(hello=pb.Hello(token=env["ARENA_TOKEN"], bot_name=self.name,
                                             bot_version="human", protocol_version=2,
                                             turn_notices=True))
        try:
            async with grpc.aio.insecure_channel(env["ARENA_ADDRESS"]) as channel:
                # Raw bytes both ways, as the referee's own service (no (de)serializers).
                method: Any = channel.stream_stream(SERVICE_METHOD, None, None)
                call = method()
                self._call = call
                if self.left:  # given up before the match started
                    return
                await call.write(hello.SerializeToString())
                writer = asyncio.get_running_loop().create_task(self._write(call))
                try:
                    async for data in call:
                        if not self._forward(data):
                            break
                finally:
                    writer.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await writer
        except asyncio.CancelledError:
            if not self.left:
                raise
        except grpc.aio.AioRpcError as exc:
            if not self.left:
                log.info("seat %d (%s): stream ended: %s", self.seat, self.name, exc.code())
        finally:
            self._call = None
            self.ended = True
            self.decision = None
            self._push(frames.closed("you left the table" if self.left else "the match is over"))
            self.changed.set()

    def _forward(self, data: bytes) -> bool:
        """Send one referee message to the page; False once the match is over."""
        msg, text = frames.referee_frame(data, self.rules)
        self.rules = self.rules or frames.match_rules(msg)
        self.frames.append(text)
        self._push(text)
        self.changed.set()
        body = msg.WhichOneof("body")
        self.turn = None
        if body == "decision":
            req = msg.decision
            self.decision = _Decision(req.seq, tuple(req.legal_texts), req.time_limit_s, time.monotonic())
        elif body == "turn":
            self.turn = _Turn(msg.turn.seat, msg.turn.per_move_s, time.monotonic())
        elif body in ("match_end", "refused"):
            if body == "refused":
                log.warning("seat %d (%s): the referee refused the bridge: %s",
                            self.seat, self.name, msg.refused)
            return False
        return True

    async def _write(self, call: Any) -> None:
        while True:
            data = await self._outbox.get()
            await call.write(data)
