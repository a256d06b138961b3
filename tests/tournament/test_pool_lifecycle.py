"""The local pool's worker processes through the real `arena` CLI: they do
not outlive a killed run, and a killed worker fails only its matches."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clihelp import ROOT, cli
from clihelp import start as start_cli

from arena.cli import stopping

PLANNED = 24  # 4 bots: 4 tables x 6 seat orders
FAILED = "match failed (will be retried on the next run): "


def write_tournament(tmp: Path) -> Path:
    field = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random"]
    for name in ("random_b", "random_c"):
        folder = tmp / name
        shutil.copytree(ROOT / "tournaments" / "sample" / "random_b", folder)
        toml = folder / "bot.toml"
        toml.write_text(toml.read_text().replace('"random_b"', f'"{name}"'))
        if name == "random_c":
            # A bot that takes its time (well inside the limit), so the run
            # lasts ~10 s whatever the machine's speed: on an idle machine the
            # other bots' matches are so fast that the whole run could finish
            # between the test seeing it mid-run and killing it.
            code = folder / "bot.py"
            code.write_text(code.read_text().replace(
                "    def act(self, obs):\n",
                "    def act(self, obs):\n        __import__('time').sleep(0.04)\n"))
            assert "sleep(0.04)" in code.read_text()
        field.append(folder)
    folder = tmp / "t"
    folder.mkdir()
    listed = ", ".join(f'"{p}"' for p in field)
    (folder / "tournament.toml").write_text(
        f'name = "pool"\nseed = {2**50 + 7}\nsandbox = "process"\nreplays = true\n'
        f'bootstrap = 5\nconcurrency = 2\nbots = [{listed}]\n'
        f'[rules]\ntarget = 500\nmax_deals = 2\n')
    return folder


def start(folder: Path, tmp: Path) -> subprocess.Popen[bytes]:
    """The run, started as a background job is (CI, nohup): SIGINT ignored."""
    return start_cli("tournament", "run", folder, "--quiet",
                     stdout=(tmp / "out").open("wb"), stderr=(tmp / "err").open("wb"),
                     start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))


def ignores_sigint(pid: int) -> bool:
    """Whether SIGINT is ignored in `pid` (the SigIgn mask of /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    raise AssertionError(f"no SigIgn line for {pid}")


def count(folder: Path, status: str) -> int:
    try:
        with sqlite3.connect(folder / "tournament.sqlite", timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM matches WHERE status=?",
                              (status,)).fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def stat(pid: int) -> tuple[str, int, str] | None:
    """(state, ppid, start time) of a live process, None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else (fields[0], int(fields[1]), fields[19])


def children(pid: int) -> dict[int, str]:
    """Live children of `pid` (pid -> start time, against pid reuse)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = stat(int(entry.name))
            if info is not None and info[1] == pid:
                out[int(entry.name)] = info[2]
    return out


def alive(pids: dict[int, str]) -> list[int]:
    return [p for p, started in pids.items() if (s := stat(p)) is not None and s[2] == started]


def workers(pid: int) -> dict[int, str]:
    """The pool's spawn workers among the children of `pid` (not the resource tracker)."""
    out = {}
    for child, started in children(pid).items():
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            out[child] = started
    return out


def assert_gone(pids: dict[int, str], within: float = 20.0) -> None:
    """Every process of `pids` has ended within `within` seconds."""
    deadline = time.monotonic() + within
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(pids), [Path(f"/proc/{p}/cmdline").read_bytes() for p in alive(pids)]


def wait_for(condition, proc: subprocess.Popen[bytes], timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, "the run ended too early"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def assert_replays_whole(folder: Path, parts_left: bool = False) -> None:
    """Every replay in place is a whole one (ends with its result) of a
    finished match; no part file is left behind unless `parts_left` (a
    stopped worker cannot drop its own: the next run does)."""
    replays = folder / "replays"
    if not parts_left:
        assert not list(replays.glob("*.part")), sorted(p.name for p in replays.iterdir())
    for path in replays.glob("*.jsonl"):
        assert '"type":"result"' in path.read_text().splitlines()[-1], path.name
    # A match may also have finished in a worker whose result never reached
    # the store: its whole replay is there, and the next run plays it again.
    with sqlite3.connect(folder / "tournament.sqlite", timeout=5) as db:
        finished = [r[0] for r in db.execute("SELECT match_id FROM matches WHERE status='finished'")]
    assert finished and all((replays / f"{m}.jsonl").is_file() for m in finished)


def rerun_finishes_the_rest(folder: Path) -> None:
    left = PLANNED - count(folder, "finished")
    assert left > 0
    run = cli("tournament", "run", folder)
    assert run.returncode == 0, run.stderr + run.stdout
    assert f"{PLANNED}/{PLANNED} matches finished ({left} played now, 0 failed)" in run.stdout
    assert count(folder, "finished") == PLANNED
    assert_replays_whole(folder)


@pytest.mark.slow
def test_sigkilled_run_leaves_no_worker_behind_and_resumes(tmp_path: Path) -> None:
    folder = write_tournament(tmp_path)
    proc = start(folder, tmp_path)
    left: dict[int, str] = {}
    try:
        # Mid-run: a match finished, the workers are playing the next ones
        # (bots are running at the moment the processes are listed).
        wait_for(lambda: count(folder, "finished") >= 2 and len(workers(proc.pid)) == 2
                 and any(children(w) for w in workers(proc.pid)), proc)
        left = children(proc.pid)  # the workers and the resource tracker
        for worker in workers(proc.pid):
            left |= children(worker)  # the bots of the matches being played
        assert len(left) > 3
        during = cli("tournament", "status", folder, timeout=120)
        assert "running " in during.stdout and "interrupted" not in during.stdout, during.stdout
        os.kill(proc.pid, signal.SIGKILL)  # the CLI only, as the OOM killer would
        proc.wait()
        assert_gone(left)
        assert_replays_whole(folder, parts_left=True)
        # Nothing runs any more: the matches it left `running` are shown as interrupted.
        status = cli("tournament", "status", folder, timeout=120)
        assert status.returncode == 0 and "interrupted " in status.stdout
        assert "running" not in status.stdout, status.stdout
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in alive(left):
            os.kill(pid, signal.SIGKILL)
    assert count(folder, "finished") < PLANNED
    rerun_finishes_the_rest(folder)


@pytest.mark.slow
def test_sigterm_is_handled_as_ctrl_c(tmp_path: Path) -> None:
    folder = write_tournament(tmp_path)
    proc = start(folder, tmp_path)
    left: dict[int, str] = {}
    try:
        wait_for(lambda: count(folder, "finished") >= 2 and len(workers(proc.pid)) == 2, proc)
        # The workers stop their match with SIGINT: they must handle it even
        # when the run was started with it ignored, as here.
        assert ignores_sigint(proc.pid)
        assert not any(ignores_sigint(w) for w in workers(proc.pid))
        left = children(proc.pid)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=60) == 143
        assert_gone(left)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in alive(left):
            os.kill(pid, signal.SIGKILL)
    err = (tmp_path / "err").read_text()
    assert err.strip() == "terminated: finished matches are stored; run again to resume", err
    # No match stopped mid-way left a cut replay in place (the next run
    # removes their part files).
    assert_replays_whole(folder, parts_left=True)
    rerun_finishes_the_rest(folder)


@pytest.mark.slow
def test_a_killed_worker_fails_its_matches_only(tmp_path: Path) -> None:
    folder = write_tournament(tmp_path)
    proc = start(folder, tmp_path)
    try:
        wait_for(lambda: count(folder, "finished") >= 2 and len(workers(proc.pid)) == 2, proc)
        os.kill(min(workers(proc.pid)), signal.SIGKILL)
        proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    err = (tmp_path / "err").read_text()
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    # The run went on with new workers: only the matches in flight failed.
    assert 1 <= len(lines) <= 4 and all(line.startswith(FAILED) for line in lines), err
    assert all("worker process died" in line for line in lines), err
    assert count(folder, "failed") == len(lines) and count(folder, "running") == 0
    assert count(folder, "finished") == PLANNED - len(lines)
    rerun_finishes_the_rest(folder)


def test_once_stopping_the_errors_python_can_only_report_go_to_the_log(
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    # What a stopped run's finalizers and pool threads may raise must not break
    # into its one line on stderr (CI once saw "Exception ignored in: " there).
    class PipeUser:
        def __del__(self) -> None:
            raise BrokenPipeError("the worker has exited")

    saved = sys.unraisablehook
    try:
        stopping.quiet_unraisable()
        with caplog.at_level(logging.DEBUG, logger=stopping.__name__):
            PipeUser()  # dropped at once: its __del__ raises
    finally:
        sys.unraisablehook = saved
    assert capsys.readouterr().err == ""
    assert "while stopping: exception ignored in" in caplog.text and "the worker has exited" in caplog.text
