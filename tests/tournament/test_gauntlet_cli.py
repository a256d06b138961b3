"""`arena gauntlet` the way a user runs it: real referee, real bot processes
(the greedy and random sample bots), a real store; short games."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from clihelp import ROOT, cli, cli_here

from .gauntlets import SHORT, gauntlet


def here(*args: object) -> subprocess.CompletedProcess[str]:
    """`arena gauntlet ARGS` in-process (cli_here)."""
    return cli_here("gauntlet", *args)


@pytest.mark.slow
def test_gauntlet_stops_early_with_a_verdict_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    greedy, rnd = ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random"
    proc = gauntlet(greedy, "--against", rnd, "--dir", folder, "--max-sets", 20, "--seed", 9,
                    "--json", *SHORT)
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["decision"] == "H1" and verdict["verdict"] == "stronger"
    assert verdict["sets"] < 20 and verdict["matches"] == 3 * verdict["sets"]
    assert verdict["llr"] >= verdict["bounds"][1]
    # The live line: one per complete set, the last with the decision.
    live = [line for line in proc.stderr.splitlines() if line.startswith("sets ")]
    assert live[-1].startswith(f"sets {verdict['sets']} ") and live[-1].endswith("-> H1")
    with sqlite3.connect(folder / "gauntlet.sqlite") as db:
        finished = db.execute("SELECT COUNT(*) FROM matches WHERE status='finished'").fetchone()[0]
    # Matches in flight at the decision (at most the window of 2 x 2) are
    # stored, not counted.
    assert verdict["matches"] <= finished <= verdict["matches"] + 4
    assert len(list((folder / "replays").glob("*.jsonl"))) == finished
    # Run again: the stored results decide; nothing is played.
    again = gauntlet(greedy, "--against", rnd, "--dir", folder, "--max-sets", 20, "--json", *SHORT)
    assert again.returncode == 0, again.stderr
    second = json.loads(again.stdout)
    assert second["played_now"] == 0
    assert {k: v for k, v in second.items() if k != "played_now"} == {
        k: v for k, v in verdict.items() if k != "played_now"}
    # The text verdict names the decision.
    text = gauntlet(greedy, "--against", rnd, "--dir", folder, "--max-sets", 20, *SHORT)
    assert "STRONGER (H1" in text.stdout
    # The tournament commands that read a folder name a gauntlet's as one
    # (not "tournament.toml: missing (run arena tournament new ...)"), and
    # leave its store as it was.
    stored = (folder / "gauntlet.sqlite").read_bytes()
    for command in (("tournament", "status"), ("tournament", "run"), ("leaderboard", "show")):
        proc = (cli if command[1] == "status" else cli_here)(*command, folder)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, (command, proc.stderr)
        assert "a gauntlet's folder" in proc.stderr and "arena gauntlet" in proc.stderr, proc.stderr
        assert not (folder / "tournament.toml").exists()
    assert (folder / "gauntlet.sqlite").read_bytes() == stored


@pytest.mark.slow
def test_bad_input_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    greedy = ROOT / "sample_bots" / "greedy"
    # The first refusal through the real command, the rest in-process (cli_here).
    proc = gauntlet(greedy, "--against", tmp_path / "missing", "--dir", folder)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("error: --against") and not folder.exists()
    proc = here(greedy, "--against", greedy, "--dir", folder, "--elo0", 5, "--elo1", 1)
    assert proc.returncode == 2 and "elo1" in proc.stderr and not folder.exists()
    proc = here(greedy, "--dir", folder)
    assert proc.returncode == 2 and "nothing to play against" in proc.stderr
    assert not folder.exists()
    # --baseline-from without --baseline: was dropped, and the gauntlet played
    # against the --against bots only, no baseline.
    proc = here(greedy, "--against", ROOT / "sample_bots" / "random", "--baseline-from",
                    tmp_path, "--dir", folder)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: --baseline-from {tmp_path}: only with --baseline")
    assert not folder.exists()
    # Run from inside the bot's folder: the default gauntlet-NAME folder would
    # be inside the bot, whose snapshot would copy itself (a RecursionError).
    import shutil
    mine = tmp_path / "mine"
    shutil.copytree(greedy, mine)
    proc = cli_here("gauntlet", ".", "--against", ROOT / "sample_bots" / "random", cwd=mine)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"error: --dir {mine / 'gauntlet-greedy'}: inside the bot folder {mine} (greedy)" in proc.stderr
    assert not (mine / "gauntlet-greedy").exists()
    # The bot against itself (or one opponent twice): one bot in the store.
    rnd = ROOT / "sample_bots" / "random"
    for against in ([greedy], [rnd, rnd]):
        proc = here(greedy, *(a for p in against for a in ("--against", p)), "--dir", folder)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith("error: --against") and "the same content as" in proc.stderr
        assert not folder.exists()
    # A --dir that is a file.
    afile = tmp_path / "afile"
    afile.write_text("mine")
    proc = here(greedy, "--against", rnd, "--dir", afile)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: --dir {afile}: not a folder") and afile.read_text() == "mine"
    # A second gauntlet on one folder: refused, and named as a gauntlet (the
    # refusal spoke of an `arena tournament run` playing a tournament).
    import os

    from arena.tournament.run.runlock import exclusive_run
    held = tmp_path / "held"
    held.mkdir()
    # Through a process of its own: in this one the lock held here would be its own.
    with exclusive_run(held, "arena gauntlet", "gauntlet"):
        proc = gauntlet(greedy, "--against", rnd, "--dir", held)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"another `arena gauntlet` is playing this gauntlet (pid {os.getpid()})" in proc.stderr
    # A tournament's folder: its replays and snapshots are the tournament's.
    tournament = tmp_path / "t"
    tournament.mkdir()
    (tournament / "tournament.toml").write_text('name = "t"\n')
    proc = here(greedy, "--against", rnd, "--dir", tournament)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"--dir {tournament}: a tournament's folder (it holds tournament.toml)" in proc.stderr
    assert sorted(p.name for p in tournament.iterdir()) == ["tournament.toml"]
    # A --dir that cannot be made (under a file): named, not a bare "[Errno 20] ...".
    proc = here(greedy, "--against", rnd, "--dir", afile / "g")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: --dir {afile / 'g'}: cannot create the folder: ")


@pytest.mark.slow
def test_fewer_sets_than_the_test_reads_are_noted(tmp_path: Path) -> None:
    greedy, rnd = str(ROOT / "sample_bots" / "greedy"), str(ROOT / "sample_bots" / "random")
    done = gauntlet(greedy, "--against", rnd, "--dir", tmp_path / "g", "--max-sets", 1, *SHORT)
    assert done.returncode == 0, done.stderr
    assert "note: the test decides nothing before 8 sets" in done.stderr, done.stderr
    assert "--max-sets 1 can only end UNDECIDED" in done.stderr
    assert "UNDECIDED after 1 of 1 sets" in done.stdout, done.stdout
