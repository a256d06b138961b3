"""Duplicate tournaments and gauntlets: what the rest of the arena uses.

    from arena.tournament import load_config, run_tournament, Store, TournamentError

The face of the package: the command line and the web app import these
names from here, not from its modules. Names load on first use (PEP 562,
as arena.game does), so `arena tournament status` does not import the
ratings (numpy) or an executor it does not need.

Beside errors.py (TournamentError, the base of every refusal) and store.py
(the SQLite results, which every part reads or writes), the subpackages:

    plan/       what a tournament is: config, match settings, schedule and seeds,
                registry of bots, seed commitment (secrecy), fingerprint
    executors/  where matches are played: worker (the Executor protocol), local
                pool, Dask (dask_executor, cluster, honest), deal_gate, cpus
    stop/       when to stop: adaptive (a tournament's "settled"), sprt (a gauntlet's)
    rating/     ratings (TrueSkill over duplicate results), trueskill_math
    run/        a tournament run (coordinator), what runs share around their
                executor (playing), progress, one run per folder (runlock)
    gauntlet/   a gauntlet's sets and verdict (sets), how it is played (run)
    results/    the rating table (standings), publish, the results bundle
                (bundle, bundle_format), read-only match queries (browse)

A few modules are exported whole, for callers that use many of their names:
browse, bundle_format, publish, gauntlet_run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.tournament.errors import (
        TournamentError,
    )
    from arena.tournament.executors.cluster import (
        CertsError,
        make_certs,
        run_worker,
    )
    from arena.tournament.executors.cluster import (
        address_problem as scheduler_problem,
    )
    from arena.tournament.executors.cluster import (
        identity as worker_identity,
    )
    from arena.tournament.executors.cluster import (
        security as cluster_security,
    )
    from arena.tournament.executors.cpus import pin_process, server_split
    from arena.tournament.executors.local import (
        Executor,
        ExecutorError,
        LocalPool,
        Outcome,
        make_executor,
    )
    from arena.tournament.gauntlet import run as gauntlet_run
    from arena.tournament.gauntlet.sets import (
        GauntletError,
        Verdict,
    )
    from arena.tournament.gauntlet.sets import (
        Settings as GauntletSettings,
    )
    from arena.tournament.plan.config import (
        CONFIG_NAME,
        SANDBOXES,
        STOPS,
        TournamentConfig,
        TournamentConfigError,
        check_keys,
        dask_address_problem,
        example_config,
        load_config,
        parse_config,
        parse_match_settings,
        read_settings,
        seed_warning,
        toml_string,
    )
    from arena.tournament.plan.fingerprint import (
        FingerprintError,
    )
    from arena.tournament.plan.fingerprint import (
        verify as verify_fingerprint,
    )
    from arena.tournament.plan.match_settings import (
        MatchSettings,
    )
    from arena.tournament.plan.registry import (
        RegistryError,
        add_bot,
        copy_source,
        field_names,
        recorded_names,
    )
    from arena.tournament.plan.schedule import (
        SEAT_ORDERS,
        derive_seed,
        table_of,
    )
    from arena.tournament.plan.secrecy import (
        SeedDisclosure,
        commitment,
        mark_revealed,
        match_key,
    )
    from arena.tournament.rating.ratings import (
        MU as RATING_MU,
    )
    from arena.tournament.rating.ratings import (
        SIGMA as RATING_SIGMA,
    )
    from arena.tournament.rating.ratings import (
        RatedMatch,
        Rating,
        rate_block,
    )
    from arena.tournament.rating.ratings import (
        fit as fit_ratings,
    )
    from arena.tournament.results import browse, bundle_format, publish
    from arena.tournament.results.browse import (
        MatchFilter,
    )
    from arena.tournament.results.bundle import (
        foreign_entry as foreign_bundle_entry,
    )
    from arena.tournament.results.bundle import (
        write as write_bundle,
    )
    from arena.tournament.results.publish import (
        publish as publish_table,
    )
    from arena.tournament.results.publish import (
        to_json,
        to_markdown,
    )
    from arena.tournament.results.standings import (
        Table,
        compose,
    )
    from arena.tournament.results.standings import (
        build as build_table,
    )
    from arena.tournament.run.coordinator import (
        FieldError,
        check_field,
        deal_seeds,
        not_needed,
        plan_field,
    )
    from arena.tournament.run.coordinator import (
        run as run_tournament,
    )
    from arena.tournament.run.progress import (
        Progress,
    )
    from arena.tournament.run.runlock import (
        RunLocked,
        exclusive_run,
        is_running,
    )
    from arena.tournament.stop.sprt import (
        MIN_SETS,
        SprtError,
        SprtParams,
    )
    from arena.tournament.store import (
        BotRow,
        MatchRow,
        Store,
        StoreError,
        StoreMissing,
        result_from_json,
        result_to_json,
    )

__all__ = [
    "CONFIG_NAME",
    "MIN_SETS",
    "RATING_MU",
    "RATING_SIGMA",
    "SANDBOXES",
    "SEAT_ORDERS",
    "STOPS",
    "BotRow",
    "CertsError",
    "Executor",
    "ExecutorError",
    "FieldError",
    "FingerprintError",
    "GauntletError",
    "GauntletSettings",
    "LocalPool",
    "MatchFilter",
    "MatchRow",
    "MatchSettings",
    "Outcome",
    "Progress",
    "RatedMatch",
    "Rating",
    "RegistryError",
    "RunLocked",
    "SeedDisclosure",
    "SprtError",
    "SprtParams",
    "Store",
    "StoreError",
    "StoreMissing",
    "Table",
    "TournamentConfig",
    "TournamentConfigError",
    "TournamentError",
    "Verdict",
    "add_bot",
    "browse",
    "build_table",
    "bundle_format",
    "check_field",
    "check_keys",
    "cluster_security",
    "commitment",
    "compose",
    "copy_source",
    "dask_address_problem",
    "deal_seeds",
    "derive_seed",
    "example_config",
    "exclusive_run",
    "field_names",
    "fit_ratings",
    "foreign_bundle_entry",
    "gauntlet_run",
    "is_running",
    "load_config",
    "make_certs",
    "make_executor",
    "mark_revealed",
    "match_key",
    "not_needed",
    "parse_config",
    "parse_match_settings",
    "pin_process",
    "plan_field",
    "publish",
    "publish_table",
    "rate_block",
    "read_settings",
    "recorded_names",
    "result_from_json",
    "result_to_json",
    "run_tournament",
    "run_worker",
    "scheduler_problem",
    "seed_warning",
    "server_split",
    "table_of",
    "to_json",
    "to_markdown",
    "toml_string",
    "verify_fingerprint",
    "worker_identity",
    "write_bundle",
]

# name -> (module, its name there)
_HOME: dict[str, tuple[str, str]] = {
    "BotRow": ("store", "BotRow"),
    "CONFIG_NAME": ("plan.config", "CONFIG_NAME"),
    "Executor": ("executors.local", "Executor"),
    "ExecutorError": ("executors.local", "ExecutorError"),
    "FieldError": ("run.coordinator", "FieldError"),
    "FingerprintError": ("plan.fingerprint", "FingerprintError"),
    "GauntletError": ("gauntlet.sets", "GauntletError"),
    "GauntletSettings": ("gauntlet.sets", "Settings"),
    "LocalPool": ("executors.local", "LocalPool"),
    "MIN_SETS": ("stop.sprt", "MIN_SETS"),
    "MatchFilter": ("results.browse", "MatchFilter"),
    "MatchRow": ("store", "MatchRow"),
    "MatchSettings": ("plan.match_settings", "MatchSettings"),
    "Outcome": ("executors.local", "Outcome"),
    "Progress": ("run.progress", "Progress"),
    "RATING_MU": ("rating.ratings", "MU"),
    "RATING_SIGMA": ("rating.ratings", "SIGMA"),
    "RatedMatch": ("rating.ratings", "RatedMatch"),
    "Rating": ("rating.ratings", "Rating"),
    "RegistryError": ("plan.registry", "RegistryError"),
    "RunLocked": ("run.runlock", "RunLocked"),
    "SANDBOXES": ("plan.config", "SANDBOXES"),
    "SEAT_ORDERS": ("plan.schedule", "SEAT_ORDERS"),
    "STOPS": ("plan.config", "STOPS"),
    "SeedDisclosure": ("plan.secrecy", "SeedDisclosure"),
    "SprtError": ("stop.sprt", "SprtError"),
    "SprtParams": ("stop.sprt", "SprtParams"),
    "Store": ("store", "Store"),
    "StoreError": ("store", "StoreError"),
    "StoreMissing": ("store", "StoreMissing"),
    "Table": ("results.standings", "Table"),
    "TournamentConfig": ("plan.config", "TournamentConfig"),
    "TournamentConfigError": ("plan.config", "TournamentConfigError"),
    "TournamentError": ("errors", "TournamentError"),
    "Verdict": ("gauntlet.sets", "Verdict"),
    "add_bot": ("plan.registry", "add_bot"),
    "build_table": ("results.standings", "build"),
    "check_field": ("run.coordinator", "check_field"),
    "check_keys": ("plan.config", "check_keys"),
    "commitment": ("plan.secrecy", "commitment"),
    "compose": ("results.standings", "compose"),
    "copy_source": ("plan.registry", "copy_source"),
    "dask_address_problem": ("plan.config", "dask_address_problem"),
    "scheduler_problem": ("executors.cluster", "address_problem"),
    "cluster_security": ("executors.cluster", "security"),
    "worker_identity": ("executors.cluster", "identity"),
    "CertsError": ("executors.cluster", "CertsError"),
    "make_certs": ("executors.cluster", "make_certs"),
    "deal_seeds": ("run.coordinator", "deal_seeds"),
    "derive_seed": ("plan.schedule", "derive_seed"),
    "example_config": ("plan.config", "example_config"),
    "exclusive_run": ("run.runlock", "exclusive_run"),
    "field_names": ("plan.registry", "field_names"),
    "fit_ratings": ("rating.ratings", "fit"),
    "foreign_bundle_entry": ("results.bundle", "foreign_entry"),
    "is_running": ("run.runlock", "is_running"),
    "load_config": ("plan.config", "load_config"),
    "make_executor": ("executors.local", "make_executor"),
    "run_worker": ("executors.cluster", "run_worker"),
    "pin_process": ("executors.cpus", "pin_process"),
    "server_split": ("executors.cpus", "server_split"),
    "mark_revealed": ("plan.secrecy", "mark_revealed"),
    "match_key": ("plan.secrecy", "match_key"),
    "parse_match_settings": ("plan.config", "parse_match_settings"),
    "not_needed": ("run.coordinator", "not_needed"),
    "parse_config": ("plan.config", "parse_config"),
    "plan_field": ("run.coordinator", "plan_field"),
    "publish_table": ("results.publish", "publish"),
    "rate_block": ("rating.ratings", "rate_block"),
    "read_settings": ("plan.config", "read_settings"),
    "recorded_names": ("plan.registry", "recorded_names"),
    "result_from_json": ("store", "result_from_json"),
    "result_to_json": ("store", "result_to_json"),
    "run_tournament": ("run.coordinator", "run"),
    "seed_warning": ("plan.config", "seed_warning"),
    "table_of": ("plan.schedule", "table_of"),
    "to_json": ("results.publish", "to_json"),
    "to_markdown": ("results.publish", "to_markdown"),
    "toml_string": ("plan.config", "toml_string"),
    "verify_fingerprint": ("plan.fingerprint", "verify"),
    "write_bundle": ("results.bundle", "write"),
}


# name -> a module exported whole
_MODULES: dict[str, str] = {
    "browse": "results.browse",
    "bundle_format": "results.bundle_format",
    "gauntlet_run": "gauntlet.run",
    "publish": "results.publish",
}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        value: Any = importlib.import_module(f"arena.tournament.{_MODULES[name]}")
    elif name in _HOME:
        home = _HOME[name]
        value = getattr(importlib.import_module(f"arena.tournament.{home[0]}"), home[1])
    else:
        raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
