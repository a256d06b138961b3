"""Whole tournaments of real sample bots through the `arena` CLI: real
referee, real bot processes, short games (target 500, max 4 deals).

One uninterrupted run (local pool, 2 workers) is the reference; a run at
concurrency 1 that is SIGKILLed mid-way and resumed (at concurrency 2),
and a Dask LocalCluster run, must give exactly the same results and table."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from clihelp import ROOT, cli_ok, start
from clihelp import cli as unchecked

from arena.tournament.plan.config import GUESSABLE_SEED

# One xdist worker for the module: the reference tournament (a module
# fixture, half a minute) is then played once, not once per worker.
pytestmark = pytest.mark.xdist_group("e2e-reference")


def bots(tmp: Path) -> list[Path]:
    out = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random",
           ROOT / "tournaments" / "sample" / "random_b"]
    js = ROOT / "sample_bots" / "javascript"
    if shutil.which("node") and (js / "node_modules").is_dir():
        out.append(js)
    else:  # no Node.js here: a third random bot keeps the field at 4
        third = tmp / "random_c"
        shutil.copytree(ROOT / "tournaments" / "sample" / "random_b", third)
        toml = third / "bot.toml"
        toml.write_text(toml.read_text().replace('"random_b"', '"random_c"'))
        out.append(third)
    return out


def write_tournament(folder: Path, field: list[Path]) -> Path:
    folder.mkdir(parents=True)
    listed = ",\n".join(f'    "{p}"' for p in field)
    (folder / "tournament.toml").write_text(f'''
name = "e2e"
seed = 42
duplicate_sets = 1
sandbox = "process"
replays = true
bootstrap = 50
bots = [
{listed},
]
[rules]
preset = "standard"
target = 500
max_deals = 4
[time_control]
per_move = 5.0
bank = 60.0
startup = 60.0
''')
    return folder


def cli(*args: object, check: bool = True) -> subprocess.CompletedProcess[str]:
    return (cli_ok if check else unchecked)(*args, timeout=900)


def finished(folder: Path) -> int:
    try:
        with sqlite3.connect(folder / "tournament.sqlite", timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM matches WHERE status='finished'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def results(folder: Path) -> dict[str, object]:
    """What each match produced, without wall-clock times and paths."""
    out: dict[str, object] = {}
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        for match_id, text in db.execute("SELECT match_id, result FROM matches ORDER BY match_id"):
            r = json.loads(text)
            out[match_id] = (r["finish"], r["deals"], [
                (s["bot"], s["total"], s["place"], s["status"], s["faults"]) for s in r["seats"]])
    return out


def table_rows(out: Path) -> list[dict[str, object]]:
    return json.loads((out / "leaderboard.json").read_text())["rows"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Path]]:
    tmp = tmp_path_factory.mktemp("e2e")
    field = bots(tmp)
    folder = write_tournament(tmp / "reference", field)
    run = cli("tournament", "run", folder, "--concurrency", "2")
    assert "24/24 matches finished" in run.stdout
    cli("leaderboard", "publish", folder, "--out", tmp / "board")
    return folder, tmp / "board", field


@pytest.mark.slow
def test_sample_bots_tournament_publishes_all_formats_and_ranks_greedy_first(reference) -> None:
    folder, board, _ = reference
    assert sorted(p.name for p in board.iterdir()) == [
        "bundle", "index.html", "leaderboard.csv", "leaderboard.json", "leaderboard.md", "site"]
    assert (board / "site" / "index.html").is_file()  # the browsable site (docs/web.md)
    # The results bundle proves the published table (docs/tournaments.md).
    checked = unchecked("verify", board)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-1].startswith("verified: "), checked.stdout
    rows = table_rows(board)
    ranks = {row["bot"]: row["rank"] for row in rows}
    assert ranks["greedy"] < ranks["random"] and ranks["greedy"] < ranks["random_b"]
    assert all(row["matches"] == 18 for row in rows)  # 3 tables x 6 seat orders each
    assert all(row["crashes"] == 0 and row["timeouts"] == 0 for row in rows)
    shown = cli("leaderboard", "show", folder).stdout
    assert shown == (board / "leaderboard.md").read_text()
    html = (board / "index.html").read_text()
    assert "<svg" in html and "greedy" in html and "<script" not in html
    assert (board / "leaderboard.md").read_text().count("\n| ") == 4 + 1  # header + 4 bots
    assert (board / "leaderboard.csv").read_text().splitlines()[0].startswith("rank,bot,version")
    assert len(list((folder / "replays").glob("*.jsonl"))) == 24


@pytest.mark.slow
def test_sigkill_at_concurrency_1_then_resume_gives_the_same_results(reference, tmp_path) -> None:
    ref_folder, ref_board, field = reference
    folder = write_tournament(tmp_path / "killed", field)
    proc = start("tournament", "run", folder, "--quiet", "--concurrency", "1",
                 start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while finished(folder) < 6 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    before = finished(folder)
    assert 6 <= before < 24
    # Resumed two at a time (as the reference ran): the results depend on neither.
    run = cli("tournament", "run", folder, "--concurrency", "2")
    assert f"24/24 matches finished ({24 - before} played now, 0 failed)" in run.stdout
    cli("leaderboard", "publish", folder, "--out", tmp_path / "board")
    assert results(folder) == results(ref_folder)
    assert table_rows(tmp_path / "board") == table_rows(ref_board)


@pytest.mark.slow
def test_dask_run_gives_the_same_results(reference, tmp_path) -> None:
    ref_folder, ref_board, field = reference
    folder = write_tournament(tmp_path / "dask", field)
    # The reference ran on CPU slots; results do not depend on them.
    cli("tournament", "run", folder, "--quiet", "--dask", "local", "--concurrency", "2",
        "--no-cpu-slots")
    cli("leaderboard", "publish", folder, "--out", tmp_path / "board")
    assert results(folder) == results(ref_folder)
    assert table_rows(tmp_path / "board") == table_rows(ref_board)


@pytest.mark.slow
def test_new_writes_a_commented_example_and_bad_configs_store_nothing(tmp_path) -> None:
    folder = tmp_path / "fresh"
    cli("tournament", "new", folder, "--bot", ROOT / "sample_bots" / "greedy",
        "--bot", ROOT / "sample_bots" / "random")
    text = (folder / "tournament.toml").read_text()
    assert text.count("# ") > 10  # commented
    listed = tomllib.loads(text)["bots"]
    assert listed == ["sources/greedy", "sources/random"]  # copies: the folder is movable
    assert [(folder / p / "bot.py").read_bytes() for p in listed] == [
        (ROOT / "sample_bots" / n / "bot.py").read_bytes() for n in ("greedy", "random")]
    again = cli("tournament", "new", folder, check=False)
    assert again.returncode == 2 and "already exists" in again.stderr
    few = cli("tournament", "run", folder, check=False)  # only 2 bots listed
    assert few.returncode == 2
    assert few.stderr.strip().count("\n") == 0
    assert "key 'bots': a three-seat tournament needs at least 3 bots, found 2" in few.stderr
    assert not (folder / "tournament.sqlite").exists()
    show = cli("leaderboard", "show", folder, check=False)
    assert show.returncode == 2 and "no results yet" in show.stderr
    # A long random seed, fresh for every new tournament: no bot can guess it.
    seed = tomllib.loads(text)["seed"]
    assert seed >= GUESSABLE_SEED
    cli("tournament", "new", tmp_path / "other")
    assert tomllib.loads((tmp_path / "other" / "tournament.toml").read_text())["seed"] != seed
    (folder / "tournament.toml").write_text(text.replace(f"seed = {seed}\n", f"sed = {seed}\n"))
    typo = cli("tournament", "run", folder, check=False)
    assert typo.returncode == 2
    assert "tournament.toml: key 'sed': unknown key (did you mean 'seed'?)" in typo.stderr
    assert not (folder / "tournament.sqlite").exists()


@pytest.mark.slow
def test_bot_add_copies_and_versions_a_bot(tmp_path) -> None:
    folder = tmp_path / "t"
    cli("tournament", "new", folder)
    src = tmp_path / "mybot"
    shutil.copytree(ROOT / "tournaments" / "sample" / "random_b", src)
    first = cli("bot", "add", folder, src)
    assert "random_b 1.0.0" in first.stdout and "added (its first version)" in first.stdout
    assert "unchanged" in cli("bot", "add", folder, src).stdout
    (src / "bot.py").write_text((src / "bot.py").read_text() + "\n# tweak\n")
    second = cli("bot", "add", folder, src)
    first_hash = first.stdout.split("[")[1].split("]")[0]
    assert f"added as a new version (earlier: 1.0.0 [{first_hash}])" in second.stdout
    snapshots = sorted((folder / "bots" / "random_b").iterdir())
    assert len(snapshots) == 2 and all((s / "bot.toml").is_file() for s in snapshots)
    status = cli("tournament", "status", folder).stdout
    assert status.count("random_b 1.0.0") == 2
    assert status.startswith("t: no matches planned yet"), status
    (src / "bot.toml").write_text("name = 'x'\n")
    bad = cli("bot", "add", folder, src, check=False)
    assert bad.returncode == 2 and "missing required key 'version'" in bad.stderr
