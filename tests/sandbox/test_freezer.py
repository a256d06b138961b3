"""Pausing a bot (arena.sandbox.freezer) at every level, with real processes.

A spinning bot is frozen, its CPU clock must stand still, thawed it must
move again; a frozen bot is still stopped (v1 frozen tasks ignore SIGKILL
until thawed) and leaves nothing behind. Every mechanism this machine has
is tried (ARENA_FREEZER selects one). No assertion on speed: "stands still"
is a CPU count that does not grow over a pause, not a duration.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.sandbox import cgroups, freezer, launch
from arena.sandbox.api import BotHandle, Limits

from .conftest import MakeBot, level_params

SPINNER = """
import threading
def spin():
    while True:
        pass
for _ in range(3):
    threading.Thread(target=spin, daemon=True).start()
spin()
"""


def _cpu(handle: BotHandle) -> float:
    seconds = handle.pauser.cpu_seconds()
    if seconds is not None:
        return seconds
    # No cgroup clock: the main process's own utime+stime from /proc.
    assert handle.pid is not None
    fields = Path(f"/proc/{handle.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _grows(handle: BotHandle, at_least: float = 0.02, patience: float = 20.0) -> bool:
    start = _cpu(handle)
    end = time.monotonic() + patience
    while time.monotonic() < end:
        if _cpu(handle) - start >= at_least:
            return True
        time.sleep(0.05)
    return False


def _settle(handle: BotHandle, patience: float = 20.0) -> None:
    """Until the CPU clock stops moving: a freeze completes asynchronously
    (v1: FREEZING, then FROZEN; on a loaded machine a task may wait to be
    scheduled to enter it), and a thread's last run is booked when it stops."""
    end = time.monotonic() + patience
    last = _cpu(handle)
    while time.monotonic() < end:
        time.sleep(0.1)
        now = _cpu(handle)
        if now == last:
            return
        last = now


def _mechanisms() -> list[str]:
    """ARENA_FREEZER values to try: those this machine can use at all."""
    found = []
    if (cgroups.ROOT / "unified" / "cgroup.procs").exists() or (cgroups.ROOT / "cgroup.freeze").exists() \
            or (cgroups.ROOT / "cgroup.controllers").exists():
        found.append("v2")
    if (cgroups.ROOT / "freezer" / "cgroup.procs").exists():
        found.append("v1")
    found.append("signal")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("level", level_params())
@pytest.mark.parametrize("mechanism", _mechanisms())
def test_frozen_bot_uses_no_cpu_and_is_still_stopped(
        level: str, mechanism: str, make_bot: MakeBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if level == "docker" and mechanism == "signal":
        mechanism = "docker"  # the docker level's fallback is the engine's pause
    monkeypatch.setenv(freezer.MECHANISMS_VAR, mechanism)
    bot = make_bot("spinner", SPINNER)
    sock_dir = tmp_path / "sock"
    sock_dir.mkdir()
    (sock_dir / "s").touch()
    handle = launch(bot, level, env={"ARENA_ADDRESS": f"unix:{sock_dir}/s", "ARENA_TOKEN": "t"},
                    socket_dir=str(sock_dir), log_path=str(tmp_path / "bot.log"),
                    match_id="freezer-test")
    try:
        assert _grows(handle), "the spinner never used CPU"
        short = {freezer.CGROUP_V2: "v2", freezer.CGROUP_V1: "v1", freezer.SIGSTOP: "signal",
                 freezer.DOCKER_PAUSE: "docker"}
        if short.get(handle.pauser.mechanism) != mechanism:
            pytest.skip(f"{mechanism} not usable at {level} here (got {handle.pauser.mechanism})")
        handle.pauser.freeze()
        _settle(handle)
        before = _cpu(handle)
        time.sleep(0.5)
        # A spinner on three threads would have used up to a second here.
        assert _cpu(handle) - before < 0.02
        handle.pauser.thaw()
        assert _grows(handle)
        handle.pauser.freeze()
        time.sleep(0.1)
        handle.stop()  # frozen: stop must thaw it, or SIGTERM/SIGKILL would wait
        assert handle.poll() is not None
    finally:
        handle.cleanup()
    assert handle.pauser.released
    handle.pauser.freeze()  # after release: nothing happens
    assert not handle.pauser.frozen


def test_stale_frozen_group_of_a_dead_owner_is_removed(tmp_path: Path) -> None:
    """`arena sandbox cleanup` (cgroups.remove_stale): a group whose arena
    process died while its bot was frozen is thawed, killed and removed."""
    import subprocess

    name = "arena-999999999-deadbeef"  # no such pid (above pid_max)
    group = cgroups.create(name, Limits())
    if group is None:
        pytest.skip("no cgroups can be made here")
    child = subprocess.Popen(["python3", "-c", "while True: pass"])
    try:
        for path in group.procs_files:
            Path(path).write_text(str(child.pid))
        pauser = freezer.for_dirs(*group.pauser_dirs(), fallback_pid=None)
        if pauser.mechanism not in (freezer.CGROUP_V1, freezer.CGROUP_V2):
            pytest.skip("no cgroup freezer here")
        pauser.freeze()
        done = CliRunner().invoke(app, ["sandbox", "cleanup"])  # as a user runs it
        assert done.exit_code == 0, done.output
        stale = re.search(r"(\d+) stale cgroup", done.output)
        assert stale is not None and int(stale.group(1)) >= 1, done.output
        assert child.wait(10) == -9
        assert not any(d.exists() for d in group.dirs)
    finally:
        child.kill()
        child.wait()
        group.remove()
