"""`arena bot check BOT`: play one short match and say, line by line, what works.

The bot takes seat 0 against random sample bots in the other seats (two,
unless `--option players=N` says otherwise). Every fault is counted but
none ends the match early (strikes are effectively unlimited), so one run
reports everything that went wrong. The command module prints
`Check.lines`; nothing here prints.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import secrets
import shutil
import signal
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from arena.cli.safelog import escape_controls
from arena.cli.stopping import OneMatchStop
from arena.manifest import BotSpec
from arena.referee.bot_seed import new_key, public_id
from arena.referee.spec import (
    STREAM_GONE,
    FaultPolicy,
    MatchResult,
    MatchSpec,
    SeatResult,
    TimeControl,
)
from arena.referee.transcript import mixed_levels_note
from arena.sandbox.botfile import BotFileError, load_bot, missing_program
from arena.sandbox.levels import fallback_note

if TYPE_CHECKING:
    from arena.game import Rules

# The opponents: the random sample bot of this repository.
RANDOM_BOT = Path(__file__).resolve().parents[2] / "sample_bots" / "random"
LOG_TAIL_LINES = 12
# Refused connections told as notes (the referee keeps 20 of a match).
REFUSALS_NOTED = 3


@dataclass(frozen=True)
class CheckOptions:
    rules: str = "standard"
    deals: int = 3
    seed: int | None = None          # None: a random one (printed with the result)
    key: str | None = None           # the bots' ARENA_SEED key; None: a random one
    per_move: float = 1.0
    bank: float = 10.0
    startup: float = 15.0
    sandbox: str = "auto"
    options: tuple[tuple[str, object], ...] = ()  # rules overrides (a tournament's, say)
    pondering: bool = False  # as a tournament's default: paused while others decide


@dataclass
class Check:
    """The outcome: `lines` to print, `ok` for the exit status."""

    lines: list[str] = field(default_factory=list)
    ok: bool = True
    log_tail: list[str] = field(default_factory=list)

    def passed(self, text: str) -> None:
        self.lines.append(f"  ok    {text}")

    def failed(self, text: str) -> None:
        self.ok = False
        self.lines.append(f"  FAIL  {text}")

    def noted(self, text: str) -> None:
        """Worth knowing, not a failure."""
        self.lines.append(f"  note  {text}")


def check_bot(folder: Path, options: CheckOptions = CheckOptions(),
              stop: OneMatchStop | None = None) -> Check:
    """Validate `folder`, play the match, judge it. Never raises for a faulty bot.
    With `stop` (a command's), Ctrl-C or SIGTERM during the match raises
    KeyboardInterrupt (Terminated) once its bots are stopped, and one
    after it is held for the command (`stop.signal`)."""
    from arena.referee.match import MatchSetupError, play_match, run_match

    report = Check()
    try:
        bot = load_bot(folder)
    except BotFileError as exc:
        report.failed(f"bot.toml: {exc}")
        return report
    command = " ".join(bot.run) if bot.run else f"image {bot.image}"
    if bot.protocol == "stdio":
        command += " (protocol stdio: JSON lines, through the arena's bridge)"
    report.passed(f"bot.toml is valid: {bot.name} {bot.version} ({bot.language}), run: {command}")
    missing = _missing_program(bot)
    if missing:
        report.failed(missing)
        return report
    try:
        opponent = load_bot(RANDOM_BOT)
    except BotFileError as exc:  # a broken installation, not the bot's fault
        report.failed(f"cannot load the random sample bot: {exc}")
        return report

    try:
        players = check_rules(options).players
    except ValueError as exc:
        report.failed(f"the match could not be set up: {exc}")
        return report
    # Random unless given, and printed: a bot must not recognise the check by
    # its deals, and a run can be repeated with --seed and --key.
    seed = options.seed if options.seed is not None else secrets.randbelow(2**63)
    key = options.key or new_key()
    options = dataclasses.replace(options, seed=seed, key=key)
    work = Path(tempfile.mkdtemp(prefix="arena-bot-check-"))
    try:
        spec = MatchSpec(
            match_id=public_id("check"), bots=(bot, *[opponent] * (players - 1)),
            seed=seed, key=key, rules_preset=options.rules,
            rules_options=(*options.options, ("max_deals", options.deals)),
            time_control=TimeControl(per_move=options.per_move, bank=options.bank,
                                     startup=options.startup, pondering=options.pondering),
            # Count every fault but keep playing, so one run shows them all.
            fault_policy=FaultPolicy(mode="strike", max_strikes=1_000_000),
            sandbox=options.sandbox, work_dir=str(work),
        )
        try:
            with _refusals() as refused:
                result = run_match(spec) if stop is None else _play(spec, stop, play_match)
        except (MatchSetupError, ValueError, OSError) as exc:
            report.failed(f"the match could not be set up: {exc}")
            return report
        _judge(report, result, options, bot)
        for reason in refused.reasons[:REFUSALS_NOTED]:
            report.noted(f"the referee {escape_controls(reason)}")
        report.noted(f"repeat this check with --seed {seed} --key {key}")
        if not report.ok:
            report.log_tail = _tail(result.seats[0].log_path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report


class _Refused(logging.Handler):
    """The referee's refused connections, from its warnings; the others go
    where they went without this handler (logging's last resort: stderr)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.reasons: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        reason = record.getMessage()
        if reason.startswith("further refused"):  # the check notes only the first few anyway
            return
        if not reason.startswith("refused a connection"):
            if logging.lastResort is not None and record.levelno >= logging.lastResort.level:
                logging.lastResort.handle(record)
        elif reason not in self.reasons:
            self.reasons.append(reason)


@contextmanager
def _refusals() -> Iterator[_Refused]:
    """Why the referee refused the bot's streams ("first message is not a
    BotMessage"): report lines of the check, where they explain a failed
    connect, instead of a stray line on stderr after the report (and a
    second line beside `arena bot add`'s one-line refusal)."""
    handler = _Refused()
    logger = logging.getLogger("arena.referee")  # arena/referee/server.py's
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _play(spec: MatchSpec, stop: OneMatchStop,
          play_match: Callable[[MatchSpec], Awaitable[MatchResult]]) -> MatchResult:
    done: list[MatchResult] = []
    try:
        asyncio.run(stop.run(play_match(spec), done))
    except (KeyboardInterrupt, asyncio.CancelledError):
        stop.hold(signal.SIGINT)  # asyncio.run's own Ctrl-C, if SIGTERM did not cancel it
        if not done:
            raise stop.exception() from None
    return done[0]  # a signal as the match ended is held: its result stands


def check_rules(options: CheckOptions) -> Rules:
    """The rules the check plays (its length aside); ValueError naming the
    flag at fault (`--rules`, `--option`). `arena bot check` calls it first,
    to turn a mistake into a usage error before anything runs."""
    from arena.game import Rules

    try:
        chosen = Rules.preset(options.rules)
    except ValueError as exc:
        raise ValueError(f"--rules: {exc}") from None
    if any(name == "max_deals" for name, _ in options.options):
        raise ValueError("--option max_deals: the check's length is --deals")
    try:
        return chosen.replace(**dict(options.options)) if options.options else chosen
    except ValueError as exc:
        raise ValueError(f"--option: {exc}") from None


def _missing_program(bot: BotSpec) -> str:
    """A first, friendly check that the command's program exists (process level)."""
    if not bot.run:
        return ""
    missing = missing_program(bot)
    if missing:
        return f"start: {missing}"
    program = bot.run[0]
    if "/" in program or shutil.which(program):
        return ""
    return f"start: program {program!r} not found on PATH"


# The referee's fault line for a bot whose stream was gone while a decision
# waited (spec.STREAM_GONE): a crash, not an answer.
_DIED = re.compile(rf"decision \d+: ({'|'.join(map(re.escape, STREAM_GONE))})")


def _judge(report: Check, result: MatchResult, options: CheckOptions, bot: BotSpec) -> None:
    me = result.seats[0]
    faults = dict(me.faults)
    log = list(me.fault_log)
    before_play = [line for line in log if not line.startswith("decision ")]

    started = [line for line in before_play if line.startswith("could not start")]
    if started:
        report.failed(f"start: {started[0]}")
        return
    report.passed(f"started (sandbox level: {me.sandbox})")
    for note in (fallback_note(bot, options.sandbox), mixed_levels_note(result)):
        if note:
            report.noted(note.removeprefix("note: "))

    if me.decisions == 0 and before_play:
        report.failed(f"connect: {before_play[0]} (ARENA_ADDRESS / ARENA_TOKEN, then a Hello)")
        return
    report.passed(f"connected and said hello within {options.startup:g}s")

    limit = f"{options.per_move:g}s per move + {options.bank:g}s bank"
    if faults.get("timeout", 0):
        first = _first(log, "no reply within")
        report.failed(f"time: {faults['timeout']} decision(s) not answered in time ({limit}); {first}")
    else:
        # `decisions` counts requests; one the bot died on was not answered.
        answered = me.decisions - sum(1 for line in log if _DIED.match(line))
        if answered == 0:
            report.failed(f"answers: the bot answered no decision: {_first(log, 'decision ')}")
            _judge_finish(report, result, me, options)
            return
        report.passed(f"answered {answered} decision{'s' if answered != 1 else ''} in time "
                      f"(slowest {me.time_max:.3f}s, limit {limit})")
        if me.time_max > options.per_move:
            report.noted(f"the slowest decision took {me.time_max:.3f}s, over the {options.per_move:g}s "
                         "per move: the excess came out of the bank, which a longer match at this "
                         "pace runs out of")
    tracebacks = _count_in_log(me.log_path, "Traceback (most recent call last)")
    # A bot that crashed died of its traceback: the finish line fails, and the
    # log's tail that follows shows it. Only one that played on gets the note.
    if tracebacks and not dict(me.faults).get("crash", 0):
        report.noted(f"the bot's log has {tracebacks} Python traceback(s): errors it caught and "
                     "played on? (`arena play ... --logs DIR` keeps the log)")

    bad = faults.get("illegal", 0) + faults.get("malformed", 0)
    if bad:
        lines = [x for x in log if x.startswith("decision ") and "no reply within" not in x
                 and not _DIED.match(x)]
        report.failed(f"legality: {faults.get('illegal', 0)} illegal and "
                      f"{faults.get('malformed', 0)} malformed replies; first: "
                      f"{lines[0] if lines else '?'}")
    else:
        report.passed("played legally (no illegal or malformed reply)")

    _judge_finish(report, result, me, options)


def _judge_finish(report: Check, result: MatchResult, me: SeatResult, options: CheckOptions) -> None:
    if me.faults and dict(me.faults).get("crash", 0):
        report.failed(f"finish: the bot disconnected or crashed: {_first(me.fault_log, '')}")
    elif me.status != "ok":
        report.failed(f"finish: status {me.status}")
    else:
        report.passed(
            f"finished the match: place {me.place} of {len(result.seats)}, total {me.total} "
            f"({len(result.deals)} deals of {options.rules}, seed {options.seed})"
        )


def _count_in_log(path: str, needle: str) -> int:
    try:
        return Path(path).read_text(errors="replace").count(needle) if path else 0
    except OSError:
        return 0


def _first(lines: Sequence[str], needle: str) -> str:
    return next((x for x in lines if needle in x), lines[0] if lines else "")


# A line that names an error: "Error: ...", "TypeError: ...", "panic: ...",
# "Exception in thread ...", "terminate called after ...", "fatal error: ..."
# (not a Python traceback's header: its error is its last line, in the tail).
_ERROR_LINE = re.compile(r"^\s*(\w*(Error|Exception)\b|panic:|fatal|terminate called)",
                         re.IGNORECASE)


def _tail(path: str) -> list[str]:
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return []
    lines = text.splitlines()
    shown = lines[-LOG_TAIL_LINES:]
    # Node.js, Java, Go and C++ runtimes print the error first and a stack
    # under it ("Error: Cannot find module '@grpc/grpc-js'", 20 lines on):
    # the first such line above the tail comes with it.
    cause = next((line for line in lines[:-LOG_TAIL_LINES] if _ERROR_LINE.search(line)), None)
    if cause is not None:
        shown = [cause, "...", *shown]
    # The bot's own bytes, for the checker's terminal: its control characters
    # (escape sequences that would retitle or clear the terminal) as \xNN.
    return [escape_controls(line) for line in shown]
