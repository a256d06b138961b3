"""launch() at every available level: logs, exit codes, stop, no leftovers.

These start real processes (and containers at the docker level)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from arena.sandbox import Limits, launch
from arena.sandbox.logcap import TRUNCATION_NOTE
from arena.sandbox.process import marked_pids

from .conftest import MakeBot, level_params

pytestmark = pytest.mark.slow
FAST = Limits(stop_grace=0.3)


def _run(make_bot: MakeBot, tmp_path: Path, level: str, source: str,
         limits: Limits = FAST, wait: float = 30.0) -> tuple[int | None, str, object]:
    bot = make_bot("b", source)
    sock = tmp_path / "sock"
    sock.mkdir()
    log = tmp_path / "bot.log"
    handle = launch(bot, level, env={"ARENA_TOKEN": "t0k", "ARENA_ADDRESS": f"unix:{sock}/s"},
                    socket_dir=str(sock), log_path=str(log), limits=limits)
    try:
        code = handle.wait(wait) if hasattr(handle, "wait") else None
    finally:
        handle.cleanup()
    return code, log.read_text(errors="replace"), handle


@pytest.mark.parametrize("level", level_params())
def test_output_and_exit_code_are_reported(make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    code, log, handle = _run(make_bot, tmp_path, level, """
        import os, sys
        # One write per line: docker carries stdout and stderr apart and
        # merges them on arrival, so only whole writes keep their shape.
        sys.stdout.write(f"token {os.environ['ARENA_TOKEN']} level {os.environ['ARENA_SANDBOX']}\\n")
        sys.stdout.flush()
        sys.stderr.write("to stderr\\n")
        import arena.game.cards  # the arena's interpreter and packages are usable
        sys.exit(3)
    """)
    assert code == 3
    assert f"token t0k level {level}" in log
    assert "to stderr" in log
    assert handle.level == level  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", level_params())
def test_log_is_capped_and_the_bot_never_blocks(make_bot: MakeBot, tmp_path: Path,
                                                level: str) -> None:
    code, log, _ = _run(make_bot, tmp_path, level, """
        import sys
        for _ in range(200):
            sys.stdout.write("x" * 50000)
        sys.stdout.flush()
        print("finished")
    """, limits=Limits(log_bytes=10_000, stop_grace=0.3))
    assert code == 0  # 10 MB written through a 10 kB cap without blocking
    assert log.startswith("x" * 10_000)
    assert (TRUNCATION_NOTE % 10_000).decode() in log
    assert "finished" not in log
    assert len(log) < 10_200


@pytest.mark.parametrize("level", level_params())
def test_stop_kills_a_bot_that_ignores_sigterm_and_its_escaped_children(
        make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    bot = make_bot("stubborn", """
        import os, signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if os.fork() == 0:
            os.setsid()          # leaves the process group
            if os.fork() == 0:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                while True: time.sleep(1)
            os._exit(0)
        print("ready", flush=True)
        while True: time.sleep(1)
    """)
    sock = tmp_path / "sock"
    sock.mkdir()
    log = tmp_path / "bot.log"
    handle = launch(bot, level, env={}, socket_dir=str(sock), log_path=str(log), limits=FAST)
    try:
        deadline = time.monotonic() + 30
        while "ready" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert handle.poll() is None
    finally:
        handle.cleanup()
    assert handle.poll() is not None
    marker = getattr(handle, "marker", None)
    if marker is not None:
        assert marked_pids(marker) == []
    handle.stop()  # idempotent
    handle.cleanup()


def test_unknown_command_is_a_clear_sandbox_error(make_bot: MakeBot, tmp_path: Path) -> None:
    from arena.sandbox import SandboxError
    from arena.sandbox.botfile import BotSpec
    bot = make_bot("x", "pass")
    bad = BotSpec(name="x", version="1", language="python", path=bot.path,
                  run=("no-such-binary-here",))
    with pytest.raises(SandboxError, match="no-such-binary-here"):
        launch(bad, "process", env={}, socket_dir=str(tmp_path), log_path=str(tmp_path / "l"))


@pytest.mark.parametrize("level", level_params())
def test_fork_bomb_is_bounded(make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    code, log, handle = _run(make_bot, tmp_path, level, """
        import os, time
        n = 0
        try:
            while n < 500:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                n += 1
        except OSError as exc:
            print("ATTACK fork: refused after", n, exc.errno, flush=True)
            raise SystemExit(0)  # the outcome is known: no need to wait it out
        time.sleep(60)
    """, limits=Limits(pids=20, stop_grace=0.3), wait=60.0)
    violations = getattr(handle, "violations", [])
    if "ATTACK fork: refused" in log:
        forks = int(log.split("refused after ")[1].split()[0])
        assert forks < 20
    else:  # no cgroup here: the watchdog killed the bot instead
        assert code is not None and code < 0
        assert any("over the limit of 20" in v for v in violations)
    marker = getattr(handle, "marker", None)
    if marker is not None:
        assert marked_pids(marker) == []


@pytest.mark.parametrize("level", level_params())
def test_nothing_the_bot_writes_outlives_it(make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    """A bot writes a file in every writable place it may reach (HOME,
    TMPDIR, /tmp, /dev/shm, /var/tmp, its own folder and the one above, /etc,
    a POSIX semaphore);
    after cleanup none of them is on the machine."""
    if level == "process" and os.geteuid() != 0:
        pytest.skip("the process level run by another user than root keeps only HOME/TMPDIR private")
    tag = f"arena-leftover-{os.getpid()}-{level}"
    code, log, _ = _run(make_bot, tmp_path, level, f"""
        import os
        for folder in {{os.environ["HOME"], os.environ["TMPDIR"], "/tmp", "/dev/shm", "/var/tmp", ".",
                       "..", "/etc"}}:
            try:
                with open(os.path.join(folder, "{tag}"), "w") as f:
                    f.write("x" * 1000)
                print("wrote", os.path.abspath(folder), flush=True)
            except OSError as exc:
                print("refused", folder, exc.strerror, flush=True)
        import multiprocessing.synchronize  # a named semaphore lives in /dev/shm (sem.*)
        try:
            multiprocessing.synchronize.Lock(ctx=None)
        except Exception as exc:  # noqa: BLE001
            print("no semaphore", exc, flush=True)
        print("done", flush=True)
    """)
    assert code == 0 and "done" in log, log
    assert "wrote" in log  # it could write somewhere: the check below means something
    assert "wrote /tmp" in log, log  # a private /tmp at every level
    left = [os.path.join(d, tag) for folder in ("/tmp", "/dev/shm", "/var/tmp", "/etc", tmp_path)
            for d, _, files in os.walk(folder) if tag in files]  # (others' files come and go)
    assert left == [], left


@pytest.mark.parametrize("level", level_params())
def test_cpu_time_limit_kills_a_burner(make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    code, log, _ = _run(make_bot, tmp_path, level, """
        print("burning", flush=True)
        x = 0
        while True:
            x += 1
    """, limits=Limits(cpu_seconds=1, stop_grace=0.3), wait=120.0)
    assert "burning" in log
    assert code not in (None, 0)  # SIGXCPU / SIGKILL from RLIMIT_CPU, well before 120 s


@pytest.mark.parametrize("level", level_params())
def test_memory_limit_stops_a_hog(make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    code, log, _ = _run(make_bot, tmp_path, level, """
        blocks = []
        for i in range(40):
            blocks.append(bytearray(b"x" * (8 << 20)))
        print("got 320 MB", flush=True)
    """, limits=Limits(memory_mb=96, stop_grace=0.3))
    assert code not in (None, 0)
    assert "got 320 MB" not in log


def test_without_cgroups_the_watchdog_kills_a_fork_bomb(
        make_bot: MakeBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.sandbox import cgroups

    monkeypatch.setattr(cgroups, "create", lambda name, limits: None)
    code, _, handle = _run(make_bot, tmp_path, "process", """
        import os, time
        for _ in range(200):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
            time.sleep(0.01)
        time.sleep(600)
    """, limits=Limits(pids=20, stop_grace=0.3), wait=60.0)
    assert code is not None and code < 0  # killed, long before its 600 s sleep
    assert any("over the limit of 20" in v for v in handle.violations)  # type: ignore[attr-defined]
    assert marked_pids(handle.marker) == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", level_params())
def test_a_bot_runs_on_the_cpus_of_the_thread_that_starts_it(
        make_bot: MakeBot, tmp_path: Path, level: str) -> None:
    """A match pinned to a CPU slot (arena.tournament.executors.cpus) starts its bots
    there: processes inherit the affinity, containers get it as cpuset."""
    from concurrent.futures import ThreadPoolExecutor

    every = sorted(os.sched_getaffinity(0))
    if len(every) < 2:
        pytest.skip("one CPU: nothing to pin to")
    slot = [every[-1]]

    def run_pinned() -> tuple[int | None, str, object]:
        os.sched_setaffinity(0, slot)  # this thread only, as a pool worker's first act
        return _run(make_bot, tmp_path, level,
                    "import os\nprint('cpus', *sorted(os.sched_getaffinity(0)))\n")

    with ThreadPoolExecutor(1) as one:
        code, log, _ = one.submit(run_pinned).result()
    assert code == 0, log
    assert f"cpus {slot[0]}\n" in log
    assert sorted(os.sched_getaffinity(0)) == every  # the test's own thread is untouched
