"""Which confinement levels this machine offers, and `launch` at one of them."""

from __future__ import annotations

import functools

from arena.manifest import BotSpec
from arena.sandbox.api import LEVELS, BotHandle, Limits, SandboxError, SandboxUnavailable

DEFAULT_LIMITS = Limits()


@functools.cache
def available_levels() -> tuple[str, ...]:
    """The levels that work here, strongest first (probed once per process)."""
    found: list[str] = []
    for level in LEVELS:
        if _probe(level):
            found.append(level)
    return tuple(found)


def _probe(level: str) -> bool:
    if level == "process":
        return True
    if level == "bwrap":
        from arena.sandbox import bwrap
        return bwrap.works()
    if level == "docker":
        from arena.sandbox import docker_level
        return docker_level.engine_reachable()
    return False


def resolve_level(requested: str, bot: BotSpec | None = None) -> str:
    """The level `launch` would use: `requested`, or for "auto" the strongest
    available one this bot can run at (docker needs an image the engine has)."""
    if requested != "auto":
        if requested not in LEVELS:
            raise SandboxError(
                f"unknown sandbox level {requested!r} (choose auto, {', '.join(LEVELS)})")
        if requested not in available_levels():
            raise SandboxUnavailable(f"sandbox level {requested!r} is not available on this machine "
                               f"(available: {', '.join(available_levels())})")
        return requested
    for level in available_levels():
        if level == "docker":
            from arena.sandbox import docker_level
            if bot is None or not docker_level.can_run(bot):
                continue
        if level in ("bwrap", "process") and bot is not None and not bot.run:
            continue
        return level
    if bot is not None and not bot.run and bot.image:
        # Only the docker level can start it, and this machine cannot now: a
        # state of the machine, not a fault of the bot. The match fails (and
        # is played on a later run) rather than scoring the bot a crash.
        if "docker" not in available_levels():
            raise SandboxUnavailable(
                f"{bot.label} has only an `image`, no `run` command, and the docker level is not "
                "available on this machine (no Docker engine answers; scripts/docker.sh starts one)")
        raise SandboxUnavailable(
            f"{bot.label} has only an `image`, no `run` command, and the Docker engine has no image "
            f"{bot.image!r} (`arena sandbox build-images` builds the arena's images)")
    raise SandboxError(f"no sandbox level can start {bot.label if bot else 'this bot'}")


def fallback_note(bot: BotSpec, requested: str) -> str:
    """Why `bot` will run below the docker level under "auto" although it
    names an image ("" if it does not, or docker is not here at all): a
    typo in `image`, or images not built, should not pass unnoticed."""
    if requested != "auto" or not bot.image or "docker" not in available_levels():
        return ""
    from arena.sandbox import docker_level

    if docker_level.image_present(bot.image):
        return ""
    try:
        level = resolve_level("auto", bot)
    except SandboxError:
        level = "no level"
    return (f"{bot.label} names image {bot.image!r}, which the docker engine does not have: it runs "
            f"at {level} instead (`arena sandbox build-images` builds the arena's images)")


def launch(bot: BotSpec, level: str = "auto", *, env: dict[str, str], socket_dir: str,
           log_path: str, limits: Limits = DEFAULT_LIMITS, match_id: str = "") -> BotHandle:
    """Start `bot` confined at `level` (see arena.sandbox.api for the contract)."""
    chosen = resolve_level(level, bot)
    if chosen == "docker":
        from arena.sandbox import docker_level
        return docker_level.launch_docker(bot, env, socket_dir, log_path, limits, match_id)
    if chosen == "bwrap":
        from arena.sandbox import bwrap
        return bwrap.launch_bwrap(bot, env, socket_dir, log_path, limits)
    from arena.sandbox import process
    return process.launch_process(bot, env, socket_dir, log_path, limits)
