"""Bots of a tournament: snapshots in the tournament folder, versions in the store.

A bot plays from a copy inside the tournament (`bots/<name>/<hash16>/`),
never from its source folder, so editing a bot during a tournament changes
nothing until it is registered again. A bot whose content changed is a new
version (new row, new matches); the old version's results stay in the store.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from arena.manifest import BotSpec
from arena.sandbox.botfile import BotFileError, folder_hash, load_bot, missing_program
from arena.tournament.errors import TournamentError
from arena.tournament.plan.config import CONFIG_NAME, TournamentConfig
from arena.tournament.plan.secrecy import revealed_after
from arena.tournament.store import BotRow, Store

BOTS_DIR = "bots"
# `arena tournament new --bot PATH` copies each bot here and lists the copy:
# the tournament folder is then self-contained (it can be moved or copied).
SOURCES_DIR = "sources"
# meta key: {folder listed in tournament.toml: bot name}, as last run. A folder
# inside the tournament is keyed relative to it (POSIX), so the record still
# holds once the tournament folder is moved; one outside it, by its absolute
# path (stores written before relative keys hold absolute paths only).
CONFIG_BOTS_KEY = "config_bots"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", ".mypy_cache", ".pytest_cache")


class RegistryError(TournamentError, ValueError):
    """A bot could not be added to the tournament; says which and why."""


def _not_inside(spec: BotSpec, root: Path) -> None:
    """A tournament folder inside the bot's: the copy would contain itself
    (a RecursionError's traceback), and the bot's content, so its hash,
    would change with every result the tournament stores."""
    if root.resolve().is_relative_to(Path(spec.path).resolve()):
        raise RegistryError(f"{spec.path}: the tournament folder {root} is inside this bot's "
                            "folder; a copy of the bot would contain itself: move the "
                            "tournament out of it")


def snapshot(spec: BotSpec, root: Path) -> str:
    """Copy the bot into the tournament folder (once per content); returns the
    snapshot's path relative to `root`."""
    _not_inside(spec, root)
    rel = Path(BOTS_DIR) / spec.name / spec.content_hash[:16]
    target = root / rel
    if target.is_dir() and folder_hash(target) == spec.content_hash:
        return rel.as_posix()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Copy to a temporary sibling, then rename: a killed copy leaves no half bot.
    tmp = Path(tempfile.mkdtemp(prefix=".incoming-", dir=target.parent))
    try:
        staged = tmp / "bot"
        shutil.copytree(spec.path, staged, symlinks=True, ignore=_IGNORE)
        copied = folder_hash(staged)
        if copied != spec.content_hash:
            raise RegistryError(f"{spec.path}: the bot changed while it was being copied")
        if target.exists():
            shutil.rmtree(target)
        os.replace(staged, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rel.as_posix()


def copy_source(spec: BotSpec, root: Path) -> str:
    """Copy a bot folder into `root/sources/<name>/` for tournament.toml to
    list; returns the entry to list (relative to `root`). A folder already
    inside `root` is listed where it is."""
    source, home = Path(spec.path).resolve(), root.resolve()
    if source.is_relative_to(home):
        return source.relative_to(home).as_posix()
    if home.is_relative_to(source):
        raise RegistryError(f"{spec.path}: the tournament folder {root} is inside this bot's "
                            "folder; a copy of the bot would contain itself")
    rel = Path(SOURCES_DIR) / spec.name
    target = root / rel
    if target.exists():
        raise RegistryError(f"{target}: already exists; not overwritten")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, target, symlinks=True, ignore=_IGNORE)
    return rel.as_posix()


def register(store: Store, spec: BotSpec, root: Path, source: str) -> tuple[BotRow, bool]:
    """Snapshot and record a bot; returns (row, created a new version)."""
    latest = store.latest_versions().get(spec.name)
    if latest is not None and latest.content_hash == spec.content_hash:
        return latest, False
    rel = snapshot(spec, root)
    return store.add_bot(spec.name, spec.version, spec.content_hash, spec.language, rel, source)


def add_bot(config: TournamentConfig, bot_path: str | os.PathLike[str],
            validate: Callable[[BotSpec], str] | None = None) -> tuple[BotRow, bool]:
    """`arena bot add`: validate bot.toml, copy the bot in, record its version.

    A bot whose name tournament.toml lists is refused: every run registers
    the listed folder's content again, which would silently replace the
    submitted version. `validate` (the CLI's validation match) says what is
    wrong with a new version ("" if nothing); it runs after the cheap checks
    and before anything is stored, and is skipped for content the store
    already knows (nothing new would be stored)."""
    try:
        spec = load_bot(bot_path)
    except BotFileError as exc:
        raise RegistryError(str(exc)) from None
    # The tournament plays a copy of the folder as it is now: a program not
    # built yet would never start, and every match would score a crash.
    missing = missing_program(spec)
    if missing:
        raise RegistryError(f"{Path(spec.path) / 'bot.toml'}: key 'run': {missing}")
    for i, path in enumerate(config.bot_paths):
        if load_bot(path, hashed=False).name == spec.name:  # load_config has validated them
            raise RegistryError(
                f"{bot_path}: bot {spec.name!r} is listed in "
                f"{Path(config.root) / CONFIG_NAME} (bots[{i}]), and every run plays that "
                "folder's content; change that folder, or remove it from the list and add "
                "the bot with `arena bot add`")
    known = _known(config, spec)
    if not known and _seed_published(config):
        raise RegistryError(
            f"{bot_path}: refused: the seed of {Path(config.root)} was published (arena "
            "leaderboard publish), and a bot added now would be dealt from it, anyone dealing every "
            "hand: add it to a new tournament folder (arena tournament new)")
    root = Path(config.root)
    _not_inside(spec, root)  # before the validation match, which it would not change
    if not known:
        # Found before the validation match, not by a traceback after it.
        unwritable = [p for p in (root, root / BOTS_DIR, config.store_path)
                      if p.exists() and not os.access(p, os.W_OK)]
        if unwritable:
            raise RegistryError(
                f"{unwritable[0]}: not writable here (read-only): `arena bot add` copies the bot "
                f"into {root / BOTS_DIR} and records it in {config.store_path}")
    if validate is not None and not known:
        problem = validate(spec)
        if problem:
            raise RegistryError(f"{bot_path}: refused, the validation match failed: {problem}")
    with Store(config.store_path) as store:
        try:
            return register(store, spec, root, "submitted")
        except OSError as exc:  # a full disk; a folder made read-only meanwhile
            raise RegistryError(f"{exc.filename or root}: cannot copy the bot into the "
                                f"tournament: {exc.strerror or exc}") from None


def _seed_published(config: TournamentConfig) -> bool:
    """The tournament seed was shown (secrecy.mark_revealed): the runs refuse
    versions registered since (coordinator.refuse_after_reveal)."""
    if config.seed_public or not config.store_path.exists():
        return False
    with Store(config.store_path) as store:
        return revealed_after(store) is not None


def _known(config: TournamentConfig, spec: BotSpec) -> bool:
    if not config.store_path.exists():  # opening would create it
        return False
    with Store(config.store_path) as store:
        return any(b.name == spec.name and b.content_hash == spec.content_hash
                   for b in store.bots())


def _record_key(root: Path, folder: str) -> str:
    """How `folder` (absolute, resolved) is keyed in CONFIG_BOTS_KEY."""
    try:
        return Path(folder).relative_to(root).as_posix()
    except ValueError:  # outside the tournament: it cannot move with it
        return folder


def recorded_names(config: TournamentConfig, store: Store | None) -> dict[str, str]:
    """{absolute folder listed now: the bot name it held at the last run},
    for the listed folders the store has a record of."""
    if store is None:
        return {}
    stored: dict[str, str] = store.get_json(CONFIG_BOTS_KEY) or {}
    root = Path(config.root)
    found: dict[str, str] = {}
    for path in config.bot_paths:
        key = _record_key(root, path)
        if key in stored:
            found[path] = stored[key]
        elif path in stored:  # an absolute key, as stores before relative keys have
            found[path] = stored[path]
    return found


def field_names(config: TournamentConfig, store: Store | None) -> list[str]:
    """Names of the bots that play: those in tournament.toml, plus those
    submitted with `arena bot add` (their newest version is a submission).

    A listed folder's name is the one recorded when it was last registered,
    so reading results does not need the source folders (they may be gone:
    the bots play from snapshots). Only a folder never registered is read,
    and one that cannot be read is an error, even for reading results: a
    mistyped path would otherwise drop a bot from the table silently (its
    results would show as an earlier version's)."""
    recorded = recorded_names(config, store)
    names: set[str] = set()
    for i, path in enumerate(config.bot_paths):
        if path in recorded:
            names.add(recorded[path])
            continue
        try:
            names.add(load_bot(path, hashed=False).name)
        except BotFileError as exc:
            raise RegistryError(
                f"{Path(config.root) / CONFIG_NAME}: key 'bots[{i}]': {exc}") from None
    if store is not None:
        for name, row in store.latest_versions().items():
            if row.source == "submitted":
                names.add(name)
    return sorted(names)


def sync_field(config: TournamentConfig, store: Store) -> list[BotRow]:
    """Register the configured bots' current content; the field, sorted by name."""
    root = Path(config.root)
    recorded: dict[str, str] = {}
    for path in config.bot_paths:
        spec = load_bot(path)
        register(store, spec, root, "config")
        recorded[_record_key(root, path)] = spec.name
    store.set_json(CONFIG_BOTS_KEY, recorded)
    latest = store.latest_versions()
    return [latest[name] for name in field_names(config, store)]


def bot_spec(row: BotRow, root: Path) -> BotSpec:
    """The BotSpec of a registered version, from its snapshot."""
    folder = root / row.path
    try:
        spec = load_bot(folder)
    except BotFileError as exc:
        raise RegistryError(f"snapshot of {row.name} {row.version}: {exc}") from None
    if spec.content_hash != row.content_hash:
        raise RegistryError(f"{folder}: snapshot of {row.name} was modified (hash differs)")
    return spec
