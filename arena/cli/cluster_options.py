"""The options every command that talks to a Dask scheduler takes, defined
once so that `tournament run`, `worker`, `ladder serve` and `ladder finals`
say the same thing (the check itself: arena.tournament.scheduler_problem)."""

from __future__ import annotations

from typing import Annotated

import typer

TlsOption = Annotated[str, typer.Option(
    "--tls", help="the folder of the cluster's certificates (arena cluster certs DIR), "
    "for a tls:// scheduler")]
InsecureOption = Annotated[bool, typer.Option(
    "--insecure", help="allow plain tcp:// to a scheduler on another machine "
    "(unencrypted, unauthenticated)")]
