"""`arena analyze DIR --bot NAME --dask ADDRESS`: a real Dask scheduler and
a real `arena worker` in a folder of its own (no shared files: each task
carries its replay's text) value the bot's seats, and the reports kept in
the folder are byte for byte those of the same analysis run here. The
refusals of --dask are one line each, before anything is sent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clihelp import cli, cli_here, refused
from tournament.cluster import cluster
from web.stored import stored_tournament

pytestmark = pytest.mark.slow

ARGS = ("--bot", "greedy", "--matches", "2", "--work", "4")


def _reports(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (folder / "analysis").rglob("*.json")}


def test_a_folder_analysed_on_a_cluster_is_the_same_as_here(tmp_path: Path) -> None:
    here = stored_tournament(tmp_path / "here", fast=True)
    there = tmp_path / "there"
    shutil.copytree(here, there)
    local = cli_here("analyze", here, *ARGS)
    assert local.returncode == 0, local.stderr
    with cluster(tmp_path / "cluster") as c:
        c.worker("a")
        done = cli("analyze", there, *ARGS, "--dask", c.address, timeout=600)
        assert done.returncode == 0, done.stderr
        assert c.close() == []
    mine, theirs = _reports(here), _reports(there)
    assert len(mine) == 2 and mine == theirs
    assert done.stdout == local.stdout.replace(str(here), str(there))
    # The cache: run again, nothing is sent (no scheduler needed).
    again = cli_here("analyze", there, *ARGS, "--dask", "tcp://127.0.0.1:9")
    assert again.returncode == 0 and "2 already done" in again.stderr, again.stderr


def test_dask_refusals_are_one_line(tmp_path: Path) -> None:
    folder = stored_tournament(tmp_path / "t", fast=True)
    replay = next((folder / "replays").iterdir())
    refused(cli("analyze", folder, *ARGS, "--dask", "tcp://10.0.0.1:8786"),
            "--dask tcp://10.0.0.1:8786: plain tcp:// to another machine")
    refused(cli_here("analyze", replay, "--dask", "tcp://127.0.0.1:8786"),
            "--dask: for a tournament's or gauntlet's folder, not a replay")
    refused(cli_here("analyze", folder, *ARGS, "--dask", "127.0.0.1:8786"),
            "--dask '127.0.0.1:8786' is neither 'local' nor tcp://host:port")
    refused(cli_here("analyze", folder, *ARGS, "--dask", "tcp://127.0.0.1:8786", "--jobs", "2"),
            "--jobs: with --dask the cluster's workers analyse the seats")
    refused(cli_here("analyze", folder, *ARGS, "--tls", str(tmp_path)), "--tls: an option of --dask")
    assert not (folder / "analysis").exists()
