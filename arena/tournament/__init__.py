"""Duplicate tournaments and gauntlets: what the rest of the arena uses.

    from arena.tournament import load_config, run_tournament, Store, TournamentError

The face of the package: the command line and the web app import these
names from here, not from its modules. Names load on first use (PEP 562,
as arena.game does), so `arena tournament status` does not import the
ratings (numpy) or an executor it does not need.

The modules: config.py (tournament.toml), schedule.py (duplicate sets and
their seeds), registry.py (the bots and their versions), coordinator.py
(a run: plan, play, record), playing.py (what a run and a gauntlet
run share around their executor: Ctrl-C, closing), executors.py / worker.py / dask_executor.py /
deal_gate.py (where matches are played), store.py (the SQLite results),
ratings.py / trueskill_math.py / standings.py (the rating table), publish.py
and bundle.py (the published table and its results bundle),
secrecy.py (the seed commitment), gauntlet.py / gauntlet_run.py / sprt.py /
adaptive.py (gauntlets and stopping rules), errors.py (TournamentError,
the base of every refusal).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.tournament.browse import (
        MatchFilter,
    )
    from arena.tournament.bundle import (
        foreign_entry as foreign_bundle_entry,
    )
    from arena.tournament.bundle import (
        write as write_bundle,
    )
    from arena.tournament.cluster import (
        CertsError,
        make_certs,
        run_worker,
    )
    from arena.tournament.cluster import (
        address_problem as scheduler_problem,
    )
    from arena.tournament.config import (
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
    from arena.tournament.coordinator import (
        FieldError,
        check_field,
        deal_seeds,
        not_needed,
        plan_field,
    )
    from arena.tournament.coordinator import (
        run as run_tournament,
    )
    from arena.tournament.cpus import pin_process, server_split
    from arena.tournament.errors import (
        TournamentError,
    )
    from arena.tournament.executors import (
        Executor,
        ExecutorError,
        LocalPool,
        Outcome,
        make_executor,
    )
    from arena.tournament.fingerprint import (
        FingerprintError,
    )
    from arena.tournament.fingerprint import (
        verify as verify_fingerprint,
    )
    from arena.tournament.gauntlet import (
        GauntletError,
        Verdict,
    )
    from arena.tournament.gauntlet import (
        Settings as GauntletSettings,
    )
    from arena.tournament.match_settings import (
        MatchSettings,
    )
    from arena.tournament.progress import (
        Progress,
    )
    from arena.tournament.publish import (
        publish as publish_table,
    )
    from arena.tournament.publish import (
        to_json,
        to_markdown,
    )
    from arena.tournament.ratings import (
        MU as RATING_MU,
    )
    from arena.tournament.ratings import (
        SIGMA as RATING_SIGMA,
    )
    from arena.tournament.ratings import (
        RatedMatch,
        Rating,
        rate_block,
    )
    from arena.tournament.ratings import (
        fit as fit_ratings,
    )
    from arena.tournament.registry import (
        RegistryError,
        add_bot,
        copy_source,
        field_names,
        recorded_names,
    )
    from arena.tournament.runlock import (
        RunLocked,
        exclusive_run,
        is_running,
    )
    from arena.tournament.schedule import (
        SEAT_ORDERS,
        derive_seed,
        table_of,
    )
    from arena.tournament.secrecy import (
        SeedDisclosure,
        commitment,
        mark_revealed,
        match_key,
    )
    from arena.tournament.sprt import (
        MIN_SETS,
        SprtError,
        SprtParams,
    )
    from arena.tournament.standings import (
        Table,
        compose,
    )
    from arena.tournament.standings import (
        build as build_table,
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
    "build_table",
    "check_field",
    "check_keys",
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
    "write_bundle",
]

# name -> (module, its name there)
_HOME: dict[str, tuple[str, str]] = {
    "BotRow": ("store", "BotRow"),
    "CONFIG_NAME": ("config", "CONFIG_NAME"),
    "Executor": ("executors", "Executor"),
    "ExecutorError": ("executors", "ExecutorError"),
    "FieldError": ("coordinator", "FieldError"),
    "FingerprintError": ("fingerprint", "FingerprintError"),
    "GauntletError": ("gauntlet", "GauntletError"),
    "GauntletSettings": ("gauntlet", "Settings"),
    "LocalPool": ("executors", "LocalPool"),
    "MIN_SETS": ("sprt", "MIN_SETS"),
    "MatchFilter": ("browse", "MatchFilter"),
    "MatchRow": ("store", "MatchRow"),
    "MatchSettings": ("match_settings", "MatchSettings"),
    "Outcome": ("executors", "Outcome"),
    "Progress": ("progress", "Progress"),
    "RATING_MU": ("ratings", "MU"),
    "RATING_SIGMA": ("ratings", "SIGMA"),
    "RatedMatch": ("ratings", "RatedMatch"),
    "Rating": ("ratings", "Rating"),
    "RegistryError": ("registry", "RegistryError"),
    "RunLocked": ("runlock", "RunLocked"),
    "SANDBOXES": ("config", "SANDBOXES"),
    "SEAT_ORDERS": ("schedule", "SEAT_ORDERS"),
    "STOPS": ("config", "STOPS"),
    "SeedDisclosure": ("secrecy", "SeedDisclosure"),
    "SprtError": ("sprt", "SprtError"),
    "SprtParams": ("sprt", "SprtParams"),
    "Store": ("store", "Store"),
    "StoreError": ("store", "StoreError"),
    "StoreMissing": ("store", "StoreMissing"),
    "Table": ("standings", "Table"),
    "TournamentConfig": ("config", "TournamentConfig"),
    "TournamentConfigError": ("config", "TournamentConfigError"),
    "TournamentError": ("errors", "TournamentError"),
    "Verdict": ("gauntlet", "Verdict"),
    "add_bot": ("registry", "add_bot"),
    "build_table": ("standings", "build"),
    "check_field": ("coordinator", "check_field"),
    "check_keys": ("config", "check_keys"),
    "commitment": ("secrecy", "commitment"),
    "compose": ("standings", "compose"),
    "copy_source": ("registry", "copy_source"),
    "dask_address_problem": ("config", "dask_address_problem"),
    "scheduler_problem": ("cluster", "address_problem"),
    "CertsError": ("cluster", "CertsError"),
    "make_certs": ("cluster", "make_certs"),
    "deal_seeds": ("coordinator", "deal_seeds"),
    "derive_seed": ("schedule", "derive_seed"),
    "example_config": ("config", "example_config"),
    "exclusive_run": ("runlock", "exclusive_run"),
    "field_names": ("registry", "field_names"),
    "fit_ratings": ("ratings", "fit"),
    "foreign_bundle_entry": ("bundle", "foreign_entry"),
    "is_running": ("runlock", "is_running"),
    "load_config": ("config", "load_config"),
    "make_executor": ("executors", "make_executor"),
    "run_worker": ("cluster", "run_worker"),
    "pin_process": ("cpus", "pin_process"),
    "server_split": ("cpus", "server_split"),
    "mark_revealed": ("secrecy", "mark_revealed"),
    "match_key": ("secrecy", "match_key"),
    "parse_match_settings": ("config", "parse_match_settings"),
    "not_needed": ("coordinator", "not_needed"),
    "parse_config": ("config", "parse_config"),
    "plan_field": ("coordinator", "plan_field"),
    "publish_table": ("publish", "publish"),
    "rate_block": ("ratings", "rate_block"),
    "read_settings": ("config", "read_settings"),
    "recorded_names": ("registry", "recorded_names"),
    "result_from_json": ("store", "result_from_json"),
    "result_to_json": ("store", "result_to_json"),
    "run_tournament": ("coordinator", "run"),
    "seed_warning": ("config", "seed_warning"),
    "table_of": ("schedule", "table_of"),
    "to_json": ("publish", "to_json"),
    "to_markdown": ("publish", "to_markdown"),
    "toml_string": ("config", "toml_string"),
    "verify_fingerprint": ("fingerprint", "verify"),
    "write_bundle": ("bundle", "write"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"arena.tournament.{home[0]}"), home[1])
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
