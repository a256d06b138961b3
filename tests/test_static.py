"""The static checks as tests, so CI enforces them: mypy --strict on the
package and ruff over all the Python in the repository. Both tools are
pinned in the `dev` extra, which scripts/setup.sh installs."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPED = ["arena"]  # [tool.mypy] in pyproject.toml: strict, arena/wire/gen excluded
LINTED = ["arena", "tests", "benchmarks", "sample_bots"]  # the Python folders; rules: [tool.ruff]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed for {sys.executable}; install the dev extra "
                    f"(pip install -e '.[dev]', as scripts/setup.sh does)", pytrace=False)
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def _report(tool: str, done: subprocess.CompletedProcess[str]) -> str:
    version = importlib.metadata.version(tool)
    command = " ".join(["python", *done.args[1:]])
    output = done.stdout + done.stderr
    return f"`{command}` ({tool} {version}) exited with {done.returncode}:\n{output}"


@pytest.mark.slow
def test_mypy_strict() -> None:
    done = _run("mypy", "--strict", *TYPED)
    returncode = done.returncode
    assert returncode == 0, _report("mypy", done)


@pytest.mark.slow
def test_ruff() -> None:
    done = _run("ruff", "check", "--no-fix", *LINTED)
    returncode = done.returncode
    assert returncode == 0, _report("ruff", done)
