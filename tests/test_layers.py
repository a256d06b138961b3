"""The layer rule and the no-cycle rule of ARCHITECTURE.md hold for the
arena package (tests/layering.py reads the imports from the source), and
the check finds a planted violation of each in a package tree of its own."""

from __future__ import annotations

import re
from pathlib import Path

from layering import LAYERS, cycles, import_graph, layer_violations, unplaced

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_imports_only_lower_layers() -> None:
    graph = import_graph(ROOT, "arena")
    assert unplaced(graph) == []
    assert layer_violations(graph) == []


def test_no_module_imports_itself_back() -> None:
    assert cycles(import_graph(ROOT, "arena")) == []


def test_architecture_md_states_the_layers_the_test_enforces() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    found = re.search(r"^    (\S.* <- .*)$", text, re.MULTILINE)
    assert found is not None, "ARCHITECTURE.md has no layer line ('    game <- wire <- ...')"
    written = [tuple(p.strip() for p in part.strip().strip("{}").split(","))
               for part in found.group(1).split("<-")]
    assert tuple(written) == LAYERS


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"arena/__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            init = root / parent / "__init__.py"
            if parent != Path(".") and not init.exists():
                init.write_text("")
        path.write_text(text)
    return root


def test_a_planted_upward_import_is_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "arena/game/state.py": "def f():\n    from arena.web import app  # lazy: still counted\n",
        "arena/web/app.py": "from arena.game import state\n",
        "arena/sdk/bot.py": "from arena.sandbox.process import spawn\n",
        "arena/sandbox/process.py": "import arena\nfrom ..game import state\n",
    })
    graph = import_graph(root, "arena")
    assert graph["arena.game.state"] == {"arena.web.app"}
    assert graph["arena.sandbox.process"] == {"arena", "arena.game.state"}  # relative, resolved
    assert layer_violations(graph) == [
        "arena.game.state imports arena.web.app: web is a higher layer than game",
        "arena.sdk.bot imports arena.sandbox.process: sdk and sandbox share a layer and are independent",
    ]


def test_a_planted_cycle_and_an_unplaced_package_are_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "arena/game/a.py": "from arena.game import b\n",
        "arena/game/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from arena.game.c import X\n",
        "arena/game/c.py": "import arena.game.a\n",
        "arena/game/d.py": "from arena.game import a\n",  # into the cycle, not in it
        "arena/extras/thing.py": "",
    })
    graph = import_graph(root, "arena")
    assert cycles(graph) == [["arena.game.a", "arena.game.b", "arena.game.c"]]
    assert unplaced(graph) == ["extras"]
