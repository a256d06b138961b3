"""The arena's import graph, read from the source (no module is imported),
and the two rules ARCHITECTURE.md states for it ("Layers"):

- a package imports only packages of lower layers (or of the same layer
  when that layer is one package); packages that share a layer are
  independent of each other;
- no module imports itself back through others (no cycle), inside a package
  or across.

Every import counts: at module level, inside a function (a lazy import is
still a dependency) and under `if TYPE_CHECKING:`. `from a.b import c`
is an import of the module `a.b.c` when there is one, else of `a.b`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

# Lowest first. A package imports only packages of the layers below its own.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("game", "manifest"),
    ("wire",),
    ("sandbox", "sdk", "bridge"),
    ("referee", "env"),
    ("tournament",),
    ("ladder", "analysis"),
    ("web", "verify"),
    ("cli",),
)

Graph = dict[str, set[str]]


def modules(root: Path, top: str) -> dict[str, Path]:
    """Every module of package `top` under `root`: dotted name -> file."""
    out: dict[str, Path] = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(root: Path, top: str) -> Graph:
    """Module -> the modules of `top` it imports."""
    found = modules(root, top)

    def known(name: str) -> str | None:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {}
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(t for a in node.names if _ours(a.name, top) and (t := known(a.name)))
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                if not _ours(base, top):
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    target = sub if sub in found else known(base)
                    if target:
                        targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def _ours(name: str, top: str) -> bool:
    return name == top or name.startswith(top + ".")


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def package_of(module: str) -> str:
    """`arena.referee.loop` -> `referee`; the top package itself -> ""."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def unplaced(graph: Graph, layers: Sequence[Sequence[str]] = LAYERS) -> list[str]:
    """Packages that no layer names (a new package must be placed)."""
    placed = {p for layer in layers for p in layer}
    return sorted({package_of(m) for m in graph} - placed - {""})


def layer_violations(graph: Graph, layers: Sequence[Sequence[str]] = LAYERS) -> list[str]:
    """One line per import against the layer rule. The top package's own
    `__init__` (empty of imports) may be imported from anywhere."""
    level = {p: i for i, layer in enumerate(layers) for p in layer}
    out: list[str] = []
    for module, targets in sorted(graph.items()):
        src = package_of(module)
        for target in sorted(targets):
            dst = package_of(target)
            if not dst or dst == src or src not in level or dst not in level:
                continue
            if level[dst] > level[src]:
                out.append(f"{module} imports {target}: {dst} is a higher layer than {src}")
            elif level[dst] == level[src]:
                out.append(f"{module} imports {target}: {src} and {dst} share a layer "
                           "and are independent")
    return out


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected set of two or more modules,
    sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(sorted(members))
    return sorted(found)
