"""What a match is (input) and what it produced (output).

Plain, picklable, JSON-able values: a `MatchSpec` travels to a worker
process or a Dask worker, the referee plays it, and a `MatchResult` comes
back to the tournament coordinator, which alone writes the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from arena.game.records import DealRecord
from arena.manifest import BotSpec
from arena.referee.hosted import HOSTED_LEVEL
from arena.sandbox.api import Limits

FaultMode = Literal["strike", "forfeit"]
SeatStatus = Literal["ok", "forfeit"]
FAULT_KINDS: tuple[str, ...] = ("timeout", "crash", "illegal", "malformed")
# How a crash's fault line "decision N: <why>" begins when the seat's stream
# was gone while that decision waited (match.py `_decide`, seats.py
# `Seat._write`): the bot died on the decision rather than answering it, and
# `arena bot check` counts it so (cli/bot_check.py `_DIED`).
GONE_EXITED = "exited with status"
GONE_CLOSED = "closed the stream"
GONE_BEFORE = "disconnected before the decision"
GONE_STALLED = "stopped reading its stream"
GONE_WRITE_FAILED = "write failed"
STREAM_GONE: tuple[str, ...] = (GONE_EXITED, GONE_CLOSED, GONE_BEFORE, GONE_STALLED, GONE_WRITE_FAILED)


@dataclass(frozen=True)
class TimeControl:
    """Per-decision limit plus a Fischer time bank (seconds, referee's monotonic clock).

    `pondering`: may a bot use the CPU while another seat decides? False
    (the default): it is paused meanwhile (arena/referee/pondering.py), so
    no bot's thinking time is taken by another bot."""

    per_move: float = 1.0
    bank: float = 10.0
    increment: float = 0.1
    startup: float = 15.0
    pondering: bool = False


@dataclass(frozen=True)
class FaultPolicy:
    """`strike`: a fault plays the first legal action and counts a strike;
    the bot forfeits at `max_strikes`. `forfeit`: the first fault forfeits."""

    mode: FaultMode = "strike"
    max_strikes: int = 3


# Which seats' logs a match keeps (MatchSpec.keep_logs).
KEEP_LOGS: tuple[str, ...] = ("faults", "all")


@dataclass(frozen=True)
class MatchSpec:
    match_id: str
    bots: tuple[BotSpec, ...]                  # in seat order
    seed: int
    rules_preset: str = "standard"
    rules_options: tuple[tuple[str, object], ...] = ()  # overrides of the preset, by option name
    time_control: TimeControl = field(default_factory=TimeControl)
    fault_policy: FaultPolicy = field(default_factory=FaultPolicy)
    sandbox: str = "auto"                      # auto | docker | bwrap | process
    replay_path: str = ""                      # "" = no replay file
    work_dir: str = ""                         # scratch folder for sockets and logs ("" = temp)
    # With no work_dir: keep here the logs of the seats that had a fault
    # (named like work_dir's); the rest go with the temp folder (tournaments).
    fault_logs_dir: str = ""
    # Which seats' logs go to fault_logs_dir: "faults" (those with one) or
    # "all"; each with its decision marks (marks.py).
    keep_logs: str = "faults"
    transport: Literal["unix", "tcp"] = "unix"
    limits: Limits = field(default_factory=Limits)  # resource limits for every bot of the match
    # Seats with a time control of their own, (seat, control): a person's
    # seat is given minutes where bots get a second (arena/web/human).
    seat_time: tuple[tuple[int, TimeControl], ...] = ()
    # The secret the bots' ARENA_SEEDs are made from (referee/bot_seed.py);
    # "" = a fresh random one for this match (the bots' randomness then
    # does not repeat with the seed).
    key: str = ""

    def seat_time_control(self, seat: int) -> TimeControl:
        """The time control `seat` plays under: its own, else the match's."""
        for index, control in self.seat_time:
            if index == seat:
                return control
        return self.time_control


@dataclass(frozen=True)
class SeatResult:
    seat: int
    bot: str                 # bot name
    version: str
    total: int
    place: int               # 1 = first; ties share a place; a forfeit is last
    status: SeatStatus
    decisions: int
    time_total: float        # seconds spent on decisions
    time_max: float
    faults: tuple[tuple[str, int], ...]   # (kind, count) for each of FAULT_KINDS
    fault_log: tuple[str, ...] = ()       # one line per fault, human readable
    sandbox: str = "process"              # level the bot actually ran at
    log_path: str = ""
    moves: int = -1          # decisions answered with a legal action (-1: stored before it was counted)
    # How the bot was paused while others decided (arena.sandbox.freezer
    # mechanism, "off" when pondering was allowed), and the CPU seconds its
    # decisions used (None where its sandbox has no CPU clock).
    pause: str = "off"
    cpu_total: float | None = None
    cpu_max: float | None = None


# One finished deal of a match: the engine's own record (arena.game.records),
# passed on as it is; `DealSummary` is its former name here.
DealSummary = DealRecord


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    seed: int
    seats: tuple[SeatResult, ...]            # seat order
    deals: tuple[DealRecord, ...]
    finish: tuple[tuple[int, ...], ...]      # places best first; each a tuple of tied seats
    duration: float                          # wall seconds
    replay_path: str = ""
    reason: str = "complete"                 # complete | max_deals | forfeit ...

    @property
    def sandbox_warning(self) -> str:
        """Why this match's seats were not equally confined ("" if they were)."""
        return sandbox_warning([s.sandbox for s in self.seats])


def mixed_levels(levels: Iterable[str]) -> bool:
    """True when process-level bots sat beside confined ones (bwrap, docker).
    A person's seat (the hosted level) is no bot: it confines nothing either way."""
    found = set(levels) - {"none", HOSTED_LEVEL}
    return "process" in found and len(found) > 1


def sandbox_warning(levels: Iterable[str]) -> str:
    """The loud line for a match whose seats ran at `levels` ("" if not mixed)."""
    if not mixed_levels(levels):
        return ""
    found = sorted(set(levels) - {"none", HOSTED_LEVEL})
    return (f"WARNING: sandbox levels are mixed ({', '.join(found)}): the process-level bots "
            "were less confined than the others and could reach more of the machine "
            "(docs/sandbox.md, 'The process level')")


def finish_places(game_finish: Iterable[Any], forfeits: Sequence[int]
                  ) -> tuple[list[tuple[int, ...]], dict[int, int]]:
    """A match's finishing order (groups of tied seats, best first) and each
    seat's place from the engine's `game.finish`: seats that forfeited are
    last, together, whatever their totals. The referee's result and
    `arena verify`'s re-play both place seats with it."""
    groups = [tuple(g) if isinstance(g, (tuple, list)) else (int(g),) for g in game_finish]
    finish = [tuple(x for x in g if x not in forfeits) for g in groups]
    finish = [g for g in finish if g]
    if forfeits:
        finish.append(tuple(sorted(forfeits)))
    place_of: dict[int, int] = {}
    place = 1
    for g in finish:
        for x in g:
            place_of[x] = place
        place += len(g)
    return finish, place_of
