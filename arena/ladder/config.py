"""`ladder.toml`: what a ladder is, validated before anything runs.

A ladder is a folder: ladder.toml (the organiser's settings, the secret
seed among them), ladder.sqlite (the store), the reference bots' folders,
the submitted bots, the replays and logs. The match settings ([rules],
[time_control], [faults], [limits], `sandbox`) are read by the
tournament's own code, so they mean what they mean in tournament.toml;
every problem is one line naming the file and the key. docs/ladder.md is
the reference.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arena.ladder.errors import LadderError
from arena.manifest import BotSpec
from arena.referee.spec import KEEP_LOGS
from arena.sandbox.botfile import BotFileError, load_bot, missing_program
from arena.tournament import (
    MatchSettings,
    TournamentConfigError,
    check_keys,
    dask_address_problem,
    parse_match_settings,
    read_settings,
    toml_string,
)

CONFIG_NAME = "ladder.toml"
STORE_NAME = "ladder.sqlite"
REFERENCE_DIR = "reference"
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

_TOP_KEYS = frozenset({
    "name", "description", "seed", "reference", "workers", "cpu_slots", "executor",
    "dask_address", "sandbox", "keep_logs", "rules", "time_control", "faults", "limits", "ratings",
    "matchmaking", "validation", "quotas",
})
_MATCH_TABLES = ("rules", "time_control", "faults", "limits")


class LadderConfigError(LadderError, ValueError):
    """ladder.toml is unusable; the message names the file, the key and the problem."""


@dataclass(frozen=True)
class Ratings:
    tau: float = 0.2              # skill drift per block (TrueSkill's dynamic)
    placement_blocks: int = 3     # a new bot plays one block at a time until it has this many


@dataclass(frozen=True)
class Matchmaking:
    recency_share: float = 0.25   # chance the seed bot is the least recently played one
    nearest: int = 4              # opponents drawn from this many nearest in rating


@dataclass(frozen=True)
class Quotas:
    submissions_per_day: int = 10      # per author, the last 24 hours, refused ones included
    active_bots: int = 3               # bots an author has on the ladder at once
    upload_bytes: int = 10_000_000     # the archive as sent
    files: int = 1000                  # entries in the archive
    unpacked_bytes: int = 50_000_000   # the archive's files together, unpacked
    writes_per_minute: int = 10        # per client address: uploads, sign-ins, sign-outs
    connections: int = 256             # open connections the server holds at once


@dataclass(frozen=True)
class LadderConfig:
    root: str                               # absolute path of the ladder folder
    name: str
    seed: int                               # the secret every deal seed derives from
    reference: tuple[str, ...]              # absolute paths of the reference bots' folders
    match: MatchSettings = field(default_factory=MatchSettings)
    description: str = ""
    workers: int = 0                        # matches at once; 0 = the CPU cores
    cpu_slots: bool = True
    executor: str = "local"                 # local | dask
    dask_address: str = ""
    ratings: Ratings = field(default_factory=Ratings)
    matchmaking: Matchmaking = field(default_factory=Matchmaking)
    validation_deals: int = 2
    quotas: Quotas = field(default_factory=Quotas)

    @property
    def store_path(self) -> Path:
        return Path(self.root) / STORE_NAME

    @property
    def path(self) -> Path:
        return Path(self.root) / CONFIG_NAME


def load_config(folder: str | os.PathLike[str]) -> LadderConfig:
    """Read and fully validate `folder/ladder.toml` (its reference bots too)."""
    root = Path(folder).resolve()
    path = root / CONFIG_NAME
    if root.is_file():
        raise LadderConfigError(f"{root}: a file, not a ladder folder; give the folder that "
                                f"holds {CONFIG_NAME} ({root.parent})")
    try:
        data = read_settings(path, f"run `arena ladder new {folder}`")
        return parse_config(data, root, str(path))
    except TournamentConfigError as exc:
        raise LadderConfigError(str(exc)) from None


def parse_config(data: dict[str, Any], root: Path, where: str) -> LadderConfig:
    def fail(key: str, problem: str) -> LadderConfigError:
        return LadderConfigError(f"{where}: key {key!r}: {problem}")

    try:
        check_keys(data, _TOP_KEYS, where)
        match = parse_match_settings({k: data[k] for k in ("sandbox", *_MATCH_TABLES) if k in data},
                               where)
    except TournamentConfigError as exc:
        raise LadderConfigError(str(exc)) from None

    def get(table: dict[str, Any], key: str, kind: type, default: Any, prefix: str = "") -> Any:
        if key not in table:
            return default
        value: Any = table[key]
        # bool is an int in Python: never true for a number.
        if isinstance(value, bool) != (kind is bool) or not isinstance(
                value, (int, float) if kind is float else kind):
            raise fail(prefix + key, f"must be {_KINDS[kind]}, got {value!r}")
        return float(table[key]) if kind is float else table[key]

    def number(table: dict[str, Any], key: str, kind: type, default: Any, low: float,
               high: float, prefix: str) -> Any:
        value = get(table, key, kind, default, prefix)
        if not low <= value <= high:
            raise fail(prefix + key, f"must be {low:g}..{high:g}, got {value!r}")
        return value

    if "name" not in data:
        raise fail("name", "missing (the ladder's name, shown on its pages)")
    name = get(data, "name", str, "")
    if not _NAME.match(name):
        raise fail("name", f"{name!r} may use only letters, digits, _ . - (1..64 characters)")
    if "seed" not in data:
        raise fail("seed", "missing (an integer, secret: every deal seed derives from it)")
    seed = number(data, "seed", int, 0, 0, 2**63 - 1, "")
    executor = get(data, "executor", str, "local")
    if executor not in ("local", "dask"):
        raise fail("executor", f"unknown executor {executor!r} (choose local, dask)")
    dask_address = get(data, "dask_address", str, "")
    if dask_address and (problem := dask_address_problem(dask_address)):
        raise fail("dask_address", problem)
    # Whose logs a block keeps (its owner's and the organisers' to read):
    # "all" gives every decision of the bot's-eye view its lines.
    keep_logs = get(data, "keep_logs", str, "faults")
    if keep_logs not in KEEP_LOGS:
        raise fail("keep_logs", f"unknown choice {keep_logs!r} (choose {', '.join(KEEP_LOGS)})")
    match = replace(match, keep_logs=keep_logs)

    tables: dict[str, dict[str, Any]] = {}
    for table, known in _TABLES.items():
        value = data.get(table, {})
        if not isinstance(value, dict):
            raise fail(table, f"must be a table ([{table}]), got {value!r}")
        for key in sorted(value):
            if key not in known:
                raise fail(f"{table}.{key}", f"unknown key (known: {', '.join(sorted(known))})")
        tables[table] = value
    r, m, v, q = (tables[t] for t in ("ratings", "matchmaking", "validation", "quotas"))
    ratings = Ratings(tau=number(r, "tau", float, Ratings.tau, 0, 25, "ratings."),
                      placement_blocks=number(r, "placement_blocks", int,
                                              Ratings.placement_blocks, 1, 1000, "ratings."))
    matchmaking = Matchmaking(
        recency_share=number(m, "recency_share", float, Matchmaking.recency_share, 0, 1,
                             "matchmaking."),
        nearest=number(m, "nearest", int, Matchmaking.nearest, 2, 1000, "matchmaking."))
    quotas = Quotas(**{key: number(q, key, int, default, low, high, "quotas.")
                       for key, (default, low, high) in _QUOTA_RANGES.items()})

    entries = get(data, "reference", list, [])
    reference: list[str] = []
    names: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, str) or not entry.strip():
            raise fail(f"reference[{i}]", f"must be a folder path, got {entry!r}")
        folder = (root / entry).resolve()
        try:
            spec = load_bot(folder)
        except BotFileError as exc:
            raise fail(f"reference[{i}]", f"{entry!r}: {exc}") from None
        missing = missing_program(spec)
        if missing:
            raise fail(f"reference[{i}]", f"{entry!r}: {missing}")
        if spec.name in names:
            raise fail(f"reference[{i}]", f"bot name {spec.name!r} is also reference[{names[spec.name]}]")
        names[spec.name] = i
        reference.append(str(folder))
    if not reference:
        # The validation match seats two of them beside a new bot, and a
        # new bot is placed against their known strengths.
        raise fail("reference", "at least one reference bot is needed (the validation match "
                   "plays a new bot against them)")
    return LadderConfig(
        root=str(root), name=name, seed=seed, reference=tuple(reference), match=match,
        description=get(data, "description", str, ""),
        workers=number(data, "workers", int, 0, 0, 1024, ""),
        cpu_slots=get(data, "cpu_slots", bool, True), executor=executor,
        dask_address=dask_address, ratings=ratings, matchmaking=matchmaking,
        validation_deals=number(v, "deals", int, 2, 1, 50, "validation."), quotas=quotas)


_KINDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
          list: "a list"}
_QUOTA_RANGES: dict[str, tuple[int, int, int]] = {
    "submissions_per_day": (Quotas.submissions_per_day, 1, 100_000),
    "active_bots": (Quotas.active_bots, 1, 1000),
    "upload_bytes": (Quotas.upload_bytes, 1024, 2**31),
    "files": (Quotas.files, 1, 100_000),
    "unpacked_bytes": (Quotas.unpacked_bytes, 1024, 2**33),
    "writes_per_minute": (Quotas.writes_per_minute, 1, 100_000),
    "connections": (Quotas.connections, 8, 100_000),
}
_TABLES: dict[str, frozenset[str]] = {
    "ratings": frozenset({"tau", "placement_blocks"}),
    "matchmaking": frozenset({"recency_share", "nearest"}),
    "validation": frozenset({"deals"}),
    "quotas": frozenset(_QUOTA_RANGES),
}


def reference_bots(config: LadderConfig) -> list[BotSpec]:
    """The reference bots, read fresh from their folders."""
    return [load_bot(p) for p in config.reference]


EXAMPLE = '''\
# ladder.toml: a standing competition. Paths are relative to this file.
# Reference: docs/ladder.md. Keep this file and the folder private: the
# seed deals every block.

name = "{name}"
description = ""
seed = {seed}                 # secret: every block's deals derive from it (one-way)
workers = 0                    # matches at once; 0 = number of CPU cores
cpu_slots = true               # each match at once on CPUs of its own
executor = "local"             # local | dask (`arena ladder serve --dask ADDRESS`)
dask_address = ""
sandbox = "auto"               # auto | docker | bwrap | process: every bot of every match

# Fixed bots of the organiser: the validation match seats two of them beside
# a new bot, and they play on the ladder as known strengths (league bosses).
reference = [
{reference}
]

[rules]
preset = "standard"            # any preset and options (docs/rules.md)
max_deals = 6                  # a block is 6 matches: keep them short

[time_control]                 # seconds, as in tournament.toml
per_move = 1.0
bank = 10.0
increment = 0.1
startup = 15.0

[faults]
mode = "strike"
max_strikes = 3

[ratings]
tau = 0.2                      # skill drift per block (> 0 while the season runs)
placement_blocks = 3           # a new bot plays one block at a time until it has this many

[matchmaking]
recency_share = 0.25           # how often the seed bot is the least recently played one
nearest = 4                    # its opponents: drawn from this many nearest in rating

[validation]
deals = 2                      # the validation match's length

[quotas]
submissions_per_day = 10       # per author
active_bots = 3                # bots per author on the ladder at once
upload_bytes = 10000000        # archive size
files = 1000                   # files in an archive
unpacked_bytes = 50000000      # its files unpacked, together
writes_per_minute = 10         # per client address (uploads, sign-ins): then 429
connections = 256              # open connections at once
'''


def example_config(name: str, reference: list[str], seed: int) -> str:
    """A commented ladder.toml with every key (`seed`: pass a random one)."""
    return EXAMPLE.format(name=name, seed=seed,
                          reference="\n".join(f"    {toml_string(r)}," for r in reference))
