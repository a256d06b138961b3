"""One match: start the bots, referee the game over gRPC, return a MatchResult.

    result = run_match(spec)            # sync; the worker entry point (picklable)
    result = await play_match(spec)     # inside an event loop

Flow: a grpc.aio server on a fresh unix socket in a private 0700 temp folder
(or 127.0.0.1 TCP); one random single-use token per seat; every bot started
(arena.sandbox via referee.launch) with ARENA_ADDRESS / ARENA_TOKEN /
ARENA_SEED (bot_seed.py: nothing a bot gets derives from the deal seed); the game is played decision by decision; every bot process
group is killed at the end, whatever happens.

Faults (spec.FAULT_KINDS) never raise out of here:
  timeout    no legal reply within per-move time + bank (or no Hello within startup)
  crash      could not start, exited (before its Hello too), stream closed,
             or stopped reading its stream (a write stalled: seats.WRITE_TIMEOUT)
  illegal    a well-formed action that is not legal now
  malformed  not a BotMessage, a Hello mid-game, a reply for a future seq,
             an unparsable action, a message over server.MESSAGE_LIMIT, or
             flooding (more than server.INBOX_LIMIT messages that answer nothing)
A fault plays the seat's default action (`pass` where legal, else the first
legal action) and counts a strike. Policy "forfeit", or `max_strikes`
strikes, or any crash makes the seat forfeit: its process is stopped, the
default action plays its seat to the end so the others finish the game,
and it is ranked last (all forfeits share the last place).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from arena.game import Rules
from arena.referee.bot_seed import bot_seed, new_key
from arena.referee.decide import default_action, stop_bot
from arena.referee.launch import seat_level, start_bot
from arena.referee.loop import GameLoop, Watch
from arena.referee.marks import Marks, marks_path, write_marks
from arena.referee.messages import PROTOCOL_VERSION, send_match_end, send_match_start
from arena.referee.pondering import Pacer
from arena.referee.replay import REPLAY_VERSION, ReplayWriter
from arena.referee.rulechoice import MatchSetupError, RulesChoiceError, build_rules
from arena.referee.seats import DISCONNECTED, Seat
from arena.referee.server import RefereeService, Refusals, start_server, stop_server
from arena.referee.socket_gate import Gate, GateEvents
from arena.referee.spec import MatchResult, MatchSpec, SeatResult, finish_places, sandbox_warning
from arena.sandbox.api import SandboxError, SandboxUnavailable

log = logging.getLogger("arena.referee")

# Kept importable from here: the names callers used before the split.
__all__ = [
    "PROTOCOL_VERSION",
    "Match",
    "MatchSetupError",
    "RulesChoiceError",
    "build_rules",
    "default_action",
    "play_match",
    "run_match",
    "start_bot",
]


def run_match(spec: MatchSpec) -> MatchResult:
    """Play one match to the end (blocking). Module-level so process pools
    and Dask can pickle it."""
    return asyncio.run(play_match(spec))


async def play_match(spec: MatchSpec, watch: Watch | None = None) -> MatchResult:
    """Play `spec` to its end. `watch`: told the engine's public view of the
    table at the start and after every action (the lobby's spectators; it
    never sees a seat's view), in this process only."""
    rules = build_rules(spec)
    if spec.transport == "tcp" and spec.sandbox != "process":
        # bwrap and docker bots have no network: none of them could connect.
        raise MatchSetupError(f"transport tcp needs the process sandbox level, not {spec.sandbox!r}")
    match = Match(spec, rules)
    match.loop.watch = watch
    return await match.run()



# What makes the game loop of a match from its parts (GameLoop's signature).
LoopFactory = Callable[..., GameLoop]


class Match:
    """The match of `spec` over gRPC with real bot processes: its servers,
    gates, tokens and bots, set up and torn down by `run`; the game itself
    is `loop` (loop.GameLoop over this match's seats; `loop_factory` makes
    it, for a benchmark that plays a game of its own on the real match)."""

    def __init__(self, spec: MatchSpec, rules: Rules, loop_factory: LoopFactory = GameLoop) -> None:
        self.spec = spec
        self.rules = rules
        self.key = spec.key or new_key()  # never the deal seed (bot_seed.py)
        self.policy = spec.fault_policy
        self.seats = [
            Seat(i, bot, secrets.token_urlsafe(24), spec.seat_time_control(i))
            for i, bot in enumerate(spec.bots)
        ]
        self.refusals = Refusals()
        # One server and socket per seat (arena/referee/server.py).
        self.services = [RefereeService(seat, self.refusals, accepting=self._accepting,
                                        flooded=self._flooded) for seat in self.seats]
        self.servers: list[Any] = []
        self.gates: list[Gate] = []  # per seat, in front of its server (unix transport)
        self._launched = asyncio.Event()  # every launch returned: peers can be told apart
        self._scratch_logs: dict[int, str] = {}  # seat -> its log in the temp folder
        self._expelling: list[asyncio.Task[None]] = []
        self._closed: set[int] = set()  # seats whose listener `_expel` closed
        self.replay = ReplayWriter(spec.replay_path)
        self.pacer = Pacer(self.seats, spec.time_control.pondering)
        self.loop = loop_factory(rules, spec.seed, self.seats, policy=self.policy,
                                 pacer=self.pacer, replay=self.replay)

    @staticmethod
    def _accepting(seat: Seat) -> str:
        return f"seat {seat.index} has forfeited" if seat.forfeited else ""

    def _private(self, seat: Seat) -> bool:
        """No bot but this seat's can reach its gRPC server: its gate admits
        only this seat's processes (socket_gate.py), and no other bot can enter the
        folder of the gates' inner sockets: other bots are confined (bwrap,
        docker, or the process level in a mount namespace of its own,
        docs/sandbox.md). TCP ports are open to every local process."""
        return self.spec.transport == "unix" and all(
            s.level != "process" or (s.handle is not None and not s.handle.reaches_others)
            for s in self.seats if s is not seat)

    def _identify(self, socket_seat: int, pid: int, uid: int) -> int | None:
        """The seat whose bot process `pid` (host uid `uid`) is, or None;
        `socket_seat` (whose socket it connected to) is asked first."""
        order = [self.seats[socket_seat], *(s for s in self.seats if s.index != socket_seat)]
        for seat in order:
            if seat.handle is not None and seat.handle.owns(pid, uid):
                return seat.index
        return None

    def _gate_flooded(self, index: int, why: str) -> None:
        """A seat's own bot flooded its gate (connections, HTTP/2 frames)."""
        seat = self.seats[index]
        self.refusals.add(f"{why} (flooding)", index)
        if not seat.forfeited:
            seat.forfeit_now("malformed", f"{why} (flooding)")
            self._expel(seat)

    def _gate_intruder(self, index: int, victim: int, why: str) -> None:
        """A process of seat `index` connected to seat `victim`'s socket: to
        take its stream or sit in the middle of it. Its fault, not the victim's."""
        seat = self.seats[index]
        self.refusals.add(f"seat {index} {why}", victim)
        if not seat.forfeited:
            seat.forfeit_now("malformed", f"{why}, not its own")
            self._expel(seat)

    def _gate_stranger(self, index: int, why: str) -> None:
        self.refusals.add(why, index)

    def _flooded(self, seat: Seat, refused: int) -> None:
        """The seat's socket refused `refused` streams. On a private socket
        only its own bot can have opened them: it is flooding the referee,
        whose CPU the other seats' clocks pay for. It forfeits at once, its
        bot is stopped and its server closed (its stream with it)."""
        if not self._private(seat) or seat.forfeited:
            return
        seat.forfeit_now("malformed",
                         f"opened {refused} streams that the referee refused (flooding)")
        self._expel(seat)

    def _expel(self, seat: Seat) -> None:
        """A forfeited seat's bot is stopped and its listener closed (its
        stream with it): it plays no more and must not burn the CPU that the
        other seats' clocks pay for. A bot still being launched is stopped
        when its launch returns (`_launch`)."""
        seat.alive = False
        seat.deliver(DISCONNECTED)  # wakes the match if it waits for this seat
        stop_bot(seat)
        if seat.index < len(self.servers) and seat.index not in self._closed:
            self._closed.add(seat.index)
            self._expelling.append(asyncio.get_running_loop().create_task(
                stop_server(self.servers[seat.index], [seat], grace=0)))
            if seat.index < len(self.gates):
                self._expelling.append(asyncio.get_running_loop().create_task(
                    self.gates[seat.index].close()))


    # ------------------------------------------------------------------ setup / teardown

    async def run(self) -> MatchResult:
        started = time.monotonic()
        # Traversable, not listable: a process-level bot under a uid of its
        # own reaches its seat's folder; "core" (the gRPC servers behind the
        # gates) and the logs stay ours alone.
        socket_dir = tempfile.mkdtemp(prefix="arena-")
        os.chmod(socket_dir, 0o711)
        core_dir = os.path.join(socket_dir, "core")
        os.mkdir(core_dir, 0o700)
        log_dir = self.spec.work_dir or core_dir
        os.makedirs(log_dir, exist_ok=True)
        gate_events = GateEvents(identify=self._identify, flooded=self._gate_flooded,
                                 intruder=self._gate_intruder, stranger=self._gate_stranger)
        try:
            addresses: list[tuple[str, str]] = []  # per seat: (address, the folder a sandbox mounts)
            for seat, service in zip(self.seats, self.services, strict=True):
                seat_dir = os.path.join(socket_dir, f"seat{seat.index}")
                os.mkdir(seat_dir, 0o700)
                if self.spec.transport != "unix":
                    server, address = await start_server(service, self.spec.transport, seat_dir)
                    self.servers.append(server)
                    addresses.append((address, seat_dir))
                    continue
                server, inner = await start_server(service, "unix", core_dir, f"seat{seat.index}.sock")
                self.servers.append(server)
                public = os.path.join(seat_dir, "referee.sock")
                gate = Gate(seat.index, public, inner.removeprefix("unix:"), gate_events, self._launched)
                self.gates.append(gate)  # before it starts: closed below even if cancelled meanwhile
                await gate.start()
                addresses.append((f"unix:{public}", seat_dir))
            try:
                await self._launch(addresses, log_dir)
            finally:
                self._launched.set()
            self._write_header()
            await self._await_connections()
            send_match_start(self.spec.match_id, self.rules, self.seats)
            game = await self.loop.play()
            result = self._result(game, time.monotonic() - started)
            self.replay.finish()
            await self.pacer.release()
            await send_match_end(self.seats, result)
            return result
        finally:
            await self.pacer.release()
            for seat in self.seats:
                seat.released.set()
            await self._let_bots_exit()
            # At once, not one after another: each may wait out its grace.
            # Those `_expel` closed are awaited through their own task. There
            # are fewer servers than seats if starting one failed.
            open_servers = [(seat, server)
                            for seat, server in zip(self.seats, self.servers, strict=False)
                            if seat.index not in self._closed]
            await asyncio.gather(*(stop_server(server, [seat]) for seat, server in open_servers),
                                 *self._expelling)
            await asyncio.gather(*(gate.close() for gate in self.gates))
            for seat in self.seats:  # writes still queued for a stream that is gone
                if seat.drainer is not None and not seat.drainer.done():
                    seat.drainer.cancel()
            await self._stop_all()
            self._keep_logs()
            self.replay.close()  # unfinished (no result): dropped
            shutil.rmtree(socket_dir, ignore_errors=True)

    def _keep_logs(self) -> None:
        """Each seat's decision marks beside its log (marks.py); then the
        logs that spec.keep_logs asks for ("faults": of seats with a fault;
        "all") copied with their marks out of the temp folder into
        spec.fault_logs_dir: what a bot printed before it crashed is what
        its author needs. Never fails the match (a Dask worker elsewhere may
        not have the folder)."""
        folder = self.spec.fault_logs_dir
        for seat in self.seats:
            path = self._scratch_logs.get(seat.index) or seat.log_path
            output = seat.handle.log if seat.handle is not None else None
            if not path or output is None or not os.path.exists(path):
                continue
            output.join(1.0)  # the last bytes of a bot just stopped
            marks = Marks(seat=seat.index, cap=self.spec.limits.log_bytes, end=output.position(), relayed=seat.level == "docker",
                          decisions=tuple(seat.marks))
            keep = self.spec.keep_logs == "all" or seat.forfeited or any(seat.faults.values())
            try:
                write_marks(marks_path(path), marks)
                if folder and keep and path == self._scratch_logs.get(seat.index):
                    os.makedirs(folder, exist_ok=True)
                    shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
                    shutil.copyfile(marks_path(path), marks_path(os.path.join(folder, os.path.basename(path))))
            except OSError as exc:
                log.warning("could not keep the log of seat %d: %s", seat.index, exc)

    async def _launch(self, addresses: Sequence[tuple[str, str]], log_dir: str) -> None:
        """Start every bot (in parallel: container starts are slow). A bot that
        cannot be started has crashed: it forfeits, the others play on. A
        sandbox level this machine lacks is no bot's fault: MatchSetupError
        (the bots already started are stopped by `run`)."""
        limits = self.spec.limits
        unavailable: list[str] = []

        async def launch(seat: Seat) -> None:
            address, socket_dir = addresses[seat.index]
            env = {
                "ARENA_ADDRESS": address,
                "ARENA_TOKEN": seat.token,
                # Reproducible randomness for bots that want it (sample_bots/random):
                # keyed by the match's secret key, never a function of the deal seed.
                "ARENA_SEED": str(bot_seed(self.key, seat.index)),
            }
            seat.log_path = os.path.join(log_dir, f"{self.spec.match_id}-seat{seat.index}-{seat.bot.name}.log")
            # The level resolved below for every seat before any launch (for
            # "auto", not asked of the docker engine twice); a seat none was
            # found for gets the request as given, and launch says why not.
            level = seat.level if seat.level != "none" else self.spec.sandbox
            try:
                seat.handle = await asyncio.to_thread(
                    start_bot, seat.bot, level, env, socket_dir, seat.log_path, limits,
                    self.spec.match_id,
                )
                seat.level = seat.handle.level
            except SandboxUnavailable as exc:
                unavailable.append(str(exc))
            except (SandboxError, OSError) as exc:
                seat.level = "none"
                seat.record_fault("crash", f"could not start: {exc}", self.policy)
            if not self.spec.work_dir:
                self._scratch_logs[seat.index] = seat.log_path
                seat.log_path = ""  # deleted with the temp folder (see _keep_logs)

        # Each seat's level before any bot starts: a socket is private once no
        # other bot runs at the process level (`_private`), and a bot may flood
        # its socket while the others' containers are still starting.
        for seat in self.seats:
            try:
                seat.level = await asyncio.to_thread(seat_level, self.spec.sandbox, seat.bot)
            except SandboxError:
                seat.level = "none"  # it will not start (launch says why)
        # Every launch finishes first, so that `run` stops all the bots started.
        await asyncio.gather(*(launch(seat) for seat in self.seats))
        for seat in self.seats:
            if seat.forfeited:  # expelled while it was starting
                stop_bot(seat)
        if unavailable:
            raise MatchSetupError(f"sandbox: {unavailable[0]}")

    async def _await_connections(self) -> None:
        started = time.monotonic()
        while True:
            waiting = [s for s in self.seats if not s.claimed and not s.forfeited]
            if not waiting:
                return
            for seat in waiting:
                code = seat.handle.poll() if seat.handle is not None else None
                if code is not None:
                    seat.record_fault("crash", f"exited with status {code} before connecting", self.policy)
            now = time.monotonic()
            late = [s for s in waiting if now >= started + s.time_control.startup]
            for seat in late:
                if not seat.forfeited:
                    seat.forfeit_now("timeout", f"did not connect within {seat.time_control.startup:g}s")
                    self._expel(seat)
            if late:
                continue
            waits = [asyncio.ensure_future(s.connected.wait()) for s in waiting]
            await asyncio.wait(waits, timeout=0.05, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()

    async def _let_bots_exit(self, patience: float = 3.0) -> None:
        """Give bots that got MatchEnd a moment to close their streams and exit.
        Costs nothing for bots that exit; a CPU-starved bot still gets to read
        MatchEnd and run its match-end hook before it is stopped."""
        handles = [s.handle for s in self.seats if s.handle is not None]
        end = time.monotonic() + patience
        while time.monotonic() < end and any(h.poll() is None for h in handles):
            await asyncio.sleep(0.01)

    async def _stop_all(self) -> None:
        """Stop every bot's process group (and container), whatever happened."""
        handles = [s.handle for s in self.seats if s.handle is not None]
        await asyncio.gather(*(asyncio.to_thread(h.cleanup) for h in handles), return_exceptions=True)

    def _write_header(self) -> None:
        tc, fp = self.spec.time_control, self.spec.fault_policy
        self.replay.write({
            "type": "header", "version": REPLAY_VERSION, "match_id": self.spec.match_id,
            "seed": self.spec.seed, "rules": self.rules.to_dict(),
            "bots": [
                {"seat": s.index, "name": s.bot.name, "version": s.bot.version,
                 "language": s.bot.language, "content_hash": s.bot.content_hash}
                for s in self.seats
            ],
            "time_control": asdict(tc), "fault_policy": asdict(fp),
            **({"seat_time_controls": {str(i): asdict(t) for i, t in self.spec.seat_time}}
               if self.spec.seat_time else {}),
            "transport": self.spec.transport, "sandbox": [s.level for s in self.seats],
            "pause": [self.pacer.mechanism(s) for s in self.seats],
        } | ({"sandbox_warning": warning} if (warning := sandbox_warning(s.level for s in self.seats))
             else {}))
        if warning:
            log.warning("match %s: %s", self.spec.match_id, warning)

    # ------------------------------------------------------------------ result

    def _result(self, game: Any, duration: float) -> MatchResult:
        totals = [int(t) for t in game.totals]
        forfeits = [s.index for s in self.seats if s.forfeited]
        finish, place_of = finish_places(game.finish, forfeits)
        seats = tuple(
            SeatResult(
                seat=s.index, bot=s.bot.name, version=s.bot.version, total=totals[s.index],
                place=place_of[s.index], status="forfeit" if s.forfeited else "ok",
                decisions=s.decisions, time_total=round(s.time_total, 6), time_max=round(s.time_max, 6),
                faults=s.fault_counts(), fault_log=tuple(s.fault_log), sandbox=s.level,
                log_path=s.log_path, moves=s.moves, pause=self.pacer.mechanism(s),
                cpu_total=self.pacer.totals(s)[0], cpu_max=self.pacer.totals(s)[1],
            )
            for s in self.seats
        )
        reason = "forfeit" if forfeits else ("max_deals" if not any(
            t >= self.rules.target for t in totals) else "complete")
        result = MatchResult(
            match_id=self.spec.match_id, seed=self.spec.seed, seats=seats, deals=tuple(self.loop.deals),
            finish=tuple(finish), duration=round(duration, 3), replay_path=self.spec.replay_path,
            reason=reason,
        )
        for r in self.refusals.kept:
            self.replay.write({"type": "refused", "seat": r.seat, "reason": r.reason})
        for seat_index, more in sorted(self.refusals.untold.items(), key=lambda kv: str(kv[0])):
            self.replay.write({"type": "refused", "seat": seat_index,
                               "reason": f"{more} more refused connections (not told)"})
        self.replay.write({
            "type": "result", "finish": [list(g) for g in finish], "totals": totals,
            "places": [s.place for s in seats], "statuses": [s.status for s in seats],
            "faults": [dict(s.faults) for s in seats], "fault_log": [list(s.fault_log) for s in seats],
            "decisions": [s.decisions for s in seats], "reason": reason, "duration": result.duration,
            "cpu": [s.cpu_total for s in seats],
        })
        return result

