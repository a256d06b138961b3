"""`arena tournament new|run|status`: create and run tournaments."""

from __future__ import annotations

import dataclasses
import re
import secrets
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.cluster_options import InsecureOption, TlsOption
from arena.cli.stopping import RunStop

if TYPE_CHECKING:  # imported lazily at run time: the CLI starts often
    from arena.tournament import BotRow, Store, TournamentConfig

tournament_app = typer.Typer(help="Tournaments: create, run, resume.", no_args_is_help=True)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@tournament_app.command("new")
def new(
    folder: Annotated[
        Path, typer.Argument(help="folder to create (must not hold a tournament.toml)")],
    bot: Annotated[
        list[str] | None, typer.Option("--bot", help="bot folder to list (repeatable)")] = None,
) -> None:
    """Write a commented example tournament.toml into FOLDER, copying each
    --bot folder into FOLDER/sources/ (the tournament folder is then
    self-contained: it can be moved or copied and runs the same)."""
    from arena.manifest import BotSpec
    from arena.sandbox.botfile import (
        BotFileError,
        inside_bot_problem,
        load_bot,
        missing_program,
    )
    from arena.tournament import CONFIG_NAME, RegistryError, copy_source, example_config

    if folder.exists() and not folder.is_dir():
        raise _fail(f"{folder}: exists and is not a folder")
    # A tournament written into a bot's folder (`tournament new mybot`) would
    # be part of the bot: its content, so its hash and version, would change.
    problem = inside_bot_problem("", folder)
    if problem:
        raise _fail(problem)
    target = folder / CONFIG_NAME
    if target.exists():
        raise _fail(f"{target}: already exists; not overwritten")
    # Check the bots before writing anything: a config naming a folder that
    # is not a bot would be refused by every later command.
    names: dict[str, str] = {}
    specs: list[BotSpec] = []
    for path in bot or ():
        try:
            spec = load_bot(path, hashed=False)
        except BotFileError as exc:
            raise _fail(f"--bot {path}: {exc}") from None
        if spec.name in names:
            raise _fail(f"--bot {path}: bot name {spec.name!r} is also used by --bot "
                        f"{names[spec.name]}")
        missing = missing_program(spec)
        if missing:  # the copy would never start: every match a crash
            raise _fail(f"--bot {path}: {Path(spec.path) / 'bot.toml'}: key 'run': {missing}")
        names[spec.name] = path
        specs.append(spec)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", folder.resolve().name).strip("-")[:64] or "tournament"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        entries = [copy_source(spec, folder) for spec in specs]
        # 63 random bits: a seed no bot can find by trying seeds against its hand.
        target.write_text(example_config(name, entries, secrets.randbelow(2**63)), encoding="utf-8")
    except RegistryError as exc:
        raise _fail(str(exc)) from None
    except (OSError, UnicodeError) as exc:
        raise _fail(f"{target}: cannot write: {getattr(exc, 'strerror', None) or exc}") from None
    copied = f" (copied into {folder / 'sources'})" if any(
        e.startswith("sources/") for e in entries) else ""
    typer.echo(f"wrote {target}{copied}; add bots to it (or `arena bot add {folder} BOT`), then "
               f"`arena tournament run {folder}`")


@tournament_app.command("run")
def run(
    folder: Annotated[Path, typer.Argument(help="tournament folder (with tournament.toml)")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress output")] = False,
    concurrency: Annotated[int | None, typer.Option(
        "--concurrency", "-j", min=0, max=1024,
        help="matches at once, 0 = one per CPU core, as in tournament.toml (default: the config's)")] = None,
    dask: Annotated[str | None, typer.Option(
        "--dask", help="play on Dask: 'local' (LocalCluster), tcp://host:port or "
        "tls://host:port")] = None,
    tls: TlsOption = "",
    insecure: InsecureOption = False,
    match_timeout: Annotated[float, typer.Option(
        "--match-timeout", min=1.0, help="with --dask: seconds a match may take from its "
        "hand-out before its worker is refused as hung and it is played elsewhere")] = 1800.0,
    cpu_slots: Annotated[bool | None, typer.Option(
        "--cpu-slots/--no-cpu-slots",
        help="run each concurrent match on CPUs of its own (default: config, on)")] = None,
    stop: Annotated[str | None, typer.Option(
        "--stop", help="fixed: every set; settled: stop once neighbours are separated "
        "(default: the config's)")] = None,
) -> None:
    """Play every match not yet played (resumes an interrupted run); with
    the adaptive stop, only the sets that still tell something."""
    from arena.sandbox.botfile import BotFileError, load_bot
    from arena.sandbox.levels import fallback_note
    from arena.tournament import (
        STOPS,
        Progress,
        Store,
        TournamentConfigError,
        TournamentError,
        check_field,
        dask_address_problem,
        exclusive_run,
        load_config,
        make_executor,
        run_tournament,
        scheduler_problem,
        seed_warning,
    )

    try:
        config = load_config(folder)
    except TournamentConfigError as exc:
        raise _fail(str(exc)) from None
    if dask is not None and dask_address_problem(dask):
        raise _fail(f"--dask {dask!r}: expected 'local', tcp://host:port or tls://host:port")
    if stop is not None:
        if stop not in STOPS:
            raise _fail(f"--stop {stop!r}: expected {' or '.join(STOPS)}")
        config = dataclasses.replace(config, stop=stop)

    try:
        # For their bot.toml only (the images they name): validated by load_config.
        bots = [load_bot(path, hashed=False) for path in config.bot_paths]
    except BotFileError as exc:
        raise _fail(str(exc)) from None
    kind = "dask" if dask is not None else config.executor
    address = dask if dask is not None else config.dask_address
    if kind == "dask" and (problem := scheduler_problem(address, tls, insecure)):
        raise _fail(problem)  # before anything is stored
    workers = concurrency if concurrency is not None else config.concurrency
    pin = cpu_slots if cpu_slots is not None else config.cpu_slots
    progress: Progress | None = None
    # Ctrl-C and SIGTERM: the workers stop their matches' bots and exit;
    # finished matches are stored (arena/cli/stopping.py).
    signals = RunStop(lambda: make_executor(kind, workers, address, quiet=quiet, pin_cpus=pin,
                                            sandbox=config.match.sandbox, tls=tls,
                                            insecure=insecure, match_timeout=match_timeout))

    warnings = [seed_warning(config)] + [fallback_note(bot, config.match.sandbox) for bot in bots]

    def warn() -> None:
        # Once the run has started, not before: a refused run prints its one
        # error line only. But before the matches: the seed can still change.
        for line in warnings:
            if line:
                typer.echo(f"warning: {line}", err=True)
        warnings.clear()

    def on_progress(done: int, total: int, leader: str) -> None:
        nonlocal progress
        # A stop whose exception a finalizer swallowed: the workers are
        # stopping all the same, so stop here, at the next match that comes back.
        signals.check()
        if progress is None:
            warn()
            progress = Progress(total, done, None if quiet else sys.stderr)
        progress.update(done, leader)

    try:
        if not config.store_path.exists():
            check_field(config, None)  # before the store exists: a bad field stores nothing
        # One run per folder, held before the store is opened (arena/tournament/run/runlock.py).
        with signals, exclusive_run(config.root), Store(config.store_path) as store:
            summary = run_tournament(config, store, signals.executor, on_progress)
            signals.check()  # lost in a finalizer (see on_progress), after the last match
    except TournamentError as exc:  # every refusal of the package (errors.py)
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        raise signals.stopped_exit() from None
    finally:
        if progress is not None:
            progress.close()
    warn()  # if the run had nothing to play
    for line in summary.errors[:10]:
        typer.echo(f"match failed (will be retried on the next run): {line}", err=True)
    if not quiet:
        typer.echo(f"{config.name}: {summary.finished}/{summary.planned} matches finished "
                   f"({summary.played} played now, {summary.failed} failed)")
        if summary.stopped:
            typer.echo(f"{config.name}: {summary.stopped}")
    signals.finish()  # a signal while the summary was printed: its line, after it
    if summary.failed:
        raise typer.Exit(1)


@tournament_app.command("status")
def status(folder: Annotated[Path, typer.Argument(help="tournament folder")]) -> None:
    """Show how many matches are planned, running, finished, failed (or
    interrupted: left running by a run that was stopped)."""
    from arena.tournament import (
        Store,
        TournamentConfigError,
        TournamentError,
        field_names,
        is_running,
        load_config,
        not_needed,
        plan_field,
    )
    from arena.tournament import verify_fingerprint as verify

    try:
        # Reads stored results only: the bots' source folders are not needed.
        config = load_config(folder, check_bots=False)
    except TournamentConfigError as exc:
        raise _fail(str(exc)) from None
    if not config.store_path.exists():
        typer.echo(f"{config.name}: not started")
        _show_listed(config, None)  # a listed folder that is not a bot: refused here
        _warn_unplayable(folder, config, None)
        return
    # Probed before the counts are read, so that a run playing all along is
    # always seen. A run that ends or starts in between can make this one
    # report call a match running or interrupted wrongly; the next is right.
    run_alive = is_running(config.root)
    try:
        with Store(config.store_path) as store:
            verify(config, store)
            # The field as stored (the newest registered version of each bot
            # that plays) and its plan, as the leaderboard counts them; a bot
            # changed since the last run is a new version once `run` registers it.
            latest = store.latest_versions()
            current = [latest[n] for n in field_names(config, store) if n in latest]
            planned = plan_field(config, current) if len(current) >= 3 else []
            plan = [m.match_id for m in planned]
            rows = {r.match_id: r for r in store.matches(set(plan))}
            stored = {match_id: r.status for match_id, r in rows.items()}
            # The adaptive stop's skipped tables and sets: not "planned", for no
            # run will play them (recomputed as the runs choose, from the results).
            for match_id in not_needed(config, current, planned, rows):
                stored[match_id] = "not needed"
            total_stored = sum(store.counts().values())
            bots = store.bots()
            _warn_unplayable(folder, config, store)
    except TournamentError as exc:
        raise _fail(str(exc)) from None
    counts = Counter(stored.get(match_id, "planned") for match_id in plan)
    if counts.get("running") and not run_alive:
        # Left by a run that was stopped or killed: the next run plays them again.
        counts["interrupted"] = counts.pop("running")
    if plan:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        typer.echo(f"{config.name}: {shown} (of {len(plan)} for the current bots)")
    else:  # bots added, nothing run yet: `run` registers the listed ones and plans
        typer.echo(f"{config.name}: no matches planned yet (`arena tournament run` plans them)")
    def show(b: BotRow) -> None:
        typer.echo(f"  {b.name} {b.version} [{b.content_hash[:12]}] ({b.source})")

    playing = {b.id for b in current}
    for b in sorted(current, key=lambda b: b.name):
        show(b)
    with Store(config.store_path) as store:
        _show_listed(config, store, skip=frozenset(b.name for b in current))
    earlier = [b for b in bots if b.id not in playing]
    if earlier:
        typer.echo(f"earlier versions ({total_stored - len(stored)} stored matches, "
                   "ranked apart on the leaderboard):")
        for b in earlier:
            show(b)


def _warn_unplayable(folder: Path, config: TournamentConfig, store: Store | None) -> None:
    """Status reads stored results without the bots' folders, but its user
    asks whether the tournament can go on: what would make the next `run`
    refuse to start (a listed bot folder gone, broken or not built; fewer than
    3 bots) is said here too, as a warning, in the words `run` would use."""
    from arena.tournament import TournamentConfigError, TournamentError, check_field, load_config

    problems: list[str] = []
    try:
        load_config(folder)  # with the bots' folders checked, as `run` loads it
    except TournamentConfigError as exc:
        problems.append(str(exc))
    try:
        check_field(config, store)
    except TournamentError as exc:
        problems.append(f"{exc}; list another or submit one with `arena bot add`")
    for problem in problems:
        typer.echo(f"warning: {problem} (`arena tournament run` refuses to start until "
                   "this is fixed)", err=True)


def _show_listed(config: TournamentConfig, store: Store | None,
                 skip: frozenset[str] = frozenset()) -> None:
    """The bots the next run plays that no run has registered yet: those
    tournament.toml lists (read from their folders) and, before the store
    exists, nothing else (`bot add` creates it)."""
    from arena.sandbox.botfile import BotFileError, load_bot
    from arena.tournament import CONFIG_NAME, recorded_names

    recorded = recorded_names(config, store)
    for i, path in enumerate(config.bot_paths):
        if path in recorded and recorded[path] in skip:
            continue
        try:
            spec = load_bot(path)
        except BotFileError as exc:
            raise _fail(f"{Path(config.root) / CONFIG_NAME}: key 'bots[{i}]': {exc}") from None
        if spec.name not in skip:
            typer.echo(f"  {spec.name} {spec.version} [{spec.content_hash[:12]}] "
                       "(listed; registered by the first run)")


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
