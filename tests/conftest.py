"""Fixtures shared by every test folder."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest_plugins = ["cputime"]  # CPU seconds per test, beside --durations (tests/cputime.py)


def _load(relative: str, name: str) -> ModuleType:
    """Import a script that is not in a package (a benchmark, a sample bot's
    policy) from its path under the repository, as module `name`."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_script() -> Callable[[str, str], ModuleType]:
    """`load_script("benchmarks/referee.py", "referee_bench")` -> the module."""
    return _load


@pytest.fixture(scope="session")
def fault_bot(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """`fault_bot("illegal")` -> a folder with tests/bots/illegal and the
    plumbing it imports (tests/testbots.py), made once per session."""
    from testbots import fault_bot_copy

    root = tmp_path_factory.mktemp("fault-bots")

    def get(name: str) -> Path:
        folder = root / name
        return folder if folder.exists() else fault_bot_copy(name, root)

    return get


# Tiers (docs/testing.md): every test not marked with one of these is `unit`,
# so `-m unit` is the quick in-process tier.
_NOT_UNIT = frozenset({"slow", "docker", "bwrap", "browser", "toolchains", "serial"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = {m.name for m in item.iter_markers()}
        if not names & _NOT_UNIT:
            item.add_marker(pytest.mark.unit)
        if "serial" in names:
            # pytest-xdist's --dist loadgroup runs a group on one worker, in
            # turn: these tests never overlap each other (they still share
            # the machine with the other workers' tests).
            item.add_marker(pytest.mark.xdist_group("serial"))
        _group_in_nodeid(config, item)


def _group_in_nodeid(config: pytest.Config, item: pytest.Item) -> None:
    """--dist loadgroup learns a test's group from a suffix of its node id
    (`path::test@group`), which xdist (3.8) writes into the item's legacy
    `_nodeid` field. pytest 9.2 builds node ids from a structured id, so
    that write is lost: every group was silently spread over all workers
    (the serial tests ran side by side; each worker played a module's
    expensive fixture again). pytest-dev/pytest-xdist#1386, open. Until
    xdist writes it, the suffix is put into the structured id here."""
    if not getattr(config.option, "loadgroup", False) or not hasattr(item, "_id"):
        return
    groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                     for m in item.iter_markers("xdist_group")})
    if not groups or "@" in item.nodeid.rpartition("]")[2]:
        return  # no group, or xdist's own suffix took effect
    from _pytest.nodeid import NodeId

    item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")
