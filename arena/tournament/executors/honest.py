"""Results from workers the coordinator does not trust (a Dask cluster of
other machines): each comes back with its replay's text, and is stored
only when the engine, re-dealing from the match's seed and re-applying the
recorded actions, gives the same deals, totals, places and faults
(arena/referee/replay_check.py, the check `arena verify` makes).

What a re-play cannot show: a forger that played the moves itself instead
of the bots (every move legal, every total consistent) or lied about the
time taken. It shows every changed total, place, deal or action, every
seed or rules swap and every result sent for another match or bots.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from arena.referee.marks import MARKS_SUFFIX
from arena.referee.replay import ReplayError, parse_replay
from arena.referee.replay_check import ReplayMismatch, check_replay
from arena.referee.rulechoice import build_rules
from arena.referee.spec import MatchResult, MatchSpec
from arena.tournament.executors.worker import Runner

__all__ = ["ReplayMismatch", "Returned", "check", "play_recorded", "stored"]


@dataclass(frozen=True)
class Returned:
    """What a cluster task sends back: the match's result, its replay's
    text ("" when the runner wrote none), and the logs of the seats with a
    fault (file name, bytes) when the spec asks to keep them."""

    result: MatchResult
    replay: str
    logs: tuple[tuple[str, bytes], ...] = ()


def play_recorded(runner: Runner, spec: MatchSpec) -> Returned:
    """On the worker: play `spec` with its replay written to a folder of
    this machine (the spec's replay path is the coordinator's), and return
    the result with the replay's text. The replay is recorded whether or
    not the tournament keeps replays: without it nothing can be checked."""
    with tempfile.TemporaryDirectory(prefix="arena-match-") as tmp:
        path = os.path.join(tmp, "replay.jsonl")
        logs = Path(tmp) / "logs"
        result = runner(replace(spec, replay_path=path,
                                fault_logs_dir=str(logs) if spec.fault_logs_dir else ""))
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            text = ""
        kept = tuple((p.name, p.read_bytes()) for p in sorted(logs.glob("*")) if p.is_file())
    return Returned(result, text, kept)


def check(spec: MatchSpec, returned: Returned) -> None:
    """ReplayMismatch (one line: the match and its first difference) unless
    `returned` re-plays to its result for exactly the match `spec` asked for."""
    where = f"match {spec.match_id}"
    if not returned.replay:
        raise ReplayMismatch(f"{where}: the worker sent no replay")
    try:
        replay = parse_replay(returned.replay.splitlines(), f"{where}'s replay as sent")
    except ReplayError as exc:
        raise ReplayMismatch(str(exc)) from None
    result = returned.result
    seats = sorted(result.seats, key=lambda s: s.seat)
    if [s.seat for s in seats] != list(range(len(spec.bots))):
        raise ReplayMismatch(f"{where}: its result has {len(seats)} seats, the match "
                             f"{len(spec.bots)}")
    for seat, bot in zip(seats, spec.bots, strict=True):
        if (seat.bot, seat.version) != (bot.name, bot.version):
            raise ReplayMismatch(f"{where}: seat {seat.seat} of its result is {seat.bot} "
                                 f"{seat.version}, the schedule's is {bot.name} {bot.version}")
    check_replay(replay, result, match_id=spec.match_id,
                 bots=[(b.name, b.content_hash) for b in spec.bots],
                 rules=build_rules(spec).to_dict(), seed=spec.seed,
                 seed_source="the schedule gives")


def stored(spec: MatchSpec, returned: Returned) -> MatchResult:
    """The checked result as the store keeps it: its replay written where
    the spec asks (if it asks), whole or not at all (a part file renamed),
    and named there; the seats' logs it came with in the spec's folder for
    them (only those named as the referee names them: this match's)."""
    if spec.replay_path and returned.replay:
        _write(Path(spec.replay_path), returned.replay.encode("utf-8"))
    if spec.fault_logs_dir:
        for name, data in returned.logs:
            if name.startswith(f"{spec.match_id}-seat") and name.endswith((".log", MARKS_SUFFIX)) \
                    and Path(name).name == name:
                _write(Path(spec.fault_logs_dir) / name, data)
    return replace(returned.result, replay_path=spec.replay_path)


def _write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f"{target.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
    part.write_bytes(data)
    os.replace(part, target)
