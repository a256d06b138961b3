"""Packaging: the base package is a bot author's (grpcio and protobuf), the
rest comes in extras (pyproject.toml, arena/cli/extras.py, ARCHITECTURE.md
"Packaging"). Checked three ways: the imports read from the source, the
command line with a module hidden, and a real virtualenv holding only the
base package, whose Python plays a whole match as an SDK bot."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from arena.cli.extras import EXTRAS, extra_of

ROOT = Path(__file__).resolve().parents[1]
BASE_PACKAGES = ("game", "wire", "sdk", "bridge", "manifest")  # what a bot author imports
BASE_MODULES = {"grpc", "google", "typing_extensions"}  # grpcio, protobuf (and grpcio's own need)


def third_party_imports() -> dict[str, set[str]]:
    """arena package -> the top-level modules outside the standard library and
    the arena that its source imports (lazy imports included)."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "arena").rglob("*.py"):
        parts = path.relative_to(ROOT / "arena").parts
        package = parts[0].removesuffix(".py") if len(parts) > 1 or parts[0] != "__init__.py" else ""
        found = out.setdefault(package, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and not node.level and node.module
                     else [])
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "arena":
                    found.add(top)
    return out


def test_the_base_packages_import_only_grpc_and_protobuf() -> None:
    imports = third_party_imports()
    for package in BASE_PACKAGES:
        assert imports[package] <= BASE_MODULES, package


def test_every_other_library_the_arena_imports_has_its_extra() -> None:
    used = set().union(*third_party_imports().values()) - BASE_MODULES
    assert used and {m: extra_of(m) for m in used if extra_of(m) is None} == {}


def test_pyproject_extras_are_the_ones_the_cli_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [re.split(r"[<>=\[ ]", d)[0] for d in project["dependencies"]]
    assert names == ["grpcio", "protobuf"]
    extras = project["optional-dependencies"]
    assert set(EXTRAS) <= set(extras) and "all" in extras
    for extra, modules in EXTRAS.items():
        dists = {re.split(r"[<>=\[ ]", d)[0] for d in extras[extra]} - {"thousand-arena"}
        # Each distribution of the extra provides one of the modules named for it.
        for dist in dists:
            top = (importlib.metadata.distribution(dist).read_text("top_level.txt") or dist).split()
            provided = set(top) | {dist.replace("-", "_")}
            assert provided & set(modules), (extra, dist, provided)
    assert extras["all"] == [f"thousand-arena[{','.join(EXTRAS)}]"]


@pytest.mark.slow
@pytest.mark.parametrize(("hidden", "argv", "extra"), [
    ("typer", ["rules", "list"], "cli"),
    ("starlette", ["serve", "tournaments/sample", "--port", "0"], "web"),
    ("numpy", ["leaderboard", "show", "tournaments/sample"], "tournament"),
])
def test_a_command_whose_extra_is_missing_names_it_in_one_line(hidden: str, argv: list[str],
                                                               extra: str) -> None:
    code = (f"import sys; sys.modules[{hidden!r}] = None; from arena.cli import main; "
            f"sys.argv = ['arena', *{argv!r}]; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: the Python package {hidden!r} is not installed")
    assert f"needs the '{extra}' extra: pip install 'thousand-arena[{extra}]'" in lines[0]


BOT = '''
import importlib.util
import sys

# A bare environment: none of the extras' libraries can be imported at all.
for name in ("typer", "numpy", "trueskill", "dask", "docker", "starlette", "uvicorn", "jinja2"):
    if importlib.util.find_spec(name) is not None:
        sys.exit(f"{name} is importable: not a bare environment")

from arena.sdk import Bot, run


class FirstLegal(Bot):
    name = "bare"
    version = "1"

    def act(self, obs):
        return obs.legal_actions[0]

    def on_match_end(self, end):
        # Every module loaded from the environment's own site-packages.
        site = [p for p in sys.path if p.endswith("site-packages")]
        loaded = sorted({name.split(".")[0] for name, m in list(sys.modules.items())
                         if any((getattr(m, "__file__", None) or "").startswith(s) for s in site)})
        print("loaded:", " ".join(loaded), "prefix:", sys.prefix, file=sys.stderr, flush=True)


raise SystemExit(run(FirstLegal()))
'''


def _install_base(venv: Path) -> None:
    """A virtualenv with the base package only: grpcio, protobuf and
    grpcio's typing-extensions copied file by file from their installed
    records (as pip would lay them out), the arena's source beside them."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next(venv.glob("lib/python*/site-packages"))
    for dist in ("grpcio", "protobuf", "typing_extensions"):
        d = importlib.metadata.distribution(dist)
        for file in d.files or ():
            source = Path(str(d.locate_file(file)))
            if source.is_file() and "__pycache__" not in file.parts and ".." not in file.parts:
                target = site / file
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
    shutil.copytree(ROOT / "arena", site / "arena", ignore=shutil.ignore_patterns("__pycache__"))


@pytest.mark.slow
def test_a_virtualenv_with_only_the_base_package_plays_a_match_as_an_sdk_bot(tmp_path: Path) -> None:
    from arena.referee import MatchSpec, TimeControl, run_match
    from arena.sandbox.botfile import load_bot

    folder = tmp_path / "bare"
    folder.mkdir()
    # In the bot's own folder: the process level shows a bot its folder
    # wherever it lies (and gives it a /tmp of its own).
    _install_base(folder / "venv")
    (folder / "bot.py").write_text(BOT)
    (folder / "bot.toml").write_text('name = "bare"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "venv/bin/python bot.py"\n')
    bare = load_bot(folder)
    spec = MatchSpec(match_id="bare", bots=(bare, bare, bare), seed=11, sandbox="process",
                     rules_options=(("max_deals", 1),), work_dir=str(tmp_path / "logs"),
                     time_control=TimeControl(per_move=5.0, bank=10.0, startup=60.0))
    result = run_match(spec)
    assert [s.status for s in result.seats] == ["ok"] * 3, [s.fault_log for s in result.seats]
    assert all(s.decisions > 0 and not any(n for _, n in s.faults) for s in result.seats)
    for seat in result.seats:
        told = Path(seat.log_path).read_text()
        found = re.search(r"loaded: (.*) prefix: (.*)", told)
        assert found is not None, told
        assert {"arena", "grpc", "google"} <= set(found.group(1).split()) <= BASE_MODULES | {"arena"}
        assert Path(found.group(2)).resolve() == (folder / "venv").resolve()
