"""One match between bots over gRPC: `run_match(spec) -> MatchResult`.

    from arena.referee import MatchSpec, run_match
    result = run_match(MatchSpec(match_id="m1", bots=(a, b, c), seed=7))

`run_match` is the blocking worker entry point (module level, picklable:
process pools and Dask ship it by reference); `play_match` is the same as a
coroutine. See match.py (flow, faults, forfeits, setup and teardown), loop.py (the game
loop), decide.py (one decision and its faults), messages.py (match start,
deal results, match end), rulechoice.py (the rules a spec plays), server.py (connections and
tokens), seats.py (clocks), events.py (what each seat is told), replay.py
(the JSON Lines replay and re-playing it), spec.py (the values in and out).
"""

from arena.referee.match import MatchSetupError, play_match, run_match
from arena.referee.spec import (
    DealSummary,
    FaultPolicy,
    MatchResult,
    MatchSpec,
    SeatResult,
    TimeControl,
)

__all__ = [
    "DealSummary", "FaultPolicy", "MatchResult", "MatchSetupError", "MatchSpec", "SeatResult",
    "TimeControl", "play_match", "run_match",
]
