"""The settings a tournament's results were played under, kept in its store.

Match ids do not cover the settings, so without this a changed
tournament.toml (seed, rules, time control, ...) would make `arena
tournament run` skip matches played under the old settings, or play new
matches under the new ones and rate both together, and the leaderboard
would print rules the stored matches never used. The store therefore keeps
the *fingerprint*: every setting that decides how a match is played, as a
flat JSON object (setting -> value), written when the store gets its first
plan. Once a result exists, a config whose fingerprint differs is refused
with one line naming each changed setting; nothing is written.

In the fingerprint (they change what a match is):
  seed (every deal), [rules] preset and options, [time_control], [faults],
  [limits] (a bot may crash or time out under one limit and not another).
Not in it (they may change between runs):
  the bots and duplicate_sets (they extend the tournament: new tables, new
  sets), schedule (which tables are played; a table's matches are the same
  in any design), concurrency, cpu_slots, executor, dask_address, replays,
  bootstrap, stop (which planned sets are played), name, description, seed_public, and sandbox: with `auto` the level already
  depends on the machine (Dask workers may differ), the level each seat
  really ran at is stored and shown on the leaderboard, and a machine that
  loses docker must be able to go on at bwrap.

The values are the effective ones (defaults filled in), so a setting written
out at its default is no change; a setting the store has never seen (a
newer arena added it) counts as its default.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from arena.referee.spec import FaultPolicy, TimeControl
from arena.sandbox.api import Limits
from arena.tournament.errors import TournamentError
from arena.tournament.plan.config import CONFIG_NAME, TournamentConfig
from arena.tournament.plan.schedule import derive_seed, table_key
from arena.tournament.store import Store

META_KEY = "fingerprint"
_UNSET = "(preset default)"


class FingerprintError(TournamentError, ValueError):
    """tournament.toml no longer matches the settings of the stored results."""


def fingerprint(config: TournamentConfig) -> dict[str, Any]:
    """setting name (as in tournament.toml) -> effective value, JSON-ready."""
    match = config.match
    out: dict[str, Any] = {"seed": config.seed, "rules.preset": match.rules_preset}
    for key, value in match.rules_options:
        out[f"rules.{key}"] = _plain(value)
    for prefix, obj in (("time_control", match.time_control),
                        ("faults", match.fault_policy), ("limits", match.limits)):
        for f in dataclasses.fields(obj):
            out[f"{prefix}.{f.name}"] = _plain(getattr(obj, f.name))
    return out


def _plain(value: object) -> Any:
    """A JSON round trip, so stored and current values compare alike."""
    return json.loads(json.dumps(value, default=str))


def _default(key: str) -> Any:
    """The value a setting has when it is not written (for keys one side lacks)."""
    prefix, _, name = key.partition(".")
    defaults: dict[str, object] = {
        "time_control": TimeControl(), "faults": FaultPolicy(), "limits": Limits()}
    if prefix in defaults and hasattr(defaults[prefix], name):
        return _plain(getattr(defaults[prefix], name))
    return _UNSET


def changes(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """'KEY changed from OLD to NEW' for every differing setting, sorted."""
    out = []
    for key in sorted(set(stored) | set(current)):
        old = stored.get(key, _default(key))
        new = current.get(key, _default(key))
        if old != new:
            out.append(f"{key} changed from {_show(old)} to {_show(new)}")
    return out


def _show(value: Any) -> str:
    return value if value == _UNSET else json.dumps(value)


def verify(config: TournamentConfig, store: Store) -> None:
    """Refuse (FingerprintError, one line) when results exist that were
    played under other settings than the config's. Writes nothing."""
    if not store.has_results():
        return
    stored = store.get_json(META_KEY)
    if not isinstance(stored, dict):
        _check_legacy_seed(config, store)
        return
    diff = changes(stored, fingerprint(config))
    if diff:
        raise FingerprintError(
            f"{Path(config.root) / CONFIG_NAME}: {', '.join(diff)} since results were stored;"
            " start a new tournament folder (or restore the setting)")


def _check_legacy_seed(config: TournamentConfig, store: Store) -> None:
    """A store from before fingerprints: its other settings cannot be
    checked, but every deal seed derives from the tournament seed, so a
    changed seed can. A finished match whose seed derives from the
    configured one, by table position (how those stores planned) or by
    table key, proves it; none proving it means the seed changed. Called
    by `verify` once results exist."""
    names = {b.id: b.name for b in store.bots()}
    for row in store.matches():
        if row.status != "finished":
            continue
        lineup = [names[i] for i in row.bot_ids]
        candidates = {derive_seed(config.seed, "deal", row.set_no, row.table_no)}
        candidates.update(derive_seed(config.seed, "deal", row.set_no, table_key(lineup, k))
                          for k in range(10))
        if row.seed in candidates:
            return
    raise FingerprintError(
        f"{Path(config.root) / CONFIG_NAME}: seed {config.seed} is not the seed the stored"
        " results were played with (the store predates settings fingerprints, so the old"
        " value is unknown); start a new tournament folder (or restore the setting)")


def record(config: TournamentConfig, store: Store) -> None:
    """Before a run plans matches, after `verify` passed: store the
    fingerprint. While no match has a result the settings may still change;
    then the matches planned under the old ones (their seeds came from the
    old seed) are dropped and planned afresh. A store from before
    fingerprints gets the current one: its results can only be assumed to
    match it."""
    current = fingerprint(config)
    stored = store.get_json(META_KEY)
    if stored == current:
        return
    if isinstance(stored, dict) and changes(stored, current):
        store.drop_unfinished()  # verify passed, so there are no results yet
    store.set_json(META_KEY, current)
