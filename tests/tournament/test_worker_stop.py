"""A local pool worker being stopped (the run's Ctrl-C or SIGTERM: the
coordinator sends it SIGTERM, it interrupts its match with SIGINT) prints
nothing on the terminal it shares with the run's one last line, wherever
the interrupt lands, however many times it is told to stop.

CI once showed a pool worker's traceback before that line: the worker was
told twice (by the CLI's handler and by the coordinator), raised a second
KeyboardInterrupt into the teardown of the first, and that one landed in
the pool's own code (formatting the first for the coordinator), where
multiprocessing prints what escapes. Real worker processes here, in a
child process whose stderr is the test's to read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent

# One worker plays one match with RUNNER; the test's side is driven by files
# in WORK: "ready" (the match is in play) -> stop the worker as the run does.
POOL = '''
import os, signal, sys, threading, time
from pathlib import Path
import stop_runners
from arena.referee.spec import MatchSpec
from arena.tournament.executors.local import LocalPool

runner, work, how = getattr(stop_runners, sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
pool = LocalPool(1, runner=runner, pin_cpus=False)
outcomes = pool.play([MatchSpec(match_id="m1", bots=(), seed=1, work_dir=str(work))])
ended = []
playing = threading.Thread(target=lambda: ended.append(next(outcomes).error))
playing.start()  # play() submits as it is iterated
while not (work / "ready").exists():
    time.sleep(0.01)
(worker,) = pool._pool._processes
def interrupted() -> None:  # the match has its stop's KeyboardInterrupt
    while not (work / "interrupted").exists():
        time.sleep(0.01)


if how == "twice":  # as the CLI's handler and the coordinator both did
    os.kill(worker, signal.SIGTERM)
    interrupted()  # (two at once would be one: the kernel merges a pending signal)
    os.kill(worker, signal.SIGTERM)
elif how == "pool-twice":
    pool.terminate_workers()
    interrupted()
    pool.terminate_workers()
else:
    pool.terminate_workers()
(work / "sent").write_text("")
playing.join()
print(ended[0])
if how == "between":
    while not (work / "outside").exists():
        time.sleep(0.01)
    stat = Path(f"/proc/{worker}/stat")
    while stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
        time.sleep(0.01)  # until the worker has exited (what it printed is printed)
pool.close()
'''


def stop_a_worker(tmp_path: Path, runner: str, how: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return subprocess.run([sys.executable, "-c", POOL, runner, str(tmp_path), how],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_an_interrupt_outside_the_match_is_not_printed(tmp_path: Path) -> None:
    done = stop_a_worker(tmp_path, "stop_runner_interrupt_between_tasks", "between")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "outside").exists()  # the interrupt did land in the pool's loop
    assert done.stdout.strip() == "KeyboardInterrupt"  # the match's end, for the coordinator
    assert done.stderr == ""


def test_a_worker_told_to_stop_twice_interrupts_its_match_once(tmp_path: Path) -> None:
    done = stop_a_worker(tmp_path, "stop_runner_count_interrupts", "twice")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "interrupts").read_text() == "1"
    assert done.stderr == ""


def test_the_pool_tells_each_worker_once(tmp_path: Path) -> None:
    # The CLI's handler and the coordinator both call terminate_workers.
    done = stop_a_worker(tmp_path, "stop_runner_count_interrupts", "pool-twice")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "interrupts").read_text() == "1"
    assert done.stderr == ""


def test_a_stopping_workers_errors_still_show(tmp_path: Path) -> None:
    # Its traceback-printing goes to the log; a logged error reaches stderr.
    script = ("import logging, sys\n"
              "from arena.tournament.executors.local import _quiet_stop\n"
              "_quiet_stop(); _quiet_stop()\n"
              "print('to the log', file=sys.stderr)\n"
              "logging.getLogger('arena.referee').error('the match failed')\n"
              "logging.getLogger('arena.referee').warning('a warning')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "the match failed\n"
