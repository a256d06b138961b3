"""The pages' pure JavaScript (arena/web/static/cards.js, record.js) under
`node --test tests/web/js` (node's own runner, no dependencies): one pytest
test that fails when any of them fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).resolve().parent / "js"


@pytest.mark.slow  # a node process
def test_the_pages_javascript_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is missing: scripts/setup.sh installs it")
        pytest.skip("node is missing (the JS unit tests need `node --test`)")
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    assert files, f"no JS tests in {JS_TESTS}"
    proc = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120,
                          cwd=JS_TESTS)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout and "# pass " in proc.stdout, proc.stdout[-2000:]
