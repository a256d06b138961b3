"""Level choice, stale-container cleanup, images and the `arena sandbox` commands."""

from __future__ import annotations

import contextlib
import importlib.util
import marshal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.sandbox import SandboxError, available_levels, resolve_level
from arena.sandbox.botfile import BotSpec

from .conftest import MakeBot


def test_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(SandboxError, match="unknown sandbox level 'vm'"):
        resolve_level("vm")


def test_a_requested_level_this_machine_lacks_is_unavailable_not_a_bot_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arena.sandbox import SandboxUnavailable, levels

    monkeypatch.setattr(levels, "available_levels", lambda: ("process",))
    with pytest.raises(SandboxUnavailable, match="'docker' is not available on this machine"):
        resolve_level("docker")


def test_bwrap_uids_of_two_referee_processes_never_meet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots of concurrent matches must not share a uid (nor its RLIMIT_NPROC),
    even when the referees' pids are alike modulo a round number."""
    from arena.sandbox import bwrap

    def uids(pid: int) -> set[int]:
        monkeypatch.setattr(bwrap.os, "getpid", lambda: pid)
        return {bwrap.next_uid() for _ in range(bwrap.UIDS_PER_PROCESS)}

    first, second = uids(1001), uids(2001)
    assert len(first) == len(second) == bwrap.UIDS_PER_PROCESS
    assert not first & second
    assert max(uids(2**22)) < 2**31


def test_process_level_is_always_available_and_last() -> None:
    assert available_levels()[-1] == "process"


def test_auto_skips_docker_for_a_bot_without_image(make_bot: MakeBot) -> None:
    bot = make_bot("plain", "pass", image="")
    assert resolve_level("auto", bot) == available_levels()[1 if "docker" in
                                                           available_levels() else 0]


def test_auto_picks_docker_when_the_image_exists(make_bot: MakeBot) -> None:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    from arena.sandbox import docker_level

    bot = make_bot("imaged", "pass")
    if not docker_level.image_present(bot.image):
        pytest.skip(f"image {bot.image} not built (arena sandbox build-images)")
    assert resolve_level("auto", bot) == "docker"


def test_auto_with_nothing_runnable_says_so(tmp_path: Path) -> None:
    bot = BotSpec(name="ghost", version="1", language="x", path=str(tmp_path),
                  image="no-such-image:0")
    if "docker" in available_levels():
        pytest.skip("docker available: the image check is the docker test's job")
    with pytest.raises(SandboxError, match="ghost@1"):
        resolve_level("auto", bot)


def test_unchecked_pyc_loads_without_its_source(tmp_path: Path) -> None:
    from arena.sandbox.base_images import unchecked_pyc

    src = tmp_path / "m.py"
    src.write_text("VALUE = 6 * 7\n")
    data = unchecked_pyc(src)
    assert data is not None
    assert data[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(data[4:8], "little") == 1  # hash-based, never checked
    ns: dict[str, object] = {}
    exec(marshal.loads(data[16:]), ns)  # noqa: S102 - our own compiled test module
    assert ns["VALUE"] == 42


def test_python_recipe_is_small_and_its_digest_stable() -> None:
    from arena.sandbox.base_images import SITE_DIR, python_recipe

    a, b = python_recipe(), python_recipe()
    assert a.digest() == b.digest()
    (zip_name,) = a.zips
    assert "os.py" in a.zips[zip_name] and "arena/sdk/__init__.py" in a.zips[zip_name]
    assert any(d.startswith(f"{SITE_DIR}/grpc/") for d in a.files)
    assert len(a.files) < 600  # vfs copies every file at every container start


def test_cli_levels_lists_every_level() -> None:
    out = CliRunner().invoke(app, ["sandbox", "levels"])
    assert out.exit_code == 0, out.output
    for level in ("docker", "bwrap", "process", "auto"):
        assert level in out.output


@pytest.mark.slow
@pytest.mark.docker
def test_cleanup_stale_removes_containers_of_dead_owners_only() -> None:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    from arena.sandbox import docker_level
    from arena.sandbox.base_images import PYTHON_IMAGE

    if not docker_level.image_present(PYTHON_IMAGE):
        pytest.skip(f"image {PYTHON_IMAGE} not built")
    client = docker_level.client()
    dead = client.containers.create(
        PYTHON_IMAGE, ["python3", "-c", "pass"], network_mode="none",
        labels={"arena.bot": "1", "arena.owner": f"{docker_level.socket.gethostname()}:999999999"})
    alive = client.containers.create(
        PYTHON_IMAGE, ["python3", "-c", "pass"], network_mode="none",
        labels={"arena.bot": "1", "arena.owner": docker_level.owner_label()})
    try:
        assert docker_level.cleanup_stale() >= 1
        ids = {c["Id"] for c in client.api.containers(all=True, filters={"label": "arena.bot=1"})}
        assert dead.id not in ids
        assert alive.id in ids
    finally:
        for c in (dead, alive):
            with contextlib.suppress(Exception):  # already removed
                c.remove(force=True)


@pytest.mark.slow
@pytest.mark.docker
def test_build_images_is_idempotent() -> None:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    from arena.sandbox import docker_level
    from arena.sandbox.base_images import PYTHON_IMAGE, build, python_recipe

    # One recipe, built twice: the arena package may change under a shared
    # working tree between two python_recipe() calls (and then must rebuild).
    recipe = python_recipe()
    client = docker_level.client()
    first = build(recipe, PYTHON_IMAGE, client)
    image_id = client.images.get(first).id
    assert build(recipe, PYTHON_IMAGE, client) == first
    assert client.images.get(PYTHON_IMAGE).id == image_id
    assert first == f"arena-python:{recipe.digest()}"


def test_python_is_the_arenas_interpreter() -> None:
    from arena.sandbox.process import base_env

    env = base_env("process", "m")
    assert env["PATH"].split(":")[0] == str(Path(sys.executable).parent)


@pytest.mark.slow
@pytest.mark.docker
def test_a_bot_with_a_dockerfile_gets_its_image_built(tmp_path: Path) -> None:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    from arena.sandbox import bot_images, docker_level, launch
    from arena.sandbox.base_images import PYTHON_IMAGE
    from arena.sandbox.botfile import load_bot

    if not docker_level.image_present(PYTHON_IMAGE):
        pytest.skip(f"image {PYTHON_IMAGE} not built")
    folder = tmp_path / "dockerbot"
    folder.mkdir()
    (folder / "Dockerfile").write_text(f"FROM {PYTHON_IMAGE}\nENV GREETING=built\n")
    (folder / "bot.py").write_text("import os\nprint('greeting', os.environ['GREETING'])\n")
    (folder / "bot.toml").write_text('name = "dockerbot"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    bot = load_bot(folder)
    assert resolve_level("auto", bot) == "docker"
    handle = launch(bot, "docker", env={}, socket_dir=str(tmp_path),
                    log_path=str(tmp_path / "bot.log"))
    try:
        assert handle.wait(120) == 0
    finally:
        handle.cleanup()
    assert "greeting built" in (tmp_path / "bot.log").read_text()
    docker_level.client().images.remove(bot_images.dockerfile_tag(bot), force=True)
