"""`bot.toml`: what a bot is and how to start it.

    name = "greedy"              # required: [A-Za-z0-9_.-], 1..64 chars
    version = "1.0.0"            # required: free text, 1..32 chars
    language = "python"          # required: free text (python, javascript, c++, ...)
    run = "python3 bot.py"       # command, run in the bot's folder (string, shell-split, or list)
    image = "arena-python:1"     # optional: Docker image for the docker level
    protocol = "grpc"            # optional: "grpc" (default) or "stdio" (JSON lines on
                                 # stdin/stdout, through the arena's bridge: arena/bridge/stdio.py)
    description = "..."          # optional

At least one of `run` and `image` is required. At the process and bwrap
levels `run` is used, with the arena's own Python first on PATH, so
`python3` is the interpreter the arena runs on. At the docker level the
`image` runs `run` (if given) in /bot, the bot's folder mounted read-only.

The bot it describes is an arena.manifest.BotSpec (imported from here too,
as before).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import tomllib
from pathlib import Path

from arena.manifest import PROTOCOLS, BotSpec

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_VERSION = re.compile(r"^[A-Za-z0-9_.+#-]{1,32}$")  # version and language
_KNOWN_KEYS = frozenset({"name", "version", "language", "run", "image", "protocol",
                         "description"})
# Files never part of a bot's identity (build output, caches, VCS).
_IGNORED_DIRS = frozenset({"__pycache__", ".git", ".mypy_cache", ".pytest_cache"})


class BotFileError(ValueError):
    """A bot folder or its bot.toml is unusable; the message names file and key."""


def load_bot(folder: str | os.PathLike[str], *, hashed: bool = True) -> BotSpec:
    """Read and validate `folder/bot.toml`. Raises BotFileError with one clear line.

    `hashed=False` leaves `content_hash` empty: for callers that need only
    bot.toml's fields, since hashing reads every file of the folder (about
    1.6 s for the JavaScript sample bot and its node_modules)."""
    root = Path(folder).resolve()
    toml_path = root / "bot.toml"
    if root.is_file():  # `bot check mybot/bot.toml`: the folder was meant
        raise BotFileError(f"{root}: a file, not a bot folder; give the folder that holds "
                           f"bot.toml ({root.parent})")
    if not root.is_dir():
        raise BotFileError(f"{root}: not a bot folder (no such directory)")
    if not toml_path.is_file():
        raise BotFileError(f"{toml_path}: missing (every bot folder needs a bot.toml)")
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8-sig"))  # a BOM (Notepad) is not TOML's
    except tomllib.TOMLDecodeError as exc:
        raise BotFileError(f"{toml_path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise BotFileError(f"{toml_path}: not UTF-8 text: {exc}") from None

    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise BotFileError(
            f"{toml_path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN_KEYS))})"
        )

    def text(key: str, required: bool, limit: int) -> str:
        if key not in data:
            if required:
                raise BotFileError(f"{toml_path}: missing required key {key!r}")
            return ""
        value = data[key]
        if not isinstance(value, str) or not value.strip():
            raise BotFileError(f"{toml_path}: key {key!r} must be a non-empty string, got {value!r}")
        if len(value) > limit:
            raise BotFileError(f"{toml_path}: key {key!r} is longer than {limit} characters")
        return value.strip()

    name = text("name", True, 64)
    if not _NAME.match(name):
        raise BotFileError(f"{toml_path}: key 'name' = {name!r} may use only letters, digits, _ . -")
    version = text("version", True, 32)
    # Shown in leaderboards (Markdown, CSV, HTML) and logs: plain tokens only.
    if not _VERSION.match(version):
        raise BotFileError(f"{toml_path}: key 'version' = {version!r} may use only letters, "
                           "digits, _ . + # -")
    language = text("language", True, 32)
    if not _VERSION.match(language):
        raise BotFileError(f"{toml_path}: key 'language' = {language!r} may use only letters, "
                           "digits, _ . + # -")
    image = text("image", False, 200)
    if image:
        from arena.sandbox.dockerfile import BASE_REPOSITORIES, is_base_image

        # A container sees every file of its image: naming another bot's
        # built image (arena-bot-NAME:HASH, the hash shown on the tournament
        # pages) or any image of the engine would put it in this bot's reach.
        if not is_base_image(image):
            raise BotFileError(
                f"{toml_path}: key 'image' = {image!r}: names one of the arena's images "
                f"({', '.join(r + ':*' for r in BASE_REPOSITORIES)}); for another, ship a "
                "Dockerfile whose FROM is one of them (docs/sandbox.md, \"Docker images\")")
    description = text("description", False, 2000)
    protocol = text("protocol", False, 16) or "grpc"
    if protocol not in PROTOCOLS:
        raise BotFileError(f"{toml_path}: key 'protocol' = {protocol!r}: expected "
                           + " or ".join(repr(p) for p in PROTOCOLS))

    run: tuple[str, ...] = ()
    if "run" in data:
        raw = data["run"]
        if isinstance(raw, str):
            try:
                run = tuple(shlex.split(raw))
            except ValueError as exc:
                raise BotFileError(f"{toml_path}: key 'run' is not a valid command: {exc}") from None
        elif isinstance(raw, list) and all(isinstance(x, str) for x in raw):
            run = tuple(raw)
        else:
            raise BotFileError(f"{toml_path}: key 'run' must be a string or a list of strings")
        if not run:
            raise BotFileError(f"{toml_path}: key 'run' is empty")
    if not run and not image:
        raise BotFileError(f"{toml_path}: needs 'run' (a command) or 'image' (a Docker image)")
    if protocol == "stdio" and not run:
        raise BotFileError(f"{toml_path}: key 'run' is required with protocol = \"stdio\" "
                           "(the bridge starts that command)")

    dockerfile = root / "Dockerfile"
    if dockerfile.is_file():
        from arena.sandbox.dockerfile import DockerfileError, check

        try:
            check(dockerfile)  # nothing it builds from may come from the network
        except DockerfileError as exc:
            raise BotFileError(str(exc)) from None
    return BotSpec(
        name=name, version=version, language=language, path=str(root), run=run,
        image=image, description=description, protocol=protocol, content_hash=folder_hash(root) if hashed else "",
    )


def missing_program(bot: BotSpec) -> str:
    """Why the `run` command's program, a path inside the bot's folder
    (`./bot`, `bin/bot`), is not there ("" if it is, or the command names a
    program on PATH or at an absolute path, which only the sandbox the bot
    runs in can tell)."""
    program = bot.run[0] if bot.run else ""
    if "/" not in program or os.path.isabs(program):
        return ""
    found = Path(bot.path) / program
    if found.is_file() and not os.access(found, os.X_OK):
        # It exists: the start would fail as "no such executable", which misled.
        return f"program {program!r} in {bot.path} is not executable (chmod +x {program})"
    if found.exists():
        return ""
    build = next((f for f in _BUILD_FILES if (Path(bot.path) / f).exists()), "")
    hint = f" (the folder has a {build}: build the bot first)" if build else ""
    return f"program {program!r} not found in {bot.path}{hint}"


# Build files of compiled bots: a missing program next to one is a bot not built yet.
_BUILD_FILES = ("Makefile", "CMakeLists.txt", "Cargo.toml", "go.mod", "build.gradle", "pom.xml")


def bot_files(root: Path) -> list[tuple[str, Path]]:
    """A bot folder's files that make the bot, as (relative POSIX path, path),
    sorted: what `folder_hash` hashes and `arena submit` packs. Caches
    (__pycache__, .git, tool caches, *.pyc) are not the bot; symbolic links
    are listed (the caller decides: the hash skips them, a packer refuses
    them), anything else that is not a file is not.

    node_modules is included on purpose: a bot's dependencies are part of
    what plays."""
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _IGNORED_DIRS)
        for fn in sorted(filenames):
            if fn.endswith(".pyc"):
                continue
            p = Path(dirpath) / fn
            if p.is_symlink() or p.is_file():
                found.append((p.relative_to(root).as_posix(), p))
    return found


def folder_hash(root: Path) -> str:
    """sha256 over relative paths and contents of every file (`bot_files`,
    symbolic links left out), in sorted order."""
    h = hashlib.sha256()
    for rel, p in bot_files(root):
        if p.is_symlink():
            continue
        h.update(rel.encode() + b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def enclosing_bot(path: str | os.PathLike[str]) -> Path | None:
    """The bot folder (one with bot.toml) that `path` is or lies inside, or
    None. Whatever the arena writes there is part of that bot: its content
    hash, so its version, changes, and a sandboxed bot reads its own folder,
    so a replay or another bot's log written there while the match is
    played would show it cards it may not see."""
    here = Path(path).resolve()
    return next((d for d in (here, *here.parents) if (d / "bot.toml").is_file()), None)


def inside_bot_problem(option: str, path: str | os.PathLike[str]) -> str:
    """One line for an option (or, as "", an argument) that would write into
    a bot's folder ("" if it would not), for every command that writes
    replays, logs or stores."""
    home = enclosing_bot(path)
    if home is None:
        return ""
    where = "a bot's folder" if home == Path(path).resolve() else f"inside the bot folder {home}"
    named = f"{option} {path}" if option else str(path)
    return (f"{named}: {where} (it has bot.toml): the bot could read what is written "
            "there while it plays, and its content would change; choose a folder outside it")
