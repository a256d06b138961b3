"""`arena worker --scheduler ADDRESS`: this machine plays matches of the runs
that use that Dask scheduler (docs/tournaments.md, "Running on other machines")."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.cluster_options import InsecureOption, TlsOption


def worker(
    scheduler: Annotated[str, typer.Option(
        "--scheduler", help="the Dask scheduler's address (tls://host:port, or tcp://host:port "
        "on this machine)")],
    name: Annotated[str, typer.Option(
        "--name", help="this worker's name on the scheduler (default: host name and pid)")] = "",
    folder: Annotated[Path, typer.Option(
        "--folder", help="this worker's own folder (Dask's scratch space)")] = Path("arena-worker"),
    sandbox: Annotated[str, typer.Option(
        "--sandbox", help="refuse to start unless this sandbox level works here "
        "(docker, bwrap, process; default auto: any)")] = "auto",
    tls: TlsOption = "",
    insecure: InsecureOption = False,
) -> None:
    """Play matches for the runs of a Dask scheduler. On start it checks this
    machine (the sandbox level asked for); each run's coordinator then checks
    that it plays with the same arena and rules engine as its own, and
    refuses it (one line on both sides, exit status 1) if not."""
    import os

    from arena.tournament import dask_address_problem, run_worker

    if scheduler == "local" or dask_address_problem(scheduler):
        typer.echo(f"error: --scheduler {scheduler!r}: expected tls://host:port or "
                   "tcp://host:port", err=True)
        raise typer.Exit(2)
    code = run_worker(scheduler, name or f"{socket.gethostname()}-{os.getpid()}",
                      folder.resolve(), sandbox, tls, insecure)
    raise typer.Exit(code)


cluster_app = typer.Typer(help="A Dask cluster of other machines: its certificates.",
                          no_args_is_help=True)


@cluster_app.command("certs")
def certs(
    folder: Annotated[Path, typer.Argument(help="where to write them (made if missing)")],
    days: Annotated[int, typer.Option("--days", min=1, max=3650,
                                      help="how long they are valid")] = 365,
) -> None:
    """Make a cluster CA and one certificate it signs (with openssl) for
    tls:// between the coordinator, the scheduler and the workers: copy
    ca.pem, cluster.pem and cluster.key to every machine and give their
    folder as --tls; keep ca.key away from them."""
    from arena.tournament import CertsError, make_certs

    try:
        made = make_certs(folder, days)
    except CertsError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for path in made:
        typer.echo(str(path))


def register(app: typer.Typer) -> None:
    app.command("worker")(worker)
    app.add_typer(cluster_app, name="cluster")
