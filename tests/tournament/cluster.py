"""A real Dask cluster on loopback for the cluster tests: a scheduler and
worker processes started as an organiser starts them (each in a folder of
its own), and the check that nothing of them is left running after.

Every process started here carries ARENA_TEST_CLUSTER=<token> in its
environment (and so does every child it starts with the environment it
inherited: the worker's nanny, its match process); `leftovers` finds them
in /proc. A bot is started with an environment of its own: it is found by
its working folder, a worker's bot cache under the test's folder.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from clihelp import ROOT, argv

MARK = "ARENA_TEST_CLUSTER"


def _environ(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f.read()
    except OSError:
        return b""


def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Cluster:
    """A scheduler on 127.0.0.1 (a port of its own) and the workers started
    with `worker`; `close` stops them all, kill -9 what does not stop."""

    def __init__(self, folder: Path, tls: Path | None = None) -> None:
        self.folder = folder
        self.tls = tls  # the certificates' folder (arena cluster certs): tls://
        self.token = secrets.token_hex(6)
        self.procs: dict[str, subprocess.Popen[Any]] = {}
        folder.mkdir(parents=True, exist_ok=True)
        file = folder / "scheduler.json"
        secure = [] if tls is None else [
            "--protocol", "tls", "--tls-ca-file", str(tls / "ca.pem"),
            "--tls-cert", str(tls / "cluster.pem"), "--tls-key", str(tls / "cluster.key")]
        self._start("scheduler", [sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--dashboard-address", "127.0.0.1:0", *secure,
                                  "--scheduler-file", str(file)], folder)
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        import json

        while time.monotonic() < deadline:
            with contextlib.suppress(ValueError, OSError):
                self.address = str(json.loads(file.read_text())["address"])
                break
            time.sleep(0.1)
        scheme = "tcp" if tls is None else "tls"
        assert self.address.startswith(f"{scheme}://127.0.0.1:"), self.address

    def _start(self, name: str, command: Sequence[str], cwd: Path,
               env: dict[str, str] | None = None) -> subprocess.Popen[Any]:
        full = {**os.environ, MARK: self.token, **(env or {})}
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - the process keeps it
        proc = subprocess.Popen(list(command), cwd=cwd, env=full, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def worker(self, name: str, *args: str, env: dict[str, str] | None = None,
               wait: bool = True) -> subprocess.Popen[Any]:
        """`arena worker --scheduler ADDRESS` in folder `name` of its own."""
        home = self.folder / name
        home.mkdir(exist_ok=True)
        secure = [] if self.tls is None else ["--tls", str(self.tls)]
        proc = self._start(name, argv("worker", "--scheduler", self.address, "--name", name,
                                      *secure, *args), home, {"PYTHONPATH": str(ROOT / "tests"),
                                                     **(env or {})})
        if wait:
            self.wait_for(name)
        return proc

    def names(self) -> list[str]:
        from distributed import Client

        from arena.tournament.executors.cluster import security

        with Client(self.address, timeout=10,
                    security=security(str(self.tls) if self.tls else "")) as client:
            return sorted(str(w.get("name")) for w in
                          client.scheduler_info()["workers"].values())

    def wait_for(self, name: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if name in self.names():
                return
            proc = self.procs[name]
            assert proc.poll() is None, f"worker {name} exited: {self.log(name)[-2000:]}"
            time.sleep(0.2)
        raise AssertionError(f"worker {name} never joined: {self.log(name)[-2000:]}")

    def kill(self, name: str) -> None:
        """kill -9 the worker process `name` (alone: what it started must end by itself)."""
        proc = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def bots_of(self, name: str) -> list[int]:
        """Live bot processes working in worker `name`'s bot cache: its match in play."""
        cache = str(self.folder / name / "arena-worker" / "bots")
        return [int(e) for e in os.listdir("/proc") if e.isdigit() and _alive(int(e))
                and _cwd(int(e)).startswith(cache)]

    def leftovers(self) -> list[int]:
        """Live processes of this cluster's: marked ones, and bots working in its folder."""
        mark = f"{MARK}={self.token}".encode()
        me = os.getpid()
        root = str(self.folder)
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me or not _alive(int(entry)):
                continue
            pid = int(entry)
            if mark in _environ(pid) or _cwd(pid).startswith(root):
                out.append(pid)
        return out

    def close(self, grace: float = 20) -> list[int]:
        """Stop every process (SIGTERM, workers first); returns the pids still
        alive `grace` seconds after (then kills them)."""
        order = [n for n in self.procs if n != "scheduler"] + ["scheduler"]
        for name in order:
            proc = self.procs[name]
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and (self.leftovers() or any(
                p.poll() is None for p in self.procs.values())):
            time.sleep(0.2)
        left = self.leftovers()
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return left


@contextlib.contextmanager
def cluster(folder: Path, tls: Path | None = None) -> Iterator[Cluster]:
    c = Cluster(folder, tls)
    try:
        yield c
    finally:
        c.close(grace=5)
