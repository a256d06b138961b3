"""The referee's own work per decision, without gRPC or bot processes.

    .venv/bin/python benchmarks/referee_work.py [--games G] [--instructions] [--turns]

The real game loop (`arena.referee.GameLoop`) plays whole standard games in
this process over in-memory seats (`arena.referee.in_memory`): each decision
request is parsed as a bot would, and answered at once with its first legal
action (`arena.referee.first_legal`).
What is left is the referee's Python work on a decision's critical path:
the reply check, applying the action, the next seat's observation and its
encoding, the events, the request's bytes.

Printed: CPU time per decision (median over the games; this machine's speed
drifts, so compare figures taken in turn), first as measured and then with
the stand-in bots' parsing and replies taken out (timed alone over the same
game's messages): the referee's own work. With `--instructions`, also the
instructions per decision counted by valgrind (cachegrind): the same count
on every run, so a change of a few percent shows even on a noisy machine.
With `--turns`, also the same games with every seat asking for Turn
notices (Hello.turn_notices: a message to each other seat per decision),
timed in turn with the games where none asks, and their ratio.
That count takes a minute or two (two runs under valgrind: with and without
the measured game, whose difference is the game's own count).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.referee import GameLoop, MatchSpec, Posted, TimeControl, first_legal
from arena.referee import in_memory as memory_loop
from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "benchmarks" / "first_legal_aio_bot"
SEED = 1


def game_spec(seed: int) -> MatchSpec:
    """The standard game of `seed` between three first-legal bots."""
    bot = load_bot(BOT)
    return MatchSpec(match_id=f"work-{seed}", bots=(bot, bot, bot), seed=seed,
                     time_control=TimeControl(per_move=10.0, bank=60.0, increment=1.0, startup=60.0),
                     sandbox="process")


def play_one(seed: int, turns: bool = False) -> tuple[float, int]:
    """(CPU seconds, decisions) of one whole game through the match loop,
    the stand-in bots' work (`stand_in`) included; with `turns`, every seat
    asked for Turn notices."""
    match = in_memory(game_spec(seed))
    for seat in match.seats:
        seat.turn_notices = turns
    t0 = time.process_time()
    asyncio.run(match.play())
    return time.process_time() - t0, sum(s.decisions for s in match.seats)


def stand_in_cpu(seed: int) -> float:
    """CPU seconds the stand-in bots (`stand_in`) spend on the messages of
    the game of `seed`: the part of `play_one`'s time that is not the
    referee's. The game is recorded first, then only the bots' side is
    timed, message by message as in the game."""
    script: list[Posted] = []
    asyncio.run(in_memory(game_spec(seed), script).play())
    t0 = time.process_time()
    for _index, data, _decision in script:
        stand_in(data)
    return time.process_time() - t0


def referee_cpu_per_decision(seed: int, played: tuple[float, int] | None = None) -> float:
    """The referee's own CPU seconds per decision in the game of `seed`:
    `play_one` (or its result `played`, when already measured) less the
    stand-in bots' work. Warm caches and no transport, so the least the
    game's Python work adds to a decision over gRPC."""
    cpu, decisions = played or play_one(seed)
    return (cpu - stand_in_cpu(seed)) / decisions


def in_memory(spec: MatchSpec, record: list[Posted] | None = None) -> GameLoop:
    """The real game loop for `spec` over in-memory seats whose stand-in
    bots (`stand_in`) answer every decision request at once. Run
    `asyncio.run(loop.play())`. With `record`, every message posted is
    appended to it, in order (benchmarks/referee.py replays them over gRPC)."""
    return memory_loop(spec, stand_in, record)


def stand_in(data: bytes) -> bytes | None:
    """A first-legal bot's side of one message: parsed as a bot would parse
    it; for a decision request, the serialized reply (else None)."""
    return first_legal(data)


def instructions(games: int) -> int:
    """Instructions of a run of this script playing `games` games after a warm-up."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             f"--cachegrind-out-file={os.path.join(tmp, 'cg.out')}",
             sys.executable, __file__, "--count-run", str(games)],
            capture_output=True, text=True, check=True,
        ).stderr
    found = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games to time (seeds 1, 2, 1, 2, ...)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    parser.add_argument("--turns", action="store_true",
                        help="also time games where every seat asks for Turn notices, against none")
    args = parser.parse_args()
    play_one(3)  # warm-up: imports, caches
    per: list[float] = []
    own: list[float] = []
    for i in range(args.games):
        played = play_one(1 + i % 2)
        per.append(played[0] / played[1])
        own.append(referee_cpu_per_decision(1 + i % 2, played))
    print(f"referee work: {statistics.median(per) * 1e6:.0f} us CPU per decision (median of "
          f"{args.games} games; min {min(per) * 1e6:.0f}, max {max(per) * 1e6:.0f}), "
          f"the stand-in bots' parsing and replies included")
    print(f"  the referee's own: {statistics.median(own) * 1e6:.0f} us CPU per decision "
          f"(min {min(own) * 1e6:.0f}, max {max(own) * 1e6:.0f}; the stand-in bots' work taken out)")
    if args.turns:
        off: list[float] = []
        on: list[float] = []
        for i in range(max(args.games, 4)):  # in turn: the machine's drift hits both alike
            cpu, n = play_one(1 + i % 2)
            off.append(cpu / n)
            cpu, n = play_one(1 + i % 2, turns=True)
            on.append(cpu / n)
        ratio = statistics.median(on) / statistics.median(off)
        print(f"turn notices: {statistics.median(on) * 1e6:.0f} us CPU per decision with every seat "
              f"asking, {statistics.median(off) * 1e6:.0f} us with none (median of {len(on)} games "
              f"each, in turn): {ratio:.2f}x")
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("instructions: valgrind is not installed (Debian package valgrind)")
            return
        _, decisions = play_one(SEED)
        count = instructions(1) - instructions(0)
        print(f"referee work: {count / decisions:,.0f} instructions per decision "
              f"(seed {SEED}, {decisions} decisions, valgrind cachegrind)")


def _count_run(games: int) -> None:
    play_one(3)
    for _ in range(games):
        play_one(SEED)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--count-run":
        _count_run(int(sys.argv[2]))
    else:
        main()

