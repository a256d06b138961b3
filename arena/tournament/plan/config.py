"""`tournament.toml`: what a tournament is, validated before anything runs.

Every problem is reported as one line naming the file, the key and what is
wrong (TournamentConfigError); nothing is run or stored before the whole
file has been checked. See docs/tournaments.md for the reference.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.manifest import BotSpec
from arena.referee.spec import KEEP_LOGS, FaultPolicy, TimeControl
from arena.sandbox.api import Limits
from arena.sandbox.botfile import BotFileError, load_bot, missing_program
from arena.tournament.errors import TournamentError
from arena.tournament.plan.match_settings import MatchSettings
from arena.tournament.plan.schedule import DESIGNS, Design

CONFIG_NAME = "tournament.toml"
# Seeds below this can be tried one by one against a bot's first hand (about
# 0.1 ms each in Python, far less in C): such a bot would know every deal.
GUESSABLE_SEED = 2**40
EXECUTORS: tuple[str, ...] = ("local", "dask")
SANDBOXES: tuple[str, ...] = ("auto", "docker", "bwrap", "process")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

_TOP_KEYS = frozenset({
    "name", "description", "seed", "bots", "duplicate_sets", "schedule", "concurrency",
    "cpu_slots", "executor", "dask_address", "sandbox", "replays", "keep_logs", "bootstrap", "rules",
    "time_control", "faults", "limits", "stop", "new_version_deals", "seed_public",
})
NEW_VERSION_DEALS: tuple[str, ...] = ("auto", "fresh", "same")
STOPS: tuple[str, ...] = ("fixed", "settled")
_RULES_KEYS_FIXED = frozenset({"preset"})
_TIME_KEYS = frozenset({"per_move", "bank", "increment", "startup", "pondering"})
_MAY_BE_ZERO = frozenset({"bank", "increment"})
_FAULT_KEYS = frozenset({"mode", "max_strikes"})
_LIMIT_FIELDS = {f.name: f for f in dataclasses.fields(Limits)}


class TournamentConfigError(TournamentError, ValueError):
    """tournament.toml is unusable; the message names file, key and problem."""


def dask_address_problem(address: str) -> str:
    """What is wrong with a Dask address ("" if nothing): "local", or
    tcp://host:port or tls://host:port with a host and a port number."""
    if address == "local":
        return ""
    scheme, _, rest = address.partition("://")
    host, sep, port = rest.rpartition(":")
    if scheme not in ("tcp", "tls") or not sep or not host or not port.isdigit() \
            or not 0 < int(port) < 65536:
        return f"{address!r} is neither 'local' nor tcp://host:port or tls://host:port"
    return ""


@dataclass(frozen=True)
class TournamentConfig:
    root: str                                  # absolute path of the tournament folder
    name: str
    seed: int
    bot_paths: tuple[str, ...]                 # absolute paths of configured bot folders
    duplicate_sets: int = 1
    schedule: Design = "auto"
    concurrency: int = 0                       # 0 = number of cores
    cpu_slots: bool = True                     # each concurrent match on CPUs of its own
    executor: str = "local"
    dask_address: str = ""                     # "" with executor=dask means a LocalCluster
    bootstrap: int = 200                       # bootstrap samples for the rank interval
    # The rules, clocks, faults, limits, sandbox and replays of every match
    # (the same value a gauntlet's command line makes).
    match: MatchSettings = field(default_factory=MatchSettings)
    description: str = ""
    stop: str = "fixed"                        # fixed | settled (arena/tournament/stop/adaptive.py)
    # A new version of a bot: fresh deals where the old one's may be public
    # ("auto": when replays are kept), or the same deals (comparable).
    new_version_deals: str = "auto"
    # The seed is public on purpose (a demo such as tournaments/sample, its
    # seed in a committed tournament.toml): its publication refuses no
    # newcomer (coordinator.refuse_after_reveal), there being nothing to keep.
    seed_public: bool = False

    @property
    def fresh_deals(self) -> bool:
        """New versions get deal seeds no one has seen (schedule.deal_seed)."""
        return self.new_version_deals == "fresh" or (
            self.new_version_deals == "auto" and (self.match.replays or self.match.keep_logs == "all"))

    @property
    def store_path(self) -> Path:
        return Path(self.root) / "tournament.sqlite"


def load_config(folder: str | os.PathLike[str], check_bots: bool = True) -> TournamentConfig:
    """Read and fully validate `folder/tournament.toml`.

    `check_bots=False` is for commands that only read stored results
    (status, leaderboard): they must work after a bot's source folder is
    gone, since every version plays from its snapshot in the tournament."""
    root = Path(folder).resolve()
    path = root / CONFIG_NAME
    if root.is_file():  # `tournament run DIR/tournament.toml`: DIR was meant
        raise TournamentConfigError(f"{root}: a file, not a tournament folder; give the folder "
                                    f"that holds {CONFIG_NAME} ({root.parent})")
    if not path.is_file():
        # A gauntlet's folder holds a store but no tournament.toml: `tournament
        # new` there is not what its owner wants (gauntlet.run.STORE_NAME).
        if (root / "gauntlet.sqlite").is_file():
            raise TournamentConfigError(
                f"{root}: a gauntlet's folder, not a tournament's; run its `arena gauntlet` "
                f"command again (with --dir {folder}) to see its verdict or resume it")
        if (root / "bot.toml").is_file():
            # `arena bot add BOT DIR`, the arguments swapped: a tournament
            # made inside the bot's folder is not what its author wants.
            raise TournamentConfigError(
                f"{root}: a bot's folder (it has bot.toml), not a tournament's (no "
                f"{CONFIG_NAME}); give the tournament's folder (`arena bot add` takes it "
                "first: `arena bot add TOURNAMENT_DIR BOT_PATH`)")
        raise TournamentConfigError(f"{path}: missing (run `arena tournament new {folder}`)")
    return parse_config(read_settings(path, CONFIG_NAME), root, str(path), check_bots)


def parse_config(data: dict[str, Any], root: Path, where: str,
                 check_bots: bool = True) -> TournamentConfig:
    def fail(key: str, problem: str) -> TournamentConfigError:
        return TournamentConfigError(f"{where}: key {key!r}: {problem}")

    _no_unknown(data, _TOP_KEYS, "", fail)
    _finite(data, "", fail)

    def get(key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if key not in data:
            return default
        value = data[key]
        # bool is an int in Python; never accept true for a number.
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise fail(key, f"must be {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            raise fail(key, f"must be {_kind_name(kind)}, got {value!r}")
        return value

    if "name" not in data:
        raise fail("name", "missing (the tournament's name, used for the leaderboard folder)")
    name = get("name", str, "")
    if not _NAME.match(name):
        raise fail("name", f"{name!r} may use only letters, digits, _ . - (1..64 characters)")
    if "seed" not in data:
        raise fail("seed", "missing (an integer: the whole tournament is derived from it)")
    seed = get("seed", int, 0)
    if seed < 0:
        raise fail("seed", f"must be >= 0, got {seed}")

    duplicate_sets = get("duplicate_sets", int, 1)
    if not 1 <= duplicate_sets <= 10_000:
        raise fail("duplicate_sets", f"must be 1..10000, got {duplicate_sets}")
    schedule = get("schedule", str, "auto")
    if schedule not in DESIGNS:
        raise fail("schedule", f"unknown design {schedule!r} (choose {', '.join(DESIGNS)})")
    concurrency = get("concurrency", int, 0)
    if not 0 <= concurrency <= 1024:
        raise fail("concurrency", f"must be 0 (= number of cores) .. 1024, got {concurrency}")
    cpu_slots = get("cpu_slots", bool, True)
    executor = get("executor", str, "local")
    if executor not in EXECUTORS:
        raise fail("executor", f"unknown executor {executor!r} (choose {', '.join(EXECUTORS)})")
    dask_address = get("dask_address", str, "")
    if dask_address and (problem := dask_address_problem(dask_address)):
        raise fail("dask_address", problem)
    get("sandbox", str, "auto")  # its value: parse_match_settings below
    replays = get("replays", bool, True)
    keep_logs = get("keep_logs", str, "faults")
    if keep_logs not in KEEP_LOGS:
        raise fail("keep_logs", f"unknown choice {keep_logs!r} (choose {', '.join(KEEP_LOGS)})")
    bootstrap = get("bootstrap", int, 200)
    if not 0 <= bootstrap <= 100_000:
        raise fail("bootstrap", f"must be 0..100000, got {bootstrap}")
    description = get("description", str, "")
    new_version_deals = get("new_version_deals", str, "auto")
    if new_version_deals not in NEW_VERSION_DEALS:
        raise fail("new_version_deals", f"unknown value {new_version_deals!r} "
                   f"(choose {', '.join(NEW_VERSION_DEALS)})")
    seed_public = get("seed_public", bool, False)
    stop = get("stop", str, "fixed")
    if stop not in STOPS:
        raise fail("stop", f"unknown stop {stop!r} (choose {', '.join(STOPS)})")

    bots = get("bots", list, None)
    if bots is None:
        raise fail("bots", "missing (a list of bot folders, relative to this file)")
    bot_paths: list[str] = []
    names: dict[str, str] = {}
    for i, entry in enumerate(bots):
        if not isinstance(entry, str) or not entry.strip():
            raise fail(f"bots[{i}]", f"must be a folder path, got {entry!r}")
        folder = (root / entry).resolve()
        if str(folder) in bot_paths:
            # Checked even when the bots are not read: a duplicated line (say,
            # a copy edited into another bot's path) would drop a bot silently.
            first = bot_paths.index(str(folder))
            raise fail(f"bots[{i}]", f"{entry!r} is listed twice (also bots[{first}])")
        bot_paths.append(str(folder))
        if not check_bots:
            continue
        if root.is_relative_to(folder) and (folder / "bot.toml").is_file():
            # Found before any bot is copied in (registry.snapshot refuses it too).
            raise fail(f"bots[{i}]", f"{entry!r}: {folder}: the tournament folder {root} is "
                       "inside this bot's folder; a copy of the bot would contain itself")
        try:
            spec = load_bot(folder)
        except BotFileError as exc:
            hint = ""
            try:
                here = Path.cwd()
            except OSError:  # the command's folder was removed: no hint to give
                here = root
            if not Path(entry).is_absolute() and (here / entry / "bot.toml").is_file():
                # Written relative to where the command runs, not to this file.
                hint = (f" (paths here are relative to {root}; from there this bot is "
                        f"{os.path.relpath(here / entry, root)!r})")
            raise fail(f"bots[{i}]", f"{entry!r}: {exc}{hint}") from None
        missing = missing_program(spec)
        if missing:  # every match would score it a crash
            raise fail(f"bots[{i}]", f"{entry!r}: {missing}")
        if spec.name in names:
            raise fail(f"bots[{i}]", f"bot name {spec.name!r} is also used by {names[spec.name]!r}")
        names[spec.name] = entry

    match = dataclasses.replace(parse_match_settings(data, where, replays), keep_logs=keep_logs)

    return TournamentConfig(
        root=str(root), name=name, seed=seed, bot_paths=tuple(bot_paths),
        duplicate_sets=duplicate_sets, schedule=schedule, concurrency=concurrency,
        cpu_slots=cpu_slots, executor=executor, dask_address=dask_address, bootstrap=bootstrap,
        match=match,
        description=description, stop=stop, new_version_deals=new_version_deals,
        seed_public=seed_public,
    )


def read_settings(path: Path, what: str) -> dict[str, Any]:
    """A settings file's TOML (tournament.toml's, a ladder's ladder.toml),
    or TournamentConfigError in one line naming it (`what`: the file's name,
    for a missing one)."""
    if not path.is_file():
        raise TournamentConfigError(f"{path}: missing ({what})")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a BOM (Notepad) is not TOML's
    except tomllib.TOMLDecodeError as exc:
        raise TournamentConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise TournamentConfigError(f"{path}: not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise TournamentConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def check_keys(data: dict[str, Any], known: frozenset[str], where: str, prefix: str = "") -> None:
    """The checks every settings file gets first: no unknown key (with a
    spelling hint) and no nan or inf anywhere; TournamentConfigError naming
    `where` and the key."""
    def fail(key: str, problem: str) -> TournamentConfigError:
        return TournamentConfigError(f"{where}: key {key!r}: {problem}")

    _no_unknown(data, known, prefix, fail)
    _finite(data, prefix.rstrip("."), fail)


def parse_match_settings(data: dict[str, Any], where: str, replays: bool = True) -> MatchSettings:
    """The `sandbox` key and the [rules], [time_control], [faults] and
    [limits] tables of a settings file other than tournament.toml (a
    ladder's), read and checked exactly as tournament.toml's are: one
    MatchSettings, or TournamentConfigError naming `where` and the key."""
    def fail(key: str, problem: str) -> TournamentConfigError:
        return TournamentConfigError(f"{where}: key {key!r}: {problem}")

    sandbox = data.get("sandbox", "auto")
    if sandbox not in SANDBOXES:
        raise fail("sandbox", f"unknown level {sandbox!r} (choose {', '.join(SANDBOXES)})")
    rules_preset, rules_options = _parse_rules(data.get("rules", {}), fail)
    return MatchSettings(rules_preset=rules_preset, rules_options=rules_options,
                         time_control=_parse_time(data.get("time_control", {}), fail),
                         fault_policy=_parse_faults(data.get("faults", {}), fail),
                         limits=_parse_limits(data.get("limits", {}), fail),
                         sandbox=sandbox, replays=replays)


def _finite(value: Any, key: str, fail: Any) -> None:
    """TOML allows nan and inf; no setting means anything with them, and
    comparisons such as `v < 0` are False for nan, so they would slip
    through the range checks below. Rejected everywhere, before those."""
    if isinstance(value, float) and not math.isfinite(value):
        raise fail(key, f"must be a finite number, got {value!r}")
    if isinstance(value, dict):
        for k, v in value.items():
            _finite(v, f"{key}.{k}" if key else k, fail)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _finite(v, f"{key}[{i}]", fail)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
             list: "a list", dict: "a table"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _no_unknown(table: dict[str, Any], known: frozenset[str], prefix: str, fail: Any) -> None:
    for key in sorted(table):
        if key not in known:
            hint = _close(key, known)
            raise fail(prefix + key, "unknown key" + (f" (did you mean {hint!r}?)" if hint else
                                                     f" (known: {', '.join(sorted(known))})"))


def _close(key: str, known: frozenset[str]) -> str:
    import difflib

    match = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.7)
    return match[0] if match else ""


def _table(value: Any, key: str, fail: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(key, f"must be a table ([{key}]), got {value!r}")
    return value


def _parse_rules(value: Any, fail: Any) -> tuple[str, tuple[tuple[str, object], ...]]:
    table = _table(value, "rules", fail)
    preset = table.get("preset", "standard")
    if not isinstance(preset, str):
        raise fail("rules.preset", f"must be a string, got {preset!r}")
    options = {k: v for k, v in table.items() if k not in _RULES_KEYS_FIXED}
    from arena.game.rules import Rules
    try:
        base = Rules.preset(preset)
    except (ValueError, KeyError) as exc:
        raise fail("rules.preset", _one_line(exc)) from None
    for key in sorted(options):
        try:
            base.replace(**{key: options[key]})
        except (ValueError, TypeError, KeyError) as exc:
            raise fail(f"rules.{key}", _one_line(exc)) from None
    try:
        rules = base.replace(**options)
    except (ValueError, TypeError, KeyError) as exc:
        raise fail("rules", _one_line(exc)) from None
    if getattr(rules, "players", 3) != 3:
        raise fail("rules.players", "tournaments schedule three-seat tables; players must be 3")
    return preset, tuple(sorted(options.items()))


def _parse_time(value: Any, fail: Any) -> TimeControl:
    table = dict(_table(value, "time_control", fail))
    _no_unknown(table, _TIME_KEYS, "time_control.", fail)
    values: dict[str, float] = {}
    pondering = table.pop("pondering", False)
    if not isinstance(pondering, bool):
        raise fail("time_control.pondering", f"must be true or false, got {pondering!r}")
    for key in sorted(table):
        v = table[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise fail(f"time_control.{key}", f"must be a number of seconds, got {v!r}")
        # The bank and the increment may be 0 (no bank: every decision gets
        # per_move only), as `arena play --bank 0` allows: one rule for both.
        zero_ok = key in _MAY_BE_ZERO
        if (zero_ok and not v >= 0) or (not zero_ok and not v > 0):
            raise fail(f"time_control.{key}", f"must be {'>= 0' if zero_ok else '> 0'}"
                       f" seconds, got {v!r}")
        if v > 3600:
            raise fail(f"time_control.{key}", f"must be at most 3600 seconds, got {v!r}")
        values[key] = float(v)
    return TimeControl(**values, pondering=pondering)


def _parse_faults(value: Any, fail: Any) -> FaultPolicy:
    table = _table(value, "faults", fail)
    _no_unknown(table, _FAULT_KEYS, "faults.", fail)
    mode = table.get("mode", "strike")
    if mode not in ("strike", "forfeit"):
        raise fail("faults.mode", f"must be 'strike' or 'forfeit', got {mode!r}")
    strikes = table.get("max_strikes", 3)
    if isinstance(strikes, bool) or not isinstance(strikes, int) or not 1 <= strikes <= 1000:
        raise fail("faults.max_strikes", f"must be an integer 1..1000, got {strikes!r}")
    return FaultPolicy(mode=mode, max_strikes=strikes)


def _parse_limits(value: Any, fail: Any) -> Limits:
    """[limits]: any field of arena.sandbox.api.Limits; each must be a positive number
    (whole numbers for counts and sizes)."""
    table = _table(value, "limits", fail)
    _no_unknown(table, frozenset(_LIMIT_FIELDS), "limits.", fail)
    values: dict[str, Any] = {}
    for key in sorted(table):
        v = table[key]
        wants_int = _LIMIT_FIELDS[key].type in (int, "int")
        ok_type = isinstance(v, int) if wants_int else isinstance(v, (int, float))
        if isinstance(v, bool) or not ok_type:
            kind = "a whole number" if wants_int else "a number"
            raise fail(f"limits.{key}", f"must be {kind}, got {v!r}")
        if not v > 0:
            raise fail(f"limits.{key}", f"must be > 0, got {v!r}")
        values[key] = v if wants_int else float(v)
    return Limits(**values)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def seed_warning(config: TournamentConfig) -> str:
    """A warning when the tournament seed is short enough to be guessed ("" if not)."""
    if config.seed >= GUESSABLE_SEED:
        return ""
    return (f"{config.root}/{CONFIG_NAME}: seed {config.seed} is short: a bot that tries seeds "
            "against its hand could find every deal; give a new tournament a long random one "
            "(`arena tournament new` writes one)")


def configured_bots(config: TournamentConfig) -> list[BotSpec]:
    """The bots named in tournament.toml, loaded fresh from their folders."""
    return [load_bot(p) for p in config.bot_paths]


EXAMPLE = '''\
# tournament.toml: one tournament. Paths are relative to this file.
# Reference: docs/tournaments.md

name = "{name}"                # used for the leaderboard folder
description = ""               # shown on the leaderboard
# Everything (schedule, deals, bot seeds) derives from the seed. Keep it long
# and random: a bot that tries seeds against its own hand could find a short
# one and with it every deal (docs/tournaments.md, "Seeds").
seed = {seed}
duplicate_sets = 2             # each table is played this many times, each time
                               # in all 6 seat orders on the same deal seed
stop = "fixed"                 # fixed: play every set; settled: stop once neighbours
                               # are separated (duplicate_sets is then the maximum;
                               # docs/tournaments.md "Adaptive stop")
schedule = "auto"              # auto | all_triples | balanced (pair-balanced design)
concurrency = 0                # matches at once; 0 = number of CPU cores
cpu_slots = true               # each match at once on CPUs of its own (fair clocks;
                               # see docs/tournaments.md "CPU slots")
executor = "local"             # local (process pool) | dask
dask_address = ""              # with executor = "dask": "" or "local" = LocalCluster,
                               # or "tcp://host:8786" for a running scheduler
sandbox = "auto"               # auto | docker | bwrap | process
replays = true                 # keep a replay file per match in replays/
new_version_deals = "auto"     # a changed bot's new version: "fresh" deals no one has seen
                               # (its old version's replays show the old ones), "same" deals
                               # (versions comparable), "auto" = fresh while replays are kept,
                               # else where a faulty seat's log was kept
seed_public = false            # true only for a demo whose seed is public anyway: then a
                               # published seed (leaderboard publish) still lets new bots in
bootstrap = 200                # resamples for the 95% rank interval (0 = off)

# Bot folders (each with a bot.toml); at least 3. `arena bot add` adds more.
# Read at every run: a folder inside this one (`tournament new --bot` copies
# them into sources/) keeps the tournament movable; a path outside does not.
bots = [
{bots}
]

[rules]
preset = "standard"            # standard | estonian | lithuanian | czech | finnish | swedish
target = 500                   # any rules option (docs/rules.md) overrides the preset

[time_control]                 # seconds, measured by the referee
per_move = 1.0                 # each decision
bank = 10.0                    # time bank (Fischer); 0 = none
increment = 0.1                # added to the bank after each decision
startup = 15.0                 # for a bot to connect
pondering = false              # false: a bot is paused while another seat decides
                               # (fair clocks; docs/tournaments.md "Pondering")

[faults]
mode = "strike"                # strike: a fault plays a default move; forfeit: at once
max_strikes = 3                # strikes before a forfeit

[limits]                       # per bot, per match (docs/sandbox.md); defaults shown
memory_mb = 512                # RLIMIT_DATA per process; cgroup / container memory
cpu_seconds = 600              # CPU time over the whole match
cpus = 1.0                     # docker CPU quota (cores)
pids = 64                      # processes and threads
open_files = 256
file_size_mb = 16              # largest file a bot may write
tmpfs_mb = 16                  # private /tmp (bwrap, docker)
log_bytes = 1000000            # stdout+stderr kept per bot
stop_grace = 1.0               # seconds between SIGTERM and SIGKILL at the end
'''


def toml_string(text: str) -> str:
    """`text` as a TOML basic string: quotes, backslashes and the control
    characters TOML forbids in strings are escaped (a folder may be named
    q"bot)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def example_config(name: str, bot_entries: list[str], seed: int) -> str:
    """A commented tournament.toml with every key (`seed`: pass a random one)."""
    bots = ("\n".join(f"    {toml_string(b)}," for b in bot_entries)
            or '    # "../../sample_bots/random",')
    return EXAMPLE.format(name=name, bots=bots, seed=seed)
