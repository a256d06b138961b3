"""`arena bot add` plays a validation match before a bot enters: a bot that
cannot start, never connects or plays illegally is refused with the reason
in one line, and nothing stored changes. Real CLI, real bot processes, a
tournament store with results."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from clihelp import ROOT, cli
from testbots import carry_plumbing

RANDOM_B = ROOT / "tournaments" / "sample" / "random_b"


def copy_bot(source: Path, target: Path, name: str, run: str | None = None) -> Path:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    toml = target / "bot.toml"
    lines = []
    for line in toml.read_text().splitlines():
        if line.startswith("name ="):
            line = f'name = "{name}"'
        if run is not None and line.startswith("run ="):
            line = f'run = "{run}"'
        lines.append(line)
    toml.write_text("\n".join(lines) + "\n")
    return target


def state(folder: Path) -> tuple[object, ...]:
    """Everything stored: the rows of the store and every file's content."""
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        rows = tuple(tuple(db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall())
                     for t in ("bots", "matches", "faults", "rating_history", "meta"))
    files = tuple(sorted((str(p.relative_to(folder)), hashlib.sha256(p.read_bytes()).hexdigest())
                         for p in folder.rglob("*") if p.is_file()
                         and not p.name.startswith("tournament.sqlite")))
    return rows, files


@pytest.mark.slow
def test_validation_match_refuses_broken_bots_and_keeps_results(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    field = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random", RANDOM_B]
    listed = ", ".join(f'"{p}"' for p in field)
    (folder / "tournament.toml").write_text(f'''
name = "v"
seed = 1234567890123
sandbox = "process"
replays = false
bootstrap = 20
bots = [{listed}]
[rules]
preset = "standard"
target = 500
max_deals = 4
[time_control]
per_move = 5.0
bank = 60.0
startup = 30.0
''')
    run = cli("tournament", "run", folder, "-q")
    assert run.returncode == 0, run.stderr
    before = state(folder)
    assert len(before[0][1]) == 6  # six finished matches

    python4 = copy_bot(RANDOM_B, tmp_path / "p4", "p4", run="python4 bot.py")
    silent = copy_bot(RANDOM_B, tmp_path / "silent", "silent")
    (silent / "bot.py").write_text("print('hello, I never connect')\n")
    illegal = copy_bot(ROOT / "tests" / "bots" / "illegal", tmp_path / "illegal", "illegal")
    carry_plumbing(illegal)  # a sandboxed bot sees its own folder only (tests/testbots.py)
    for bot, reason in ((python4, "python4"), (silent, "connect"), (illegal, "legality")):
        proc = cli("bot", "add", folder, bot)
        assert proc.returncode == 2, (bot, proc.stdout, proc.stderr)
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
        assert "refused, the validation match failed" in proc.stderr and reason in proc.stderr
        assert state(folder) == before, bot  # nothing stored changed
    good = copy_bot(RANDOM_B, tmp_path / "good", "good")
    proc = cli("bot", "add", folder, good)
    assert proc.returncode == 0, proc.stderr
    assert "added (its first version)" in proc.stdout
    after = state(folder)
    assert after[0][1] == before[0][1]  # the results are untouched
    assert [row[1] for row in after[0][0]] == ["greedy", "random", "random_b", "good"]
