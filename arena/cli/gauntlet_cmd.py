"""`arena gauntlet BOT --against BOT...`: is BOT stronger? Duplicate sets
until a sequential test decides (arena/tournament/gauntlet/sets.py, sprt.py)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.checks import SEED_MAX
from arena.cli.stopping import RunStop

if TYPE_CHECKING:
    from arena.tournament import GauntletSettings as Settings
    from arena.tournament import Verdict


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _elo(x: float) -> str:
    if math.isnan(x):
        return "?"  # not known yet (an interval from fewer than two sets)
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def _ratio(llr: float) -> str:
    return f"{math.exp(min(llr, 700.0)):.3g}"  # exp(710) overflows a float


def live_line(v: Verdict) -> str:
    s = v.state
    if s.sets == 0:
        return "sets 0: waiting for the first complete set"
    text = (f"sets {s.sets} ({v.matches} matches): score {s.mean:.3f}  elo {_elo(s.elo)} "
            f"[{_elo(s.elo_low)}, {_elo(s.elo_high)}]  LLR {s.llr:+.2f} "
            f"(bounds {s.low:+.2f}, {s.high:+.2f})")
    if s.decision:
        text += f"  -> {s.decision}"
    return text


def verdict_line(settings: Settings, v: Verdict, max_sets: int) -> str:
    s = v.state
    bot = settings.field[0].split("@")[0]
    opponents = [f.split("@")[0] + "@" + f.split("@")[1][:8] for f in settings.field[1:]]
    if settings.baseline:
        # field[1] is the baseline, and only its seats count (gauntlet.counted):
        # the --against bots only fill the third seat.
        others = sorted(set(opponents[1:]) - {opponents[0]})
        against = f"its baseline {opponents[0]}" + (
            f" (the third seat: {', '.join(others)}, not counted)" if others else "")
    else:
        against = ", ".join(sorted(set(opponents)))
    head = f"{bot} against {against}: "
    if s.decision == "H1":
        what = (f"STRONGER (H1: elo {settings.elo1:g} is {_ratio(s.llr)} times as likely "
                f"as elo {settings.elo0:g}; LLR {s.llr:+.2f} >= {s.high:.2f})")
    elif s.decision == "H0":
        what = (f"NOT STRONGER (H0: elo {settings.elo0:g} is {_ratio(-s.llr)} times as "
                f"likely as elo {settings.elo1:g}; LLR {s.llr:+.2f} <= {s.low:.2f})")
    else:
        what = (f"UNDECIDED after {s.sets} of {max_sets} sets (LLR {s.llr:+.2f} between "
                f"{s.low:.2f} and {s.high:.2f})" if v.finished else
                f"not finished ({s.sets} of at most {max_sets} sets; run again to resume)")
    return (head + what + f"; {s.sets} sets, {v.matches} matches, score {s.mean:.3f}, "
            f"elo {_elo(s.elo)} [{_elo(s.elo_low)}, {_elo(s.elo_high)}]")


def gauntlet(
    bot: Annotated[Path, typer.Argument(help="bot folder under test (with bot.toml)")],
    against: Annotated[list[Path] | None, typer.Option(
        "--against", help="opponent bot folder (repeatable; one is enough)")] = None,
    baseline: Annotated[str, typer.Option(
        "--baseline", help="an older version of BOT: its folder, or its version (or hash "
        "prefix) stored in --baseline-from or in --dir")] = "",
    baseline_from: Annotated[Path | None, typer.Option(
        "--baseline-from", help="tournament (or gauntlet) folder whose store holds --baseline")] = None,
    folder: Annotated[Path | None, typer.Option(
        "--dir", help="the gauntlet's folder: store, snapshots, replays (default: gauntlet-BOTNAME)")] = None,
    rules: Annotated[str, typer.Option("--rules", help="rules preset")] = "standard",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="rules option NAME=VALUE (repeatable)")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=SEED_MAX, help="deal seed (default: the stored one, or a new random one)")] = None,
    max_sets: Annotated[int, typer.Option("--max-sets", min=1, max=100_000,
                                          help="stop after this many sets at most")] = 100,
    stop: Annotated[str, typer.Option(
        "--stop", help="sprt: stop when the test decides; fixed: play --max-sets sets")] = "sprt",
    elo0: Annotated[float, typer.Option("--elo0", help="H0: this Elo (default 0: equal)")] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1: this Elo")] = 20.0,
    alpha: Annotated[float, typer.Option("--alpha", help="false-positive rate")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="false-negative rate")] = 0.05,
    time_per_move: Annotated[float, typer.Option("--time-per-move")] = 1.0,
    bank: Annotated[float, typer.Option("--bank", help="time bank, seconds")] = 10.0,
    startup: Annotated[float, typer.Option("--startup", help="seconds to connect")] = 15.0,
    sandbox: Annotated[str, typer.Option("--sandbox", help="auto | docker | bwrap | process")] = "auto",
    concurrency: Annotated[int, typer.Option(
        "--concurrency", "-j", min=0, max=1024, help="matches at once, 0 = one per core")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the verdict as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no live line")] = False,
) -> None:
    """Play BOT against the others in duplicate sets until a sequential test
    (GSPRT on set scores) decides whether BOT is stronger; resumable."""
    from arena.cli.checks import seconds_problem
    from arena.referee.rulechoice import rules_overrides
    from arena.referee.spec import TimeControl
    from arena.tournament import (
        GauntletError,
        MatchSettings,
        SprtError,
        SprtParams,
        TournamentError,
        exclusive_run,
        gauntlet_run,
        make_executor,
    )

    overrides, problem = rules_overrides(option)
    problem = (problem or seconds_problem("--time-per-move", time_per_move)
               or seconds_problem("--startup", startup)
               or seconds_problem("--bank", bank, zero_ok=True))
    if sandbox not in ("auto", "docker", "bwrap", "process"):
        problem = problem or f"--sandbox {sandbox!r}: expected auto, docker, bwrap or process"
    if problem:
        raise _fail(problem)
    try:
        SprtParams(elo0, elo1, alpha, beta)
    except SprtError as exc:
        raise _fail(f"--elo0/--elo1/--alpha/--beta: {exc}") from None
    from arena.tournament import MIN_SETS

    if stop == "sprt" and max_sets < MIN_SETS:
        # Not an error (a short look is fine), but the verdict cannot be one.
        typer.echo(f"note: the test decides nothing before {MIN_SETS} sets (its variance is "
                   f"estimated from them): --max-sets {max_sets} can only end UNDECIDED", err=True)
    root = folder
    if root is None:
        try:
            from arena.sandbox.botfile import load_bot

            root = Path(f"gauntlet-{load_bot(bot, hashed=False).name}")
        except ValueError as exc:
            raise _fail(f"BOT {bot}: {exc}") from None
    request = gauntlet_run.Request(
        root=root.resolve(), bot=bot, against=tuple(against or ()), baseline=baseline,
        baseline_from=baseline_from, seed=seed,
        match=MatchSettings(
            rules_preset=rules, rules_options=tuple(overrides),
            time_control=TimeControl(per_move=time_per_move, bank=bank, startup=startup),
            sandbox=sandbox),
        stop=stop, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
        max_sets=max_sets)
    shown = [-1]
    # Ctrl-C and SIGTERM as for `tournament run` (arena/cli/stopping.py).
    signals = RunStop(lambda: make_executor("local", concurrency, quiet=quiet))

    def on_update(v: Verdict) -> None:
        signals.check()  # a stop whose exception a finalizer swallowed
        if quiet or v.state.sets == shown[0]:
            return
        shown[0] = v.state.sets
        typer.echo(live_line(v), err=True)

    try:
        bots, has_baseline = gauntlet_run.prepare(request)  # nothing is written before this
        try:
            request.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # named: a bare OSError said "[Errno 2] ...: '/x'" only
            raise GauntletError(f"--dir {request.root}: cannot create the folder: "
                                f"{exc.strerror or exc}") from None
        with signals, exclusive_run(request.root, "arena gauntlet", "gauntlet"):
            store, prepared = gauntlet_run.open_store(request, bots, has_baseline)
            with store:
                report = gauntlet_run.run(prepared, store, signals.executor, on_update)
            signals.check()
    except (TournamentError, OSError) as exc:  # every refusal of the package (errors.py)
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        raise signals.stopped_exit() from None
    for line in report.errors[:10]:
        typer.echo(f"match failed (played again on the next run): {line}", err=True)
    if as_json:
        data = report.verdict.to_json(prepared.settings, max_sets)
        data["folder"] = str(request.root)
        data["played_now"] = report.played
        typer.echo(json.dumps(data, sort_keys=True))
    else:
        typer.echo(verdict_line(prepared.settings, report.verdict, max_sets))
    sys.stdout.flush()
    signals.finish()  # a signal while the verdict was printed: its line, after it
    if report.errors:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("gauntlet")(gauntlet)
