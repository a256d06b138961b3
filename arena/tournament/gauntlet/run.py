"""Play a gauntlet: register its bots, play set after set, store, stop.

The gauntlet's folder holds its store (`gauntlet.sqlite`, the tournament
store's schema), the bots' snapshots (they play from copies, as in a
tournament) and the replays. Running the same gauntlet again resumes it:
finished matches are kept, the test is recomputed from them, and play goes
on from the first set not complete; a gauntlet already decided plays
nothing. Everything the CLI passes is checked before the store is created
or changed.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.manifest import BotSpec
from arena.referee.spec import MatchResult, MatchSpec
from arena.sandbox.botfile import (
    BotFileError,
    inside_bot_problem,
    load_bot,
    missing_program,
)
from arena.tournament.executors.local import Executor
from arena.tournament.gauntlet.sets import (
    GauntletError,
    PlannedMatch,
    Settings,
    Verdict,
)
from arena.tournament.plan import registry
from arena.tournament.plan.config import CONFIG_NAME
from arena.tournament.plan.match_settings import REPLAYS_DIR, MatchSettings
from arena.tournament.plan.secrecy import match_key
from arena.tournament.run import loop
from arena.tournament.run.playing import Playing, clear_part_files
from arena.tournament.stop.sprt_rule import Sprt
from arena.tournament.store import BotRow, Store

STORE_NAME = "gauntlet.sqlite"
SETTINGS_KEY = "gauntlet"
VERDICT_KEY = "gauntlet_verdict"


@dataclass(frozen=True)
class Request:
    """A gauntlet as the command line asks for it."""

    root: Path
    bot: Path
    against: tuple[Path, ...] = ()
    baseline: str = ""             # a bot folder, or a version of BOT in a store
    baseline_from: Path | None = None  # a tournament (or gauntlet) folder to find it in
    seed: int | None = None        # None: the stored one, or a new random one
    # The rules, clocks, faults, limits, sandbox and replays of every match
    # (the same value a tournament.toml makes).
    match: MatchSettings = field(default_factory=MatchSettings)
    stop: str = "sprt"
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    max_sets: int = 100

    @property
    def store_path(self) -> Path:
        return self.root / STORE_NAME


@dataclass(frozen=True)
class Prepared:
    settings: Settings
    specs: tuple[BotSpec, ...]     # by field index, from the snapshots
    bot_ids: tuple[int, ...]       # by field index, the store's bots.id
    request: Request


def _bot(path: Path, what: str) -> BotSpec:
    try:
        spec = load_bot(path)
    except BotFileError as exc:
        raise GauntletError(f"{what} {path}: {exc}") from None
    missing = missing_program(spec)
    if missing:
        raise GauntletError(f"{what} {path}: {missing}")
    return spec


def _stored_version(folder: Path, store_name: str, name: str, version: str) -> BotSpec:
    """Version `version` of bot `name` from the store in `folder` (its snapshot)."""
    path = folder / store_name
    if not path.is_file():
        raise GauntletError(f"--baseline {version}: {path} does not exist")
    with Store(path) as store:
        rows: list[BotRow] = [b for b in store.bots() if b.name == name]
    chosen = [b for b in rows if version in (b.version, b.content_hash[:len(version)])]
    if len(chosen) != 1:
        known = ", ".join(sorted({f"{b.version} [{b.content_hash[:8]}]" for b in rows})) or "none"
        problem = "is ambiguous" if chosen else "is not stored"
        raise GauntletError(f"--baseline {version}: version {problem} for bot {name!r} in "
                            f"{path} (stored versions: {known})")
    try:
        return registry.bot_spec(chosen[0], folder)
    except registry.RegistryError as exc:
        raise GauntletError(f"--baseline {version}: {exc}") from None


def resolve_baseline(request: Request, candidate: BotSpec) -> BotSpec | None:
    """The baseline bot: a folder, else a version of the candidate stored in
    --baseline-from's store or in the gauntlet's own."""
    if not request.baseline:
        if request.baseline_from is not None:  # dropped without a word, the user's baseline with it
            raise GauntletError(f"--baseline-from {request.baseline_from}: only with --baseline "
                                "OLD_VERSION (the version to read from there)")
        return None
    folder = Path(request.baseline)
    if (folder / "bot.toml").is_file():
        spec = _bot(folder, "--baseline")
    else:
        where = request.baseline_from or request.root
        store_name = "tournament.sqlite" if (where / "tournament.toml").is_file() else STORE_NAME
        spec = _stored_version(where, store_name, candidate.name, request.baseline)
    if spec.name != candidate.name:
        raise GauntletError(f"--baseline {request.baseline}: bot {spec.name!r} is not a "
                            f"version of {candidate.name!r} (use --against for other bots)")
    if spec.content_hash == candidate.content_hash:
        raise GauntletError(f"--baseline {request.baseline}: the same content as {request.bot}")
    return spec


def check_rules(preset: str, options: tuple[tuple[str, object], ...]) -> None:
    from arena.game import Rules

    try:
        rules = Rules.preset(preset).replace(**dict(options))
    except (ValueError, TypeError, KeyError) as exc:
        raise GauntletError(f"--rules/--option: {exc}") from None
    if rules.players != 3:
        raise GauntletError("--option players: a gauntlet seats three players")


def prepare(request: Request) -> tuple[list[BotSpec], bool]:
    """The field's bots (from their source folders) and whether a baseline
    is among them; every check that needs no store. Raises GauntletError."""
    if request.stop not in ("sprt", "fixed"):
        raise GauntletError(f"--stop {request.stop!r}: expected sprt or fixed")
    if not 1 <= request.max_sets <= 100_000:
        raise GauntletError(f"--max-sets {request.max_sets}: expected 1..100000")
    check_rules(request.match.rules_preset, request.match.rules_options)
    candidate = _bot(request.bot, "BOT")
    baseline = resolve_baseline(request, candidate)
    against = [_bot(p, "--against") for p in request.against]
    if baseline is None and not against:
        raise GauntletError("nothing to play against: give --against BOT (one or more) "
                            "or --baseline OLD_VERSION")
    # Two seats of one content are one bot in the store: a bot "against
    # itself" scored 1.000 (every seat its own) and would be found STRONGER.
    seen = {candidate.content_hash: "BOT", **({baseline.content_hash: "--baseline"} if baseline else {})}
    for path, spec in zip(request.against, against, strict=True):
        if spec.content_hash in seen:
            raise GauntletError(f"--against {path}: the same content as {seen[spec.content_hash]} "
                                "(each bot of a gauntlet plays once)")
        seen[spec.content_hash] = f"--against {path}"
    if request.root.exists() and not request.root.is_dir():
        raise GauntletError(f"--dir {request.root}: not a folder")
    bots = [candidate, *([baseline] if baseline else []), *against]
    for spec in bots:
        # `cd mybot && arena gauntlet . --against ...`: the default folder
        # gauntlet-NAME lands inside the bot, whose copy would contain itself.
        if request.root.resolve().is_relative_to(Path(spec.path).resolve()):
            raise GauntletError(f"--dir {request.root}: inside the bot folder {spec.path} "
                                f"({spec.name}), whose copy would contain it; give --dir a "
                                "folder outside it (or run the command from elsewhere)")
    problem = inside_bot_problem("--dir", request.root)  # any bot's, not only the field's
    if problem:
        raise GauntletError(problem)
    for name in (CONFIG_NAME, "tournament.sqlite"):
        # A gauntlet there would put its store, snapshots and replays among
        # the tournament's and hold its run lock while it plays (the run was
        # refused as "another run"); `tournament run` refuses a gauntlet's
        # folder the same way (config.load_config).
        if (request.root / name).exists():
            raise GauntletError(f"--dir {request.root}: a tournament's folder (it holds {name}); "
                                "give the gauntlet a folder of its own")
    return bots, baseline is not None


def open_store(request: Request, bots: list[BotSpec], baseline: bool) -> tuple[Store, Prepared]:
    """Create or open the gauntlet's store, register the bots, check that a
    resumed gauntlet is the same one. The caller closes the store."""
    request.root.mkdir(parents=True, exist_ok=True)
    store = Store(request.store_path)
    try:
        stored = store.get_json(SETTINGS_KEY)
        seed = request.seed
        if seed is None:
            seed = int(stored["seed"]) if stored else secrets.randbelow(2**63)
        m = request.match
        settings = Settings(
            field=tuple(f"{b.name}@{b.content_hash}" for b in bots),
            names=tuple(b.name for b in bots), baseline=baseline, seed=seed,
            rules_preset=m.rules_preset, rules_options=tuple(m.rules_options),
            time_control=dataclasses.asdict(m.time_control),
            fault_policy=dataclasses.asdict(m.fault_policy), limits=dataclasses.asdict(m.limits), stop=request.stop, elo0=request.elo0,
            elo1=request.elo1, alpha=request.alpha, beta=request.beta)
        if stored and stored != settings.to_json():
            if store.has_results():
                changed = "; ".join(settings.differences(stored))
                raise GauntletError(
                    f"{request.store_path}: holds another gauntlet ({changed}); use another "
                    "--dir, or the same bots and options to resume it")
            store.drop_unfinished()
        rows = [registry.register(store, b, request.root, "gauntlet")[0] for b in bots]
        store.set_json(SETTINGS_KEY, settings.to_json())
        specs = tuple(registry.bot_spec(r, request.root) for r in rows)
        return store, Prepared(settings, specs, tuple(r.id for r in rows), request)
    except BaseException:
        store.close()
        raise


def _spec(p: Prepared, match_id: str, seed: int, seated: tuple[int, int, int]) -> MatchSpec:
    return p.request.match.match_spec(
        p.request.root, match_id, tuple(p.specs[i] for i in seated), seed,
        match_key(p.settings.seed, match_id))  # the bots' ARENA_SEED: one-way of the seed


def finished_places(store: Store) -> dict[str, tuple[int, ...]]:
    out = {}
    for row in store.matches():
        if row.status == "finished" and row.result is not None:
            out[row.match_id] = tuple(
                s.place for s in sorted(row.result.seats, key=lambda s: s.seat))
    return out


@dataclass
class RunReport:
    verdict: Verdict
    played: int = 0
    errors: list[str] = field(default_factory=list)


def run(p: Prepared, store: Store, executor_factory: Callable[[], Executor],
        on_update: Callable[[Verdict], None] | None = None) -> RunReport:
    """Play sets until the test decides (stop "sprt") or max_sets are in
    (arena/tournament/stop/sprt_rule.py)."""
    store.reset_running()
    rule = Sprt(p.settings, p.request.max_sets, p.bot_ids, store, finished_places(store))
    report = RunReport(rule.verdict)
    if on_update:
        on_update(report.verdict)
    if not report.verdict.finished:
        if p.request.match.replays:
            clear_part_files(p.request.root / REPLAYS_DIR)

        def on_result(m: PlannedMatch, result: MatchResult | None) -> None:
            if result is not None and on_update:
                on_update(rule.verdict)

        with Playing(executor_factory) as playing:
            ended = loop.play(playing, rule, store,
                              lambda m: _spec(p, m.match_id, m.seed, m.bots), on_result)
        report.played, report.errors = ended.played, ended.errors
    report.verdict = rule.judge()
    store.set_json(VERDICT_KEY, report.verdict.to_json(p.settings, p.request.max_sets))
    return report
