"""`arena analyze REPLAY | TOURNAMENT_DIR`: where a seat lost points,
decision by decision (arena.analysis, docs/analysis.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.analysis import stages  # the defaults only: a small module
from arena.cli.cluster_options import InsecureOption, TlsOption


def analyze(
    path: Annotated[Path, typer.Argument(
        help="a replay file (.jsonl), or a tournament's or gauntlet's folder (with --bot)")],
    seat: Annotated[int | None, typer.Option(
        "--seat", min=0, help="the seat of a replay to analyse (default: --bot's seat, else 0)")] = None,
    bot: Annotated[str | None, typer.Option(
        "--bot", help="the bot whose seats are analysed (a folder: required)")] = None,
    matches: Annotated[int | None, typer.Option(
        "--matches", min=1, help="a folder: analyse the bot's first K finished matches")] = None,
    work: Annotated[int, typer.Option(
        "--work", min=2, help="deals drawn per decision (more: smaller standard errors, slower)")] = 32,
    seed: Annotated[int, typer.Option("--seed", help="the analysis seed (the same: the same report)")] = 0,
    policy: Annotated[str, typer.Option(
        "--policy", help="the reference policy that plays each deal out: greedy, search (the "
        "search bot; tens of times slower) or search-seat (the search bot for the analysed "
        "seat, greedy for the others)")] = "greedy",
    policy_work: Annotated[int, typer.Option(
        "--policy-work", min=1, help="search, search-seat: the search's simulated deals per decision")] = 8,
    confirm: Annotated[str, typer.Option(
        "--confirm", help="stage 2: the stronger reference that values again the decisions the "
        "first one finds near a label (search; none: one stage)")] = stages.CONFIRM,
    confirm_work: Annotated[int, typer.Option(
        "--confirm-work", min=1, help="stage 2's search: simulated deals per decision")] = stages.CONFIRM_WORK,
    screen: Annotated[float, typer.Option(
        "--screen", min=0.0, help="points: stage 2 values again a first-stage loss from here up "
        "(and every first-stage label)")] = stages.SCREEN,
    seat_view: Annotated[bool, typer.Option(
        "--seat-view", help="a replay: leave out the open-hand line (only what the seat knew)")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", min=1, help="a folder: matches analysed at once, one process each")] = 1,
    dask: Annotated[str | None, typer.Option(
        "--dask", help="a folder: the seats analysed by the workers of the Dask scheduler at "
        "tcp://HOST:PORT or tls://HOST:PORT (arena worker; docs/analysis.md)")] = None,
    tls: TlsOption = "",
    insecure: InsecureOption = False,
    out: Annotated[Path | None, typer.Option(
        "-o", "--out", help="write the whole report as JSON to this file")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help="a replay: list every decision, not only the labelled ones")] = False,
) -> None:
    """For every decision of one seat: the value of the action taken and of
    the best legal one from what the seat knew (deals drawn consistent with
    its view, each played out by a reference policy), with a standard error;
    inaccuracies, mistakes and blunders; accuracy per part of the deal.
    Exit 2 on input it cannot analyse."""
    from arena.analysis.errors import AnalysisError
    from arena.analysis.replay import Settings

    try:
        if dask is not None:
            _check_dask(path, dask, tls, insecure, jobs)
        elif tls or insecure:
            raise AnalysisError(f"{'--tls' if tls else '--insecure'}: an option of --dask")
        if path.is_dir():
            if bot is None:
                raise AnalysisError(f"{path}: a folder: name the bot to analyse with --bot NAME")
            report: dict[str, Any] = _folder(path, bot, matches, Settings(
                work=work, seed=seed, policy=policy, policy_work=policy_work, open_hand=False,
                confirm=confirm, confirm_work=confirm_work, screen=screen), jobs, dask, tls)
        else:
            report = _replay(path, seat, bot, Settings(
                work=work, seed=seed, policy=policy, policy_work=policy_work,
                open_hand=not seat_view, confirm=confirm, confirm_work=confirm_work,
                screen=screen), every)
        if out is not None:
            from arena.analysis.replay import dumps

            try:
                out.write_text(dumps(report), encoding="utf-8")
            except OSError as exc:
                raise AnalysisError(f"{out}: cannot write the report: {exc.strerror}") from None
    except AnalysisError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _replay(path: Path, seat: int | None, bot: str | None, settings: Any, every: bool) -> dict[str, Any]:
    from arena.analysis.errors import AnalysisError
    from arena.analysis.replay import analyse, text
    from arena.referee.replay import ReplayError, read_replay

    try:
        replay = read_replay(path)
    except ReplayError as exc:
        raise AnalysisError(str(exc)) from None
    if seat is None:
        seat = 0
        if bot is not None:
            seats = [b.get("seat") for b in replay.header["bots"] if b.get("name") == bot]
            if not seats:
                raise AnalysisError(f"{path}: no seat of this match is played by {bot!r}")
            seat = int(seats[0])
    report = analyse(replay, seat, settings, _progress("decision"))
    typer.echo(text(report, flagged_only=not every), nl=False)
    return report


def _check_dask(path: Path, address: str, tls: str, insecure: bool, jobs: int) -> None:
    """--dask's refusals, before anything is read or sent (one line each)."""
    from arena.analysis.errors import AnalysisError
    from arena.tournament import dask_address_problem, scheduler_problem

    if not path.is_dir():
        raise AnalysisError(f"--dask: for a tournament's or gauntlet's folder, not a replay ({path})")
    if jobs != 1:
        raise AnalysisError("--jobs: with --dask the cluster's workers analyse the seats")
    problem = (dask_address_problem(address) if address != "local" else
               "'local' is not a scheduler: without --dask the seats are analysed here (--jobs J)")
    if problem or (problem := scheduler_problem(address, tls, insecure)):
        raise AnalysisError(f"--dask {problem}")


def _folder(path: Path, bot: str, matches: int | None, settings: Any, jobs: int,
            dask: str | None = None, tls: str = "") -> dict[str, Any]:
    from arena.analysis.matches import analyse_all, combined, combined_text, plan

    p = plan(path, bot, settings, matches)
    cached = len(p.jobs) - len(p.todo())
    typer.echo(f"{len(p.jobs)} seats of {bot} to analyse, {cached} already done (cached in "
               f"{Path(p.jobs[0].out).parent})", err=True)
    done = cached
    if dask is not None:
        from arena.analysis.on_dask import analyse_on

        running = analyse_on(p, dask, tls)
    else:
        running = analyse_all(p, jobs)
    for job in running:
        done += 1
        typer.echo(f"[{done}/{len(p.jobs)}] {job.match_id} seat {job.seat}", err=True)
    c = combined(p)
    typer.echo(combined_text(c), nl=False)
    return c


def _progress(what: str) -> Any:
    """A progress line on a terminal (rewritten in place), nothing otherwise."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\r{what} {done}/{total}" + ("\n" if done == total else ""))
        sys.stderr.flush()

    return show


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze)
