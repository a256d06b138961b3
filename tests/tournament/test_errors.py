"""One base for the tournament package's errors (arena/tournament/errors.py):
every exception class the package defines is a TournamentError, and keeps
the built-in class its callers caught before."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import arena.tournament
from arena.tournament.errors import TournamentError


def _defined_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(arena.tournament.__path__, "arena.tournament."):
        if info.name.endswith("dask_executor"):
            continue  # imports dask at load; its errors are the executors' (worker.py)
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == info.name):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_error_of_the_package_is_a_tournament_error() -> None:
    found = _defined_exceptions()
    assert len(found) >= 10
    assert [name for name, cls in found.items() if not issubclass(cls, TournamentError)] == []


def test_each_keeps_its_builtin_class() -> None:
    from arena.tournament.executors.worker import ExecutorError
    from arena.tournament.run.runlock import RunLocked
    from arena.tournament.store import StoreError, StoreMissing

    assert issubclass(StoreMissing, StoreError) and issubclass(StoreError, ValueError)
    assert issubclass(RunLocked, RuntimeError) and issubclass(ExecutorError, RuntimeError)
    assert not issubclass(TournamentError, (ValueError, RuntimeError))
