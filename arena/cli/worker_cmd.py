"""`arena worker --scheduler ADDRESS`: this machine plays matches of the runs
that use that Dask scheduler (docs/tournaments.md, "Running on other machines")."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer


def worker(
    scheduler: Annotated[str, typer.Option(
        "--scheduler", help="the Dask scheduler's address (tcp://host:port)")],
    name: Annotated[str, typer.Option(
        "--name", help="this worker's name on the scheduler (default: host name and pid)")] = "",
    folder: Annotated[Path, typer.Option(
        "--folder", help="this worker's own folder (Dask's scratch space)")] = Path("arena-worker"),
    sandbox: Annotated[str, typer.Option(
        "--sandbox", help="refuse to start unless this sandbox level works here "
        "(docker, bwrap, process; default auto: any)")] = "auto",
) -> None:
    """Play matches for the runs of a Dask scheduler. On start it checks this
    machine (the sandbox level asked for); each run's coordinator then checks
    that it plays with the same arena and rules engine as its own, and
    refuses it (one line on both sides, exit status 1) if not."""
    import os

    from arena.tournament import dask_address_problem, run_worker

    if scheduler == "local" or dask_address_problem(scheduler):
        typer.echo(f"error: --scheduler {scheduler!r}: expected tcp://host:port", err=True)
        raise typer.Exit(2)
    code = run_worker(scheduler, name or f"{socket.gethostname()}-{os.getpid()}",
                      folder.resolve(), sandbox)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("worker")(worker)
