"""Each container's init from a copy of its own (arena/sandbox/own_init.py):
the arguments that run the image's command under it, and the copies a
crashed arena process left behind. The channel it closes is tested with
real containers in test_collusion.py."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from arena.sandbox import own_init
from arena.sandbox.own_init import INIT_PATH, PREFIX, OwnInit


@pytest.mark.skipif(own_init.host_init() is None, reason="no docker-init or tini-static here")
def test_the_copy_is_a_file_of_its_own_and_runs_the_images_command() -> None:
    one, two = OwnInit(), OwnInit()
    try:
        assert one.path and two.path
        source = os.stat(own_init.host_init())  # type: ignore[arg-type]
        inodes = {os.stat(one.path).st_ino, os.stat(two.path).st_ino, source.st_ino}
        assert len(inodes) == 3  # no two containers lock the same file
        assert Path(one.path).read_bytes() == Path(own_init.host_init()).read_bytes()  # type: ignore[arg-type]
        config = {"Entrypoint": ["/entry"], "Cmd": ["serve", "--x"]}
        assert one.create_args([], config) == {
            "init": False, "entrypoint": [INIT_PATH, "--", "/entry"], "command": ["serve", "--x"]}
        assert one.create_args(["python3", "bot.py"], {"Entrypoint": None, "Cmd": ["sh"]}) == {
            "init": False, "entrypoint": [INIT_PATH, "--"], "command": ["python3", "bot.py"]}
        assert one.mount() == {one.path: {"bind": INIT_PATH, "mode": "ro"}}
        folder = one.folder
        one.remove()
        assert folder and not os.path.exists(folder) and one.mount() == {}
    finally:
        one.remove()
        two.remove()


def test_without_a_host_init_docker_s_own_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(own_init, "host_init", lambda: None)
    init = OwnInit()
    assert init.path is None and init.mount() == {}
    assert init.create_args(["python3", "bot.py"], {}) == {"init": True, "command": ["python3", "bot.py"]}
    assert init.create_args([], {}) == {"init": True, "command": None}


def test_copies_of_arena_processes_gone_are_removed() -> None:
    dead = tempfile.mkdtemp(prefix=f"{PREFIX}999999999-")
    mine = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    try:
        # Only the made-up pid is dead: other pytest workers' live copies (a docker
        # test starting a container this moment) must stay, or their container
        # gets docker's empty directory in place of its init.
        own_init.remove_stale(lambda pid: pid != 999999999)
        assert not os.path.exists(dead) and os.path.isdir(mine)
    finally:
        for folder in (dead, mine):
            if os.path.isdir(folder):
                os.rmdir(folder)
