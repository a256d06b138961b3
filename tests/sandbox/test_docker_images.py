"""Bot images that declare VOLUMEs, and one uid per container (docker level).

Docker gives every VOLUME of an image an anonymous volume: writable through
the read-only root, unbounded, and kept after the container unless it is
removed with it. The arena mounts a size-capped tmpfs over each instead and
removes containers with their volumes. Each container also runs as a uid of
its own, so that per-user kernel limits are not shared between bots.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox.api import Limits
from arena.sandbox.botfile import load_bot

from .attacks import leftovers

pytestmark = [pytest.mark.slow, pytest.mark.docker]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# Folders anyone may write to, then declared as volumes (the image has no
# shell: RUN in exec form, with the image's Python).
WRITABLE_VOLUMES = """FROM arena-python:1
RUN ["python3", "-c", "import os\\nfor d in ('/data', '/var/spool/bot'):\\n    os.makedirs(d)\\n    os.chmod(d, 0o777)"]
VOLUME /data /var/spool/bot
"""


@pytest.fixture
def docker_client() -> Any:
    from arena.sandbox import available_levels, docker_level

    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    return docker_level.client()


def _adversary(root: Path, attack: str, config: dict[str, object], dockerfile: str = "") -> Path:
    folder = root / "bots" / attack
    folder.mkdir(parents=True)
    for shared in ("adversary.py", "reach.py"):
        shutil.copy(HERE / "adversaries" / shared, folder / shared)
    shutil.copy(HERE / "adversaries" / f"{attack}.py", folder / "bot.py")
    (folder / "attack.json").write_text(json.dumps(config))
    image = "" if dockerfile else 'image = "arena-python:1"\n'
    (folder / "bot.toml").write_text(
        f'name = "{attack.replace("_", "-")}"\nversion = "1"\nlanguage = "python"\n'
        f'run = "python3 bot.py"\n{image}')
    if dockerfile:
        (folder / "Dockerfile").write_text(dockerfile)
    return folder


def _random(root: Path) -> Path:
    folder = root / "bots" / "random"
    shutil.copytree(ROOT / "sample_bots" / "random", folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _volumes(client: Any) -> set[str]:
    return {v.name for v in client.volumes.list()}


def test_declared_volumes_are_capped_tmpfs_and_nothing_is_left(
        tmp_path: Path, docker_client: Any) -> None:
    os.chmod(tmp_path, 0o755)
    volumes = ["/data", "/var/spool/bot"]
    folder = _adversary(tmp_path, "volume_filler", {"volumes": volumes, "limit_mb": 64},
                        dockerfile=WRITABLE_VOLUMES)
    bot = load_bot(folder)
    other = load_bot(_random(tmp_path))
    before = _volumes(docker_client)
    limits = Limits(tmpfs_mb=8)
    spec = MatchSpec(
        match_id="volumes", bots=(bot, other, other), seed=3, sandbox="docker",
        rules_options=(("max_deals", 1),), work_dir=str(tmp_path / "work"), limits=limits,
        time_control=TimeControl(per_move=20.0, bank=20.0, startup=300.0))
    from arena.sandbox import bot_images

    try:
        result = run_match(spec)
        log = Path(result.seats[0].log_path).read_text(errors="replace")
        found = dict(re.findall(r"^ATTACK volume (\S+): (.*)$", log, re.MULTILINE))
        assert set(found) == {*volumes, "/tmp"}, log[-3000:]
        for folder_, outcome in found.items():
            stopped = re.fullmatch(r"stopped at (\d+) MB: failed ENOSPC.*", outcome)
            assert stopped and int(stopped.group(1)) <= limits.tmpfs_mb, (folder_, outcome)
        assert [s.status for s in result.seats] == ["ok", "ok", "ok"], result.seats
        assert all(n == 0 for s in result.seats for _, n in s.faults)
        assert all(s.sandbox == "docker" for s in result.seats)
        assert leftovers(tmp_path) == []
        assert _volumes(docker_client) - before == set()  # no anonymous volume left
    finally:
        import contextlib

        with contextlib.suppress(Exception):
            docker_client.images.remove(bot_images.dockerfile_tag(bot), force=True)


def test_an_image_with_too_many_volumes_is_refused(tmp_path: Path, docker_client: Any) -> None:
    from arena.sandbox import SandboxError, bot_images, docker_level

    many = " ".join(f"/v{i}" for i in range(docker_level.MAX_VOLUMES + 1))
    folder = _adversary(tmp_path, "quitter", {}, dockerfile=f"FROM arena-python:1\nVOLUME {many}\n")
    bot = load_bot(folder)
    try:
        with pytest.raises(SandboxError, match=r"declares VOLUME .*at most 8 folders"):
            docker_level.launch_docker(bot, {}, str(tmp_path), str(tmp_path / "log"), Limits(), "m")
    finally:
        import contextlib

        with contextlib.suppress(Exception):
            docker_client.images.remove(bot_images.dockerfile_tag(bot), force=True)


def test_each_container_has_a_uid_of_its_own(tmp_path: Path, docker_client: Any) -> None:
    """Three bots of one match, at once, each take every inotify instance
    their user may have (a per-user kernel limit) and hold them: each runs
    as a uid of its own, so each gets the whole allowance."""
    os.chmod(tmp_path, 0o755)
    bot = load_bot(_adversary(tmp_path, "inotify_hog", {}))
    spec = MatchSpec(
        match_id="uids", bots=(bot, bot, bot), seed=5, sandbox="docker",
        rules_options=(("max_deals", 1),), work_dir=str(tmp_path / "work"),
        time_control=TimeControl(per_move=20.0, bank=20.0, startup=300.0))
    result = run_match(spec)
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"], result.seats
    assert all(s.sandbox == "docker" for s in result.seats)
    reports = []
    for seat in result.seats:
        log = Path(seat.log_path).read_text(errors="replace")
        (line,) = re.findall(r"^ATTACK inotify: uid (\d+) held (\d+): (.*)$", log, re.MULTILINE)
        reports.append(line)
    uids = {int(uid) for uid, _, _ in reports}
    assert len(uids) == 3 and all(uid >= 200_000 for uid in uids), reports
    allowance = int(Path("/proc/sys/fs/inotify/max_user_instances").read_text())
    if allowance < Limits().open_files - 64:
        # The per-user limit binds before the bot's own open-files limit: each
        # bot got all of it, so none shared it with another.
        assert all(int(held) == allowance for _, held, _ in reports), reports
    else:  # a machine whose per-user allowance is larger than what one bot may open
        assert all(int(held) > 0 for _, held, _ in reports), reports
    assert leftovers(tmp_path) == []


PROBE = """FROM arena-python:1
RUN ["python3", "-c", "import socket\\ns = socket.socket()\\ns.settimeout(5)\\ntry:\\n    s.connect(('127.0.0.1', {port}))\\n    r = 'connected'\\nexcept OSError as e:\\n    import errno\\n    r = 'failed ' + errno.errorcode.get(e.errno, str(e))\\nopen('/build-net.txt', 'w').write(r)"]
"""


def test_a_build_reaches_no_network_and_remote_sources_are_refused(
        tmp_path: Path, docker_client: Any) -> None:
    """A real build of a bot's Dockerfile: its RUN step cannot reach a
    listener on the host's 127.0.0.1 (network none), and an `ADD` of that
    listener's URL is refused before any build (at load, and again by the
    build itself if the file changed since), naming the file and line."""
    from arena.sandbox import SandboxError, bot_images, docker_level
    from arena.sandbox.botfile import BotFileError

    from .attacks import Listener

    os.chmod(tmp_path, 0o755)
    listener = Listener()
    tags = []
    try:
        folder = _adversary(tmp_path, "build_probe", {},
                            dockerfile=PROBE.replace("{port}", str(listener.port)))
        bot = load_bot(folder)
        tags.append(bot_images.dockerfile_tag(bot))
        other = load_bot(_random(tmp_path))
        result = run_match(MatchSpec(
            match_id="build", bots=(bot, other, other), seed=5, sandbox="docker",
            rules_options=(("max_deals", 1),), work_dir=str(tmp_path / "work"),
            time_control=TimeControl(per_move=20.0, bank=20.0, startup=300.0)))
        assert [s.status for s in result.seats] == ["ok", "ok", "ok"], result.seats
        log = Path(result.seats[0].log_path).read_text(errors="replace")
        (found,) = re.findall(r"^ATTACK build network: (.*)$", log, re.MULTILINE)
        assert found.startswith("failed "), found
        assert listener.hits == 0

        remote = f"FROM arena-python:1\nCOPY bot.py /x\nADD http://127.0.0.1:{listener.port}/p /p\n"
        (folder / "Dockerfile").write_text(remote)
        changed = dataclasses.replace(bot, content_hash="0" * 64)  # as loaded before the edit
        tags.append(bot_images.dockerfile_tag(changed))
        with pytest.raises(SandboxError, match=r"Dockerfile:3: ADD http://127\.0\.0\.1:\d+/p"):
            docker_level.launch_docker(changed, {}, str(tmp_path), str(tmp_path / "log"),
                                       Limits(), "m")
        with pytest.raises(BotFileError, match=r"Dockerfile:3: ADD http://127\.0\.0\.1:\d+/p"):
            load_bot(folder)
        assert listener.hits == 0
        assert leftovers(tmp_path) == []
    finally:
        listener.close()
        import contextlib

        for tag in tags:
            with contextlib.suppress(Exception):
                docker_client.images.remove(tag, force=True)
