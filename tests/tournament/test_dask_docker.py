"""Workers at the docker level: two real `arena worker --sandbox docker`
processes (folders of their own, bots shipped by content hash, each
worker's images built there from the bots' inputs) play a tournament whose
bots run in containers; one worker is killed -9 while its match's
containers run. The results are those of the same tournament on the local
pool at the docker level, and no container of the run is left on the
machine afterwards."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from clihelp import cli, start

from arena.sandbox import available_levels
from tournament.cluster import _cwd, _environ, cluster

from .test_dask_cluster import results, write_tournament

pytestmark = [pytest.mark.slow, pytest.mark.docker,
              pytest.mark.skipif("docker" not in available_levels(),
                                 reason="sandbox level 'docker' unavailable here")]


def _docker_tournament(folder: Path) -> Path:
    write_tournament(folder)
    toml = folder / "tournament.toml"
    toml.write_text(toml.read_text().replace('sandbox = "process"', 'sandbox = "docker"')
                    .replace("max_deals = 4", "max_deals = 2"))
    return folder


def _containers(match_ids: set[str]) -> list[dict[str, object]]:
    from arena.sandbox.docker_level import client

    return [c for c in client().api.containers(all=True, filters={"label": "arena.match"})
            if (c.get("Labels") or {}).get("arena.match") in match_ids]


def _owned_by(container: dict[str, object], token: str, home: Path) -> bool:
    """The container's arena process is one of this cluster's, working in `home`."""
    owner = str((container.get("Labels") or {}).get("arena.owner", ""))  # type: ignore[union-attr]
    pid = owner.rpartition(":")[2]
    return pid.isdigit() and token.encode() in _environ(int(pid)) \
        and _cwd(int(pid)).startswith(str(home))


def test_docker_level_workers_survive_a_kill_and_leave_no_container(tmp_path: Path) -> None:
    reference = _docker_tournament(tmp_path / "reference")
    done = cli("tournament", "run", reference, "--quiet", "--concurrency", "2", timeout=600)
    assert done.returncode == 0, done.stderr
    ids = set(results(reference))
    folder = _docker_tournament(tmp_path / "t")
    with cluster(tmp_path / "cluster") as c:
        c.worker("a", "--sandbox", "docker")
        c.worker("b", "--sandbox", "docker")
        run = start("tournament", "run", folder, "--dask", c.address, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 180
            victim = ""
            while not victim and time.monotonic() < deadline and run.poll() is None:
                for name in ("a", "b"):
                    if any(_owned_by(x, c.token, tmp_path / "cluster" / name) for x in _containers(ids)):
                        victim = name
                time.sleep(0.1)
            assert victim, "no worker ran a container"
            c.kill(victim)  # kill -9 while its match's bots run in containers
            out, err = run.communicate(timeout=600)
        finally:
            if run.poll() is None:
                run.kill()
        assert run.returncode == 0, err[-3000:]
        assert "6/6 matches finished (6 played now, 0 failed)" in out, out + err[-3000:]
        left = c.close()
    assert left == []
    assert results(folder) == results(reference)
    # The killed worker's containers end with their match (the bot's stream
    # closes); the docker level removes what a dead arena process left at
    # its next start, which a lost machine may never make: waited for here.
    end = time.monotonic() + 60
    while _containers(ids) and time.monotonic() < end:
        time.sleep(0.5)
    assert _containers(ids) == []
