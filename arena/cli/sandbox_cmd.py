"""`arena sandbox ...`: which confinement levels work here; the bot images."""

from __future__ import annotations

from typing import Annotated

import typer

sandbox_app = typer.Typer(help="Sandbox: available levels, bot images, cleanup.",
                          no_args_is_help=True)


@sandbox_app.command("levels")
def levels() -> None:
    """List the sandbox levels, strongest first, and whether each works here."""
    from arena.sandbox import LEVELS, available_levels

    have = available_levels()
    for level in LEVELS:
        state = "available" if level in have else "unavailable"
        detail = ""
        if level == "docker" and level in have:
            from arena.sandbox import docker_level
            from arena.sandbox.base_images import NODE_IMAGE, PYTHON_IMAGE, SHELL_IMAGE

            imgs = [i for i in (PYTHON_IMAGE, NODE_IMAGE, SHELL_IMAGE) if docker_level.image_present(i)]
            detail = f" (images: {', '.join(imgs) or 'none; run `arena sandbox build-images`'})"
        if level == "process":
            from arena.sandbox.process import private_mounts_available

            detail = (" (a mount namespace of its own per bot: private /tmp and /dev/shm)"
                      if private_mounts_available() else
                      " (not root: the bots share the machine's /tmp and the referee's user; "
                      "docs/sandbox.md)")
        typer.echo(f"{level:8} {state}{detail}")
    typer.echo(f"auto     -> {have[0] if have else 'none'} (for a bot that can run there)")


@sandbox_app.command("build-images")
def build_images(
    force: Annotated[bool, typer.Option(help="rebuild even if up to date")] = False,
) -> None:
    """Build the bot images arena-python:1, arena-node:1 and arena-shell:1 (sh, jq and awk
    for stdio bots, where this machine has them) from this machine's files (no network)."""
    from arena.sandbox import SandboxError, docker_level
    from arena.sandbox.base_images import ImageBuildError, build_all

    try:
        built = build_all(docker_level.client(), force=force)
    except (SandboxError, ImageBuildError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    # Each line: the tag bot.toml files name -> the build it now points at,
    # tagged with a hash of that build's inputs (docs/sandbox.md, "Docker images").
    for stable, full in built.items():
        typer.echo(f"{stable} -> {full}  (bot.toml's `image = \"{stable}\"` runs this build; "
                   "the tag is a hash of its inputs, rebuilt only when they change)")


@sandbox_app.command("cleanup")
def cleanup() -> None:
    """Remove bot containers and cgroups left behind by arena processes that died."""
    from arena.sandbox import cgroups, docker_level

    removed = 0
    if docker_level.engine_reachable():
        removed = docker_level.cleanup_stale()
    groups = cgroups.remove_stale()
    typer.echo(f"removed {removed} stale container(s), {groups} stale cgroup(s)")


def register(app: typer.Typer) -> None:
    app.add_typer(sandbox_app, name="sandbox")
