"""CPU seconds per test, beside pytest's wall-clock `--durations`: where
the suite's time goes on a machine whose cores are all busy (CI here: the
whole run is bound by its CPU, so a test's wall time says more of the
machine's load than of its own cost).

Each phase (setup, call, teardown) of a test is charged the CPU its worker
process used meanwhile, its own and that of the children it waited for
(a `tournament run` child and the bots it started and reaped); a
container's is the Docker engine's, not counted. The figures ride on the
reports' user_properties, so pytest-xdist brings them to the controller,
which prints the 30 costliest tests and the total, and writes them all to
test-artefacts/test-cpu.tsv (`--cpu-report=0` turns it off).
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

KEY = "cpu_seconds"
_ROOT = Path(__file__).resolve().parents[1]
_spent: dict[str, float] = {}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-report", type=int, default=30, metavar="N",
                     help="list the N tests that used the most CPU (0: none, no file)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None]:
    start = _cpu()
    yield
    item.user_properties.append((KEY, _cpu() - start))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None]:
    start = _cpu()
    yield
    item.user_properties.append((KEY, _cpu() - start))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None]:
    start = _cpu()
    yield
    item.user_properties.append((KEY, _cpu() - start))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "teardown":
        return  # the teardown report carries every phase's figure
    spent = sum(float(v) for k, v in report.user_properties if k == KEY)
    _spent[report.nodeid] = _spent.get(report.nodeid, 0.0) + spent


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    n = int(config.getoption("--cpu-report"))
    if n <= 0 or not _spent or hasattr(config, "workerinput"):
        return
    ranked = sorted(_spent.items(), key=lambda kv: -kv[1])
    total = sum(_spent.values())
    terminalreporter.write_sep("=", f"most CPU {min(n, len(ranked))} (of {total:.0f} CPU s in all)")
    for nodeid, secs in ranked[:n]:
        terminalreporter.write_line(f"{secs:8.2f}s  {nodeid}")
    out = _ROOT / "test-artefacts"
    out.mkdir(exist_ok=True)
    (out / "test-cpu.tsv").write_text(
        "".join(f"{secs:.3f}\t{nodeid}\n" for nodeid, secs in ranked), encoding="utf-8")
