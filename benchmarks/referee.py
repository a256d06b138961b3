"""What the referee costs per decision, against the bare gRPC round trip.

    .venv/bin/python benchmarks/referee.py [--rounds R] [--echo N] [--matches M]

Printed (no assertions), all measured in this one run on this machine:

1. **Echo**: a plain `grpc.aio` server and a client in its own process play
   bidirectional ping-pong over a unix socket: the server sends a real
   decision request of the mean size the referee sends in part 2 (same
   game, same first-legal play, with the events a request carries), the
   client answers with as many bytes as a real reply. Mean round trip.
   **Three-client echo**: the same, with three client processes answered in
   turn, as the referee asks its three bots: what waking three processes in
   turn costs by itself. Printed beside the goal's ratio to tell the
   transport of a three-seat game from the referee's own work; the goal is
   against the plain echo.
2. **Referee per decision**: whole matches of three trivial bots (always the
   first legal action, raw generated stubs) under the real referee.
   Start-up and shutdown (process start, connect, kill) are taken out by
   difference: a match cut to 1 deal against the full game on the same seed,
   per decision = (T_full - T_short) / (D_full - D_short).
   Everything the referee does per decision counts against it: its extra
   messages (deal results), the trivial bot's protobuf decoding (the echo
   client decodes nothing).
   The ratio to the echo round trip is the referee's overhead (goal <= 1.5x).
   **The floor**: the same matches again with their game precomputed. The
   real referee (server, tokens, bot processes, seats, match start and end)
   posts, in the same order, the very messages it posted in part 2 (recorded
   by the real match loop in this process, `benchmarks/referee_work.py`) and
   waits for each decision's reply, with no rules engine, observation or
   encoding on the critical path. What is left is the cost of the referee's
   stream handling, the floor under any game work; the referee's figure
   minus this one is what the game's Python work costs over gRPC.
   **The bound**: what no referee of three seats could go below on this
   machine. The three-client echo is the transport alone; to it comes the
   referee's own game work for the same game, measured in-process
   (`referee_work.referee_cpu_per_decision`: CPU with warm caches, no
   transport, the stand-in bots' work taken out), all of which lies between
   a reply and the next request (only the events of the other seats and the
   records could move past the write: about a fifth). If the bound is over
   the goal, no change to the referee's Python can reach the goal here.
3. **Matches per minute**: whole games of three random sample bots, one
   after another, wall clock including bot start-up.

Both sides of 1 and 2 come in two client styles, each compared with its own
kind: gRPC's threaded sync API (`first_legal_bot`, sync echo client) and
grpc.aio (`first_legal_aio_bot`, aio echo client; `arena.sdk` plays so).
This machine's speed drifts by tens of percent within a minute, so echo and
referee are measured in alternation, R rounds, and the ratio is reported per
round (median, min, max), never from one echo figure set against one
referee figure taken later. Within a round the echoes run both just before
and just after the referee's matches, and their round trips are pooled.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.util
import os
import queue
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

# The referee forks bot processes while gRPC threads run; gRPC then logs a
# harmless line per fork at INFO level. Keep the figures readable.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

import grpc

from arena.game import Rules, new_game
from arena.manifest import BotSpec
from arena.referee import GameLoop, Match, build_rules, events
from arena.referee.spec import MatchResult, MatchSpec, TimeControl
from arena.sandbox.botfile import load_bot
from arena.wire import codec
from arena.wire.codec import pb

ROOT = Path(__file__).resolve().parent.parent
TRIVIAL_BOTS = {"sync": ROOT / "benchmarks" / "first_legal_bot",
                "aio": ROOT / "benchmarks" / "first_legal_aio_bot"}
RANDOM_BOT = ROOT / "sample_bots" / "random"
METHOD = "/arena.v1.Referee/Play"


# ---------------------------------------------------------------- payloads


def typical_messages(seed: int = 1) -> tuple[bytes, bytes, float]:
    """A serialized RefereeMessage carrying a decision request of the mean
    size the referee sends in the measured matches, a serialized reply of
    the mean reply size, and the mean request size.

    The game is played as the trivial bots play it (first legal action,
    match seed 1), and each request carries the events the referee puts
    into it (every action and trick since that seat's last request), so
    the echo moves the same bytes per round trip as the referee does."""
    game = new_game(Rules.preset("standard"), seed=seed)
    players = game.rules.players
    pending: list[list[pb.Event]] = [[] for _ in range(players)]
    seqs = [0] * players
    asks: list[bytes] = []
    answers: list[bytes] = []
    while not game.is_over and len(asks) < 20000:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        before = [game.observation(s).to_dict() for s in range(players)]
        seqs[seat] += 1
        request = pb.DecisionRequest(
            seq=seqs[seat],
            observation=codec.observation_to_pb(before[seat]),
            legal_actions=[codec.action_to_pb(a) for a in legal],
            legal_texts=[str(a) for a in legal],
            time_limit_s=11.0,
            bank_left_s=10.0,
            events=pending[seat],
        )
        pending[seat] = []
        asks.append(pb.RefereeMessage(decision=request).SerializeToString())
        action = legal[0]
        reply = pb.Reply(seq=request.seq, action=codec.action_to_pb(action))
        answers.append(pb.BotMessage(reply=reply).SerializeToString())
        trick = events.completed_trick(before[seat], seat, action)
        deal = before[seat]["deal_number"]
        game = game.apply(action)
        shared = events.public_events(seat, action, deal, trick)
        for s in range(players):
            after = game.observation(s).to_dict()
            pending[s].extend(shared if shared is not None else
                              events.seat_events(before[s], after, s, seat, action, trick))
            pending[s].extend(events.after_events(before[s], after))
    mean = statistics.fmean(len(a) for a in asks)
    mean_answer = statistics.fmean(len(a) for a in answers)
    answer = min(answers, key=lambda a: abs(len(a) - mean_answer))
    return min(asks, key=lambda a: abs(len(a) - mean)), answer, mean


# ---------------------------------------------------------------- echo baseline


def echo_client(address: str, answer_size: int, style: str) -> None:
    """Client process: answer every message with `answer_size` bytes until the stream ends."""
    if style == "aio":
        asyncio.run(echo_client_aio(address, answer_size))
        return
    answer = b"x" * answer_size
    outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    outbox.put(b"hello")

    def requests() -> Iterator[bytes]:
        while True:
            item = outbox.get()
            if item is None:
                return
            yield item

    with grpc.insecure_channel(address) as channel:
        play = channel.stream_stream(METHOD, request_serializer=lambda b: b,
                                     response_deserializer=lambda b: b)
        for _msg in play(requests()):
            outbox.put(answer)
        outbox.put(None)


async def echo_client_aio(address: str, answer_size: int) -> None:
    answer = b"x" * answer_size
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream(METHOD, request_serializer=lambda b: b,
                                     response_deserializer=lambda b: b)()
        await call.write(b"hello")
        while isinstance(await call.read(), bytes):
            await call.write(answer)
        call.cancel()


async def echo_round_trips(rounds: int, ask: bytes, answer_size: int, style: str,
                           clients: int = 1) -> list[float]:
    """Round-trip seconds, server side, over `rounds` exchanges.

    With `clients` > 1, that many client processes connect and the server
    plays ping-pong with them in turn (exchange i with client i % clients),
    as the referee asks three bots in turn: the bare transport cost of a
    three-seat game, where every request wakes a process that has slept
    through the others' turns. The plain echo is `clients=1`."""
    times: list[float] = []
    done = asyncio.Event()
    streams: list[grpc.aio.ServicerContext[bytes, bytes]] = []

    async def play(_request: object, context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        await context.read()  # hello
        streams.append(context)
        if len(streams) < clients:  # the last stream to connect drives them all
            await done.wait()
            return
        for i in range(rounds):
            stream = streams[i % clients]
            t0 = time.perf_counter()
            await stream.write(ask)
            reply = await stream.read()
            times.append(time.perf_counter() - t0)
            if reply is grpc.aio.EOF:
                break
        done.set()

    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Referee", {"Play": grpc.stream_stream_rpc_method_handler(play)}
    )
    server.add_generic_rpc_handlers((handler,))
    with tempfile.TemporaryDirectory() as tmp:
        address = f"unix:{tmp}/echo.sock"
        server.add_insecure_port(address)
        await server.start()
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--echo-client", address, str(answer_size), style
        ) for _ in range(clients)]
        try:
            await asyncio.wait_for(done.wait(), timeout=300)
        finally:
            await server.stop(grace=0.5)
            for client in procs:
                try:
                    await asyncio.wait_for(client.wait(), timeout=10)
                except TimeoutError:
                    client.kill()
                    await client.wait()
    # The first exchanges warm up the connection and both interpreters.
    return times[min(50, len(times) // 10):]


# ---------------------------------------------------------------- referee


def run_match(spec: MatchSpec) -> MatchResult:
    from arena.referee import run_match as run

    return run(spec)


def match_spec(bot: BotSpec, seed: int, options: tuple[tuple[str, object], ...], tag: str,
               work: str) -> MatchSpec:
    return MatchSpec(
        match_id=f"bench-{tag}-{seed}",
        bots=(bot, bot, bot),
        seed=seed,
        rules_options=options,
        # Generous limits: a loaded machine must not turn into timeouts here.
        time_control=TimeControl(per_move=10.0, bank=60.0, increment=1.0, startup=60.0),
        sandbox="process",
        work_dir=work,
    )


def referee_per_decision(style: str, seed: int) -> tuple[float, int]:
    """(seconds per decision, decisions measured) for one full game against
    its 1-deal cut, trivial bots of `style`."""
    bot = load_bot(TRIVIAL_BOTS[style])
    with tempfile.TemporaryDirectory() as work:
        full = run_match(match_spec(bot, seed, (), "full", work))
        short = run_match(match_spec(bot, seed, (("max_deals", 1),), "short", work))
        for r in (full, short):
            for s in r.seats:
                if s.fault_log:  # a fault changes the game: the figure is then off
                    print(f"warning: {r.match_id} seat {s.seat} {s.status}: {'; '.join(s.fault_log)}")
    decisions = sum(s.decisions for s in full.seats) - sum(s.decisions for s in short.seats)
    return (full.duration - short.duration) / max(1, decisions), decisions


# ---------------------------------------------------------------- the floor


@functools.cache  # loaded once, not again for every recorded game
def _sibling(name: str) -> ModuleType:
    """Another script of benchmarks/ (scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ScriptedLoop(GameLoop):
    """A game loop whose game is precomputed: `play` posts the recorded
    messages in their order and waits for each decision request's reply;
    everything around it (server, tokens, bot processes, seats, match start
    and end, the result) is the real match's (arena.referee.Match)."""

    def __init__(self, *args: Any, script: list[tuple[int, bytes, bool]], final: Any,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.script = script
        self.final = final

    async def play(self) -> Any:
        for index, data, decision in self.script:
            seat = self.seats[index]
            t0 = time.monotonic()
            # As the match loop sends: a decision request at once, the rest queued.
            if not (await seat.send_now(data) if decision else seat.post(data)):
                raise RuntimeError(f"seat {index}: the stream is gone")
            if decision:
                _arrived, item = await seat.receive(t0 + seat.time_control.per_move)
                if not isinstance(item, bytes):
                    raise RuntimeError(f"seat {index}: {item!r} instead of a reply")
                seat.add_time(time.monotonic() - t0)
        return self.final


def recorded_game(spec: MatchSpec) -> tuple[list[tuple[int, bytes, bool]], Any]:
    """Every message the referee posts during the game of `spec` (seat,
    bytes, is a decision request), in order, and the final game state: the
    real match loop in this process, an in-memory transport, first legal
    actions (benchmarks/referee_work.py)."""
    script: list[tuple[int, bytes, bool]] = []
    final = asyncio.run(_sibling("referee_work").in_memory(spec, script).play())
    return script, final


def scripted_match(spec: MatchSpec, script: list[tuple[int, bytes, bool]], final: Any) -> MatchResult:
    """The match of `spec` over gRPC with the real bots, its game replaced by `script`."""
    loop = functools.partial(ScriptedLoop, script=script, final=final)
    return asyncio.run(Match(spec, build_rules(spec), loop_factory=loop).run())


def floor_per_decision(style: str, seed: int) -> float:
    """Seconds per decision of the scripted game against its 1-deal cut, as
    `referee_per_decision` measures the real one."""
    bot = load_bot(TRIVIAL_BOTS[style])
    with tempfile.TemporaryDirectory() as work:
        runs = [match_spec(bot, seed, options, tag, work)
                for options, tag in (((), "floor-full"), ((("max_deals", 1),), "floor-short"))]
        full, short = (scripted_match(spec, *recorded_game(spec)) for spec in runs)
    decisions = sum(s.decisions for s in full.seats) - sum(s.decisions for s in short.seats)
    return (full.duration - short.duration) / max(1, decisions)


def matches_per_minute(matches: int) -> tuple[float, float]:
    """(matches per minute, mean deals per match) for three random bots."""
    bot = load_bot(RANDOM_BOT)
    deals = 0
    with tempfile.TemporaryDirectory() as work:
        t0 = time.perf_counter()
        for seed in range(100, 100 + matches):
            result = run_match(match_spec(bot, seed, (), "random", work))
            deals += len(result.deals)
        elapsed = time.perf_counter() - t0
    return matches * 60.0 / elapsed, deals / matches


def echo_pair(rounds: int, ask: bytes, answer_size: int, style: str) -> tuple[list[float], list[float]]:
    """Round trips of the plain echo and of the three-client echo, one after the other."""
    return (asyncio.run(echo_round_trips(rounds, ask, answer_size, style)),
            asyncio.run(echo_round_trips(rounds, ask, answer_size, style, 3)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating echo/referee rounds per style")
    parser.add_argument("--echo", type=int, default=1500, help="echo exchanges before and again after each referee measurement")
    parser.add_argument("--matches", type=int, default=2, help="matches of random bots")
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores; figures from a loaded machine are pessimistic)")
    ask, answer, mean = typical_messages()
    print(f"message sizes: decision request {len(ask)} B (the mean the referee sends, with its "
          f"events: {mean:.0f} B), reply {len(answer)} B")
    for style in ("sync", "aio"):
        ratios: list[float] = []
        ratios3: list[float] = []
        floors: list[float] = []
        transports: list[float] = []
        bounds: list[float] = []
        for r in range(args.rounds):
            # The echoes are measured just before and just after the referee's
            # matches (a sandwich), so that a drift of the machine's speed
            # during the round weighs on both sides of the ratio alike.
            before = echo_pair(args.echo, ask, len(answer), style)
            per, decisions = referee_per_decision(style, seed=1 + r)
            floor = floor_per_decision(style, seed=1 + r)
            work = _sibling("referee_work").referee_cpu_per_decision(1 + r)
            after = echo_pair(args.echo, ask, len(answer), style)
            echo = statistics.fmean(before[0] + after[0])
            echo3 = statistics.fmean(before[1] + after[1])
            ratios.append(per / echo)
            ratios3.append(per / echo3)
            floors.append(floor / echo)
            transports.append(echo3 / echo)
            bounds.append((echo3 + work) / echo)
            print(f"  {style} round {r + 1}: echo {echo * 1e6:.0f} us (before "
                  f"{statistics.fmean(before[0]) * 1e6:.0f}, after {statistics.fmean(after[0]) * 1e6:.0f}), "
                  f"three-client echo {echo3 * 1e6:.0f} us, referee {per * 1e6:.0f} us per decision "
                  f"({decisions} decisions): {per / echo:.2f}x ({per / echo3:.2f}x the three-client echo); "
                  f"game precomputed {floor * 1e6:.0f} us: {floor / echo:.2f}x; "
                  f"game work in-process {work * 1e6:.0f} us CPU")
        print(f"ratio referee / echo, {style} clients: median {statistics.median(ratios):.2f}x "
              f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x over {len(ratios)} rounds; goal <= 1.5x)")
        print(f"  referee / three-client echo (transport of a three-seat game taken out): median "
              f"{statistics.median(ratios3):.2f}x (min {min(ratios3):.2f}x, max {max(ratios3):.2f}x)")
        print(f"  the floor, referee with its game precomputed / echo: median "
              f"{statistics.median(floors):.2f}x (min {min(floors):.2f}x, max {max(floors):.2f}x); "
              f"the game's work over gRPC: median "
              f"{statistics.median(r - f for r, f in zip(ratios, floors, strict=True)):.2f}x")
        print(f"  the bound, three-client echo + the game's work in-process / echo: median "
              f"{statistics.median(bounds):.2f}x (min {min(bounds):.2f}x, max {max(bounds):.2f}x); "
              f"the transport alone {statistics.median(transports):.2f}x "
              f"(min {min(transports):.2f}x, max {max(transports):.2f}x)")

    mpm, deals = matches_per_minute(args.matches)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"three random bots: {mpm:.1f} whole matches per minute "
          f"({deals:.1f} deals per match, {args.matches} matches, one at a time)")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--echo-client":
        echo_client(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
