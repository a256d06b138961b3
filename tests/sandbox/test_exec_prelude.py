"""The exec prelude that limits a bot without running Python between fork
and exec (arena/sandbox/rlimits.py): limits and cgroup join really happen,
and starting bots next to running gRPC threads is safe."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import rlimits
from arena.sandbox.api import Limits
from arena.sandbox.process import spawn

needs_prlimit = pytest.mark.skipif(shutil.which("prlimit") is None, reason="util-linux prlimit not installed")


@needs_prlimit
def test_the_prefix_sets_every_limit_before_the_command_runs() -> None:
    table = rlimits.rlimit_table(Limits(open_files=77, cpu_seconds=33), with_nproc=False)
    prefix = rlimits.exec_prefix(table)
    assert prefix is not None
    out = subprocess.run([*prefix, "/bin/sh", "-c", "ulimit -n; ulimit -t; ulimit -c"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["77", "33", "0"]


@needs_prlimit
def test_the_prefix_puts_the_bot_itself_into_every_cgroup_file(tmp_path: Path) -> None:
    # Regular files stand in for cgroup.procs: the prelude writes the pid
    # that the bot keeps after exec.
    procs = (str(tmp_path / "a.procs"), str(tmp_path / "b.procs"))
    prefix = rlimits.exec_prefix(rlimits.rlimit_table(Limits(), with_nproc=False), procs)
    assert prefix is not None
    out = subprocess.run([*prefix, "/bin/sh", "-c", "echo $$"], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert [Path(p).read_text().strip() for p in procs] == [out, out]


@needs_prlimit
def test_a_cgroup_that_cannot_be_joined_stops_the_start(tmp_path: Path) -> None:
    prefix = rlimits.exec_prefix(rlimits.rlimit_table(Limits(), with_nproc=False),
                                 (str(tmp_path / "missing-dir" / "cgroup.procs"),))
    assert prefix is not None
    done = subprocess.run([*prefix, "/bin/sh", "-c", "echo started"], capture_output=True, text=True, check=False)
    assert done.returncode == 126 and "started" not in done.stdout


@pytest.mark.slow
def test_bots_start_cleanly_while_grpc_threads_run(tmp_path: Path) -> None:
    """The referee starts bots from a process whose gRPC server threads are
    running; every start must reach the bot's own code."""
    import grpc

    async def main() -> list[int | None]:
        server = grpc.aio.server()
        server.add_insecure_port(f"unix:{tmp_path}/s.sock")
        await server.start()
        codes = []
        try:
            for i in range(12):
                h = await asyncio.to_thread(
                    spawn, [sys.executable, "-c", "print('up')"], level="process", cwd=str(tmp_path),
                    env={"PATH": os.environ.get("PATH", os.defpath)}, log_path=str(tmp_path / f"{i}.log"),
                    limits=Limits(), marker=f"prelude-test-{i}", nproc=False, watchdog=False)
                codes.append(await asyncio.to_thread(h.wait, 30))
                h.cleanup()
        finally:
            await server.stop(0)
        return codes

    assert asyncio.run(main()) == [0] * 12
    assert all((tmp_path / f"{i}.log").read_text().strip() == "up" for i in range(12))
