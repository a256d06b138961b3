"""One match between bots over gRPC: `run_match(spec) -> MatchResult`.

    from arena.referee import MatchSpec, run_match
    result = run_match(MatchSpec(match_id="m1", bots=(a, b, c), seed=7))

`run_match` is the blocking worker entry point (module level, picklable:
process pools and Dask ship it by reference); `play_match` is the same as a
coroutine. The game itself is a `GameLoop` over seats; `in_memory(spec)` is
that loop over seats whose bots answer in this process (no gRPC, no
processes: tests and benchmarks/referee_work.py):

    from arena.referee import in_memory
    final = asyncio.run(in_memory(spec).play())

See match.py (flow, faults, forfeits, setup and teardown), loop.py (the game
loop), decide.py (one decision and its faults), messages.py (match start,
deal results, match end), memory.py (in-memory seats), rulechoice.py (the
rules a spec plays), server.py (connections and tokens), seats.py (clocks),
events.py (what each seat is told), replay.py (the JSON Lines replay and
re-playing it), spec.py (the values in and out).
"""

from arena.game.records import DealRecord
from arena.referee.loop import GameLoop
from arena.referee.match import Match, play_match, run_match
from arena.referee.memory import (
    MemorySeat,
    MemoryWriter,
    Posted,
    StandIn,
    first_legal,
    in_memory,
    memory_seats,
)
from arena.referee.rulechoice import MatchSetupError, RulesChoiceError, build_rules
from arena.referee.seats import Seat
from arena.referee.spec import (
    DealSummary,
    FaultPolicy,
    MatchResult,
    MatchSpec,
    SeatResult,
    TimeControl,
)

__all__ = [
    "DealRecord", "DealSummary", "FaultPolicy", "GameLoop", "Match", "MatchResult", "MatchSetupError", "MatchSpec",
    "MemorySeat", "MemoryWriter", "Posted", "RulesChoiceError", "Seat", "SeatResult", "StandIn",
    "TimeControl", "build_rules", "first_legal", "in_memory", "memory_seats", "play_match", "run_match",
]
