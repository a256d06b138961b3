"""One match between bots over gRPC: `run_match(spec) -> MatchResult`.

    from arena.referee import MatchSpec, run_match
    result = run_match(MatchSpec(match_id="m1", bots=(a, b, c), seed=7))

See match.py (flow, faults, forfeits), server.py (connections and tokens),
replay.py (the JSON Lines replay and re-playing it), spec.py (the values).
"""

from arena.referee.spec import (
    DealSummary,
    FaultPolicy,
    MatchResult,
    MatchSpec,
    SeatResult,
    TimeControl,
)


def run_match(spec: MatchSpec) -> MatchResult:
    """Play one match (blocking); the worker entry point."""
    from arena.referee.match import run_match as _run

    return _run(spec)


async def play_match(spec: MatchSpec) -> MatchResult:
    from arena.referee.match import play_match as _play

    return await _play(spec)


__all__ = [
    "DealSummary", "FaultPolicy", "MatchResult", "MatchSpec", "SeatResult", "TimeControl",
    "play_match", "run_match",
]
