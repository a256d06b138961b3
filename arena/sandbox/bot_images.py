"""Images of bots that ship a Dockerfile: built once per content hash, bounded.

A Dockerfile's RUN steps are the bot author's code, run by the docker daemon
before the bot's own container exists, so the build is confined too:

- nothing from the network: the Dockerfile is checked first (dockerfile.py:
  no ADD of a URL, no FROM or --from of an image that is not local), and
  the build runs with network "none";
- each build container gets BUILD_MEMORY_MB of memory and no swap, and the
  CPUs of the match's CPU slot where it has one;
- the build is given up after BUILD_SECONDS (the stream is closed, which
  stops the daemon's build, and whatever it left is removed);
- an image over IMAGE_MB is removed again and the bot cannot start (with the
  vfs storage driver every container start copies the whole image);
- a new build of a bot removes that bot's older builds (other content
  hashes), so that resubmissions do not pile up images.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from arena.manifest import BotSpec
from arena.sandbox.api import SandboxError

BUILD_MEMORY_MB = 1024
BUILD_SECONDS = 300.0
IMAGE_MB = 1024
_MB = 1024 * 1024


def repository(bot: BotSpec) -> str:
    return f"arena-bot-{bot.name.lower()}"


def dockerfile_tag(bot: BotSpec) -> str:
    return f"{repository(bot)}:{bot.content_hash[:16]}"


def has_dockerfile(bot: BotSpec) -> bool:
    return (Path(bot.path) / "Dockerfile").is_file()


def build(client: Any, bot: BotSpec, cpuset: str | None) -> str:
    """Build the bot's Dockerfile as `dockerfile_tag(bot)`; SandboxError if
    the build fails, takes too long or makes too large an image."""
    import docker.errors
    import requests.exceptions
    import urllib3.exceptions

    from arena.sandbox.dockerfile import DockerfileError, check

    try:
        check(Path(bot.path) / "Dockerfile")  # again: the folder may have changed since load_bot
    except DockerfileError as exc:
        raise SandboxError(f"{bot.label}: {exc}") from None
    tag = dockerfile_tag(bot)
    limits: dict[str, Any] = {"memory": BUILD_MEMORY_MB * _MB, "memswap": BUILD_MEMORY_MB * _MB}
    if cpuset:
        limits["cpusetcpus"] = cpuset
    deadline = time.monotonic() + BUILD_SECONDS
    error = ""
    try:
        # The low-level call streams the build's output, so the deadline is
        # checked as it goes; `timeout` bounds a step that prints nothing.
        stream = client.api.build(path=bot.path, tag=tag, network_mode="none", rm=True, forcerm=True,
                                  pull=False, container_limits=limits, decode=True,
                                  timeout=BUILD_SECONDS)
        try:
            for chunk in stream:
                if isinstance(chunk, dict) and chunk.get("error"):
                    error = str(chunk["error"]).strip()
                if time.monotonic() > deadline:
                    error = f"took longer than {BUILD_SECONDS:g}s"
                    break
        finally:
            with contextlib.suppress(Exception):
                stream.close()  # closing the stream ends the daemon's build
    except docker.errors.APIError as exc:
        error = str(exc)
    except (OSError, urllib3.exceptions.HTTPError, requests.exceptions.RequestException):
        # The read timeout of a step silent for BUILD_SECONDS (raised by the
        # HTTP layer under docker, as one of these depending on where).
        error = f"took longer than {BUILD_SECONDS:g}s"
    if not error:
        try:
            size = int(client.images.get(tag).attrs.get("Size") or 0)
        except docker.errors.DockerException as exc:
            error = f"the image is missing after the build: {exc}"
        else:
            if size > IMAGE_MB * _MB:
                error = f"the image is {size // _MB} MB, more than the {IMAGE_MB} MB allowed"
    if error:
        with contextlib.suppress(docker.errors.DockerException):
            client.images.remove(tag, force=True)
        raise SandboxError(f"{bot.label}: building its Dockerfile failed: {error}")
    _remove_older(client, bot, tag)
    return tag


def _remove_older(client: Any, bot: BotSpec, keep: str) -> None:
    """Remove this bot's builds of other content hashes. One still used by a
    running container stays (docker refuses), and goes with a later build."""
    import docker.errors

    try:
        images = client.images.list(name=repository(bot))
    except docker.errors.DockerException:
        return
    for image in images:
        for tag in image.tags:
            if tag != keep and tag.startswith(f"{repository(bot)}:"):
                with contextlib.suppress(docker.errors.DockerException):
                    client.images.remove(tag)
