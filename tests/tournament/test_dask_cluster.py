"""A real Dask scheduler and real `arena worker` processes on loopback, each
in a folder of its own: the faults a cluster of other machines brings are
survived, and the stored results are those of a run without them.

The field is three sample bots in short games (target 500, at most 4
deals); one duplicate set: 6 matches. The reference is the same
tournament on the local pool."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from clihelp import ROOT, cli, refused, start

from arena.sandbox.botfile import folder_hash, load_bot
from tournament.cluster import _alive, cluster

FIELD = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random",
         ROOT / "tournaments" / "sample" / "random_b"]


def write_tournament(folder: Path, sets: int = 1) -> Path:
    folder.mkdir(parents=True)
    listed = ", ".join(f'"{p}"' for p in FIELD)
    (folder / "tournament.toml").write_text(f'''
name = "cluster"
seed = 42
duplicate_sets = {sets}
sandbox = "process"
replays = true
bootstrap = 20
bots = [{listed}]
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


def results(folder: Path) -> dict[str, object]:
    """What each match produced, without wall-clock times and paths."""
    out: dict[str, object] = {}
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        for match_id, status, text in db.execute(
                "SELECT match_id, status, result FROM matches ORDER BY match_id"):
            r = json.loads(text)
            out[match_id] = (status, r["finish"], r["deals"], [
                (s["bot"], s["total"], s["place"], s["status"], s["faults"]) for s in r["seats"]])
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Two duplicate sets: 12 matches, two at a time (the six seat orders
    # of a set share its deals, and are never played at once: deal_gate.py).
    folder = write_tournament(tmp_path_factory.mktemp("reference") / "t", sets=2)
    done = cli("tournament", "run", folder, "--quiet", "--concurrency", "2", timeout=300)
    assert done.returncode == 0, done.stderr
    return folder


def other_engine(tmp: Path) -> Path:
    """A copy of this arena whose rules engine differs by one comment: an
    arena of another engine version, for a worker's PYTHONPATH."""
    copy = tmp / "other-arena"
    shutil.copytree(ROOT / "arena", copy / "arena",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "arena" / "game" / "__init__.py").open("a") as f:
        f.write("# another engine version\n")
    return copy


@pytest.mark.slow
def test_forging_and_mismatched_workers_are_refused_and_results_are_a_clean_runs(
        reference: Path, tmp_path: Path) -> None:
    folder = write_tournament(tmp_path / "t")
    with cluster(tmp_path / "cluster") as c:
        stranger = c.worker("stranger", env={"PYTHONPATH": str(other_engine(tmp_path))})
        forger = c.worker("forger", env={"PYTHONPATH": str(Path(__file__).parent / "forger")})
        run = start("tournament", "run", folder, "--dask", c.address, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
        try:
            # The forger is the only worker the run may use: its first
            # result is refused, and it leaves; the honest worker joins after.
            assert forger.wait(timeout=120) == 1
            c.worker("honest")
            out, err = run.communicate(timeout=300)
        finally:
            if run.poll() is None:
                run.kill()
        assert run.returncode == 0, err[-3000:]
        assert "6/6 matches finished (6 played now, 0 failed)" in out
        # The stranger: one line on each side, and it is gone.
        said = [line for line in err.splitlines() if "(stranger) refused:" in line]
        assert len(said) == 1 and "rules engine and referee" in said[0], err[-3000:]
        assert stranger.wait(timeout=30) == 1
        told = [line for line in c.log("stranger").splitlines() if "refused by the" in line]
        assert told == ["arena worker stranger: refused by the coordinator: "
                        + said[0].split(" refused: ", 1)[1]], c.log("stranger")[-2000:]
        # The forger: refused at its first forged result, the difference named.
        forged = [line for line in err.splitlines() if "(forger) refused:" in line]
        assert len(forged) == 1 and "its result records totals" in forged[0], err[-3000:]
        assert "refused by the coordinator: match " in c.log("forger")
        assert c.procs["honest"].poll() is None
        left = c.close()
    assert left == []
    # The bots reached the workers by content hash, not by path: each
    # worker that played has its own read-only copy of each, named by hash.
    hashes = {load_bot(p).content_hash for p in FIELD}
    for name in ("honest", "forger"):
        cache = tmp_path / "cluster" / name / "arena-worker" / "bots"
        assert {p.name for p in cache.iterdir()} == hashes
        for h in hashes:
            assert folder_hash(cache / h) == h
            assert not os.access(cache / h / "bot.toml", os.W_OK) or os.geteuid() == 0
    assert results(folder) == {k: v for k, v in results(reference).items() if k in results(folder)}
    replays = sorted(p.name for p in (folder / "replays").iterdir())
    assert len(replays) == 6 and all(name.endswith(".jsonl") for name in replays)
    assert cli("tournament", "run", folder).stdout.count("0 played now") == 1  # nothing twice


@pytest.mark.slow
def test_arena_worker_refuses_to_start_with_one_line(tmp_path: Path) -> None:
    from arena.sandbox import LEVELS, available_levels

    refused(cli("worker", "--scheduler", "10.0.0.1:8786", cwd=tmp_path),
            "--scheduler '10.0.0.1:8786': expected tls://host:port or tcp://host:port")
    refused(cli("worker", "--scheduler", "tcp://127.0.0.1:8786", "--sandbox", "vm",
                cwd=tmp_path), "--sandbox 'vm': expected auto, ")
    missing = [level for level in LEVELS if level not in available_levels()]
    if missing:
        refused(cli("worker", "--scheduler", "tcp://127.0.0.1:8786", "--sandbox", missing[0],
                    cwd=tmp_path), f"sandbox level {missing[0]} is not available on this machine")
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.slow
def test_over_tls_a_killed_worker_and_a_hung_one_lose_and_double_nothing(
        reference: Path, tmp_path: Path) -> None:
    certs = tmp_path / "certs"
    made = cli("cluster", "certs", certs)
    assert made.returncode == 0, made.stderr
    assert oct((certs / "cluster.key").stat().st_mode & 0o777) == "0o600"
    folder = write_tournament(tmp_path / "t", sets=2)
    with cluster(tmp_path / "cluster", tls=certs) as c:
        assert c.address.startswith("tls://127.0.0.1:")
        sloth = c.worker("sloth", env={"PYTHONPATH": str(Path(__file__).parent / "sloth")})
        run = start("tournament", "run", folder, "--dask", c.address, "--tls", certs,
                    "--match-timeout", "15", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True)
        try:
            # The first two matches go to the hung worker, the only one yet;
            # two honest ones join as it holds them.
            deadline = time.monotonic() + 60
            while "arena-match-process" not in c.log("sloth") and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1)
            c.worker("a", wait=False)
            c.worker("b", wait=False)
            deadline = time.monotonic() + 120
            while not (c.bots_of("a") or c.bots_of("b")) and time.monotonic() < deadline \
                    and run.poll() is None:
                time.sleep(0.05)
            victim = "a" if c.bots_of("a") else "b"
            bots = c.bots_of(victim)
            assert bots, "no honest worker played"
            c.kill(victim)  # kill -9 mid-match: its match process and bots end on their own
            out, err = run.communicate(timeout=300)
        finally:
            if run.poll() is None:
                run.kill()
        assert run.returncode == 0, err[-3000:]
        assert "12/12 matches finished (12 played now, 0 failed)" in out, out + err[-3000:]
        hung = [line for line in err.splitlines() if "(sloth) refused:" in line]
        assert len(hung) == 1 and "took longer than 15 s" in hung[0], err[-3000:]
        assert sloth.wait(timeout=30) == 1
        end = time.monotonic() + 30
        while any(_alive(pid) for pid in bots) and time.monotonic() < end:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in bots)  # the killed worker's bots ended
        left = c.close()
    assert left == []
    assert results(folder) == results(reference)


@pytest.mark.slow
def test_a_scheduler_elsewhere_without_tls_is_refused_before_anything_is_stored(
        tmp_path: Path) -> None:
    folder = write_tournament(tmp_path / "t")
    refused(cli("tournament", "run", folder, "--dask", "tcp://10.0.0.1:8786"),
            "tcp://10.0.0.1:8786: plain tcp:// to another machine is neither encrypted nor "
            "authenticated")
    refused(cli("tournament", "run", folder, "--dask", "tls://10.0.0.1:8786"),
            "a tls:// scheduler needs --tls DIR")
    refused(cli("tournament", "run", folder, "--dask", "tls://10.0.0.1:8786", "--tls",
                tmp_path), f"--tls {tmp_path}: no ca.pem there")
    refused(cli("worker", "--scheduler", "tcp://10.0.0.1:8786", cwd=tmp_path),
            "or say --insecure")
    assert not (folder / "tournament.sqlite").exists()
    made = cli("cluster", "certs", tmp_path / "certs")
    assert made.returncode == 0 and len(made.stdout.split()) == 4, made.stderr
    refused(cli("cluster", "certs", tmp_path / "certs"), "has certificates already")


@pytest.mark.slow
def test_the_scheduler_then_the_coordinator_killed_and_the_run_resumes_the_same(
        reference: Path, tmp_path: Path) -> None:
    folder = write_tournament(tmp_path / "t", sets=2)
    with cluster(tmp_path / "first") as c:
        c.worker("a")
        run = start("tournament", "run", folder, "--dask", c.address, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while not c.bots_of("a") and time.monotonic() < deadline and run.poll() is None:
                time.sleep(0.05)
            c.kill("scheduler")
            _, err = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                run.kill()
        assert run.returncode == 2, err[-3000:]
        lines = [line for line in err.splitlines() if line.startswith("error:")]
        assert len(lines) == 1 and f"dask scheduler {c.address}: lost" in lines[0], err[-3000:]
        assert "Traceback" not in err
        assert c.close() == []
    with cluster(tmp_path / "again") as c:  # the scheduler back (at another port)
        c.worker("a")
        # Then the coordinator itself killed -9 mid-match (no handler runs:
        # its matches stay marked running, the worker's match goes on for a
        # client that is gone) and run again: the same results as a run
        # without faults, none counted twice.
        run = start("tournament", "run", folder, "--dask", c.address, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not c.bots_of("a") and time.monotonic() < deadline and run.poll() is None:
                time.sleep(0.05)
            assert run.poll() is None, "the run ended before a match was in play"
            run.kill()
            run.wait(timeout=30)
        finally:
            if run.poll() is None:
                run.kill()
        with sqlite3.connect(folder / "tournament.sqlite") as db:
            running = db.execute("SELECT count(*) FROM matches WHERE status = 'running'").fetchone()
        assert running[0] >= 1  # what the killed coordinator had handed out
        again = cli("tournament", "run", folder, "--dask", c.address, timeout=300)
        assert again.returncode == 0, again.stderr[-3000:]
        assert "12/12 matches finished" in again.stdout
        assert c.close() == []
    assert results(folder) == results(reference)
