"""`arena sandbox build-images` says what its lines mean (the set-up prints
them: scripts/docker.sh), and docs/sandbox.md shows the same line."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from clihelp import cli

from arena.sandbox import available_levels

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^(arena-[a-z]+):1 -> \1:[0-9a-f]{16}  \(bot\.toml's `image = \"\1:1\"` runs "
                  r"this build; the tag is a hash of its inputs, rebuilt only when they change\)$")


def test_the_documented_line_is_the_one_printed() -> None:
    docs = (ROOT / "docs" / "sandbox.md").read_text()
    shown = [line for line in docs.splitlines() if line.startswith("arena-python:1 -> ")]
    assert len(shown) == 1 and LINE.match(shown[0]), shown


@pytest.mark.slow
@pytest.mark.docker
def test_build_images_explains_each_line() -> None:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    done = cli("sandbox", "build-images")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(LINE.match(line) for line in lines), lines
    assert lines[0].startswith("arena-python:1 -> ")
    from arena.sandbox.base_images import shell_tools_present

    if shell_tools_present():
        assert any(line.startswith("arena-shell:1 -> ") for line in lines)
        jq = subprocess.run(["docker", "run", "--rm", "--network", "none", "arena-shell:1",
                             "jq", "--version"], capture_output=True, text=True, check=False,
                            timeout=120)
        assert jq.returncode == 0 and jq.stdout.startswith("jq-"), jq.stderr
