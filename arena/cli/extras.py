"""Which extra of the package a missing module comes from, told in one line.

The base package holds what a bot author needs (the engine, the wire, the
SDK); the command line and the arena's own machinery are extras
(pyproject.toml, ARCHITECTURE.md "Packaging"). Commands import their
libraries lazily, so a command whose extra is not installed fails at that
import: `missing_line` says which extra to install. No third-party import
here: it must work when they are all missing.
"""

from __future__ import annotations

import sys

DIST = "thousand-arena"
# extra -> the top-level modules the arena imports from it (tests/test_extras.py
# checks these against pyproject.toml and against what each package imports).
EXTRAS: dict[str, tuple[str, ...]] = {
    "cli": ("typer", "click"),
    "tournament": ("trueskill", "numpy"),
    "dask": ("dask", "distributed"),
    "docker": ("docker", "requests", "urllib3"),
    "web": ("starlette", "uvicorn", "websockets", "jinja2", "anyio", "httptools"),  # uvicorn imports httptools
    "env": ("pettingzoo", "gymnasium", "pyspiel", "open_spiel"),
}
_EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


def extra_of(module: str) -> str | None:
    """The extra that provides top-level module `module`, or None."""
    return _EXTRA_OF.get(module.split(".")[0])


def missing_line(module: str) -> str:
    """One line for a command that needs `module`, which is not installed."""
    top = module.split(".")[0]
    extra = extra_of(top)
    where = (f"this command needs the '{extra}' extra: pip install '{DIST}[{extra}]' "
             f"(or '{DIST}[all]'; in a checkout: run `make setup`, bash scripts/setup.sh)"
             if extra else
             "a dependency added since it was set up? run `make setup` (bash scripts/setup.sh)")
    return f"error: the Python package {top!r} is not installed in {sys.prefix}: {where}"
