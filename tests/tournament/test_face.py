"""The tournament package's face (arena/tournament/__init__.py): every name
it exports resolves, the command line, the web app and arena verify import
the package only through it, and a name loads only its own module."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import arena.tournament

ROOT = Path(__file__).resolve().parents[2]


def test_every_exported_name_resolves_to_its_module() -> None:
    assert set(arena.tournament.__all__) == set(arena.tournament._HOME) | set(arena.tournament._MODULES)
    for name in arena.tournament.__all__:
        value = getattr(arena.tournament, name)
        if name in arena.tournament._MODULES:
            assert value is sys.modules[f"arena.tournament.{arena.tournament._MODULES[name]}"], name
            continue
        module, attr = arena.tournament._HOME[name]
        assert value is getattr(sys.modules[f"arena.tournament.{module}"], attr), name


def test_other_packages_import_only_the_face() -> None:
    found = []
    for package in ("cli", "web", "verify", "ladder"):
        for path in (ROOT / "arena" / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("arena.tournament."):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}")
    assert found == []


@pytest.mark.slow  # a Python process of its own: a fresh sys.modules
def test_a_name_loads_its_own_module_only() -> None:
    code = ("import json, sys; from arena.tournament import load_config, Store; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('arena.tournament.') "
            "or m in ('numpy', 'trueskill', 'dask'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=60)
    loaded = set(json.loads(done.stdout))
    assert {"arena.tournament.plan.config", "arena.tournament.store"} <= loaded
    assert not loaded & {"numpy", "trueskill", "dask", "arena.tournament.rating.ratings",
                         "arena.tournament.run.coordinator"}, loaded
