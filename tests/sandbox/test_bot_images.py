"""Bots that ship a Dockerfile: the build is confined and bounded, and
older builds of a bot do not pile up (arena/sandbox/bot_images.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.sandbox import available_levels, bot_images
from arena.sandbox.api import SandboxError
from arena.sandbox.botfile import BotSpec, load_bot

pytestmark = [pytest.mark.slow, pytest.mark.docker]


@pytest.fixture
def client() -> object:
    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    from arena.sandbox import docker_level
    from arena.sandbox.base_images import PYTHON_IMAGE

    if not docker_level.image_present(PYTHON_IMAGE):
        pytest.skip(f"image {PYTHON_IMAGE} not built")
    return docker_level.client()


def dockerfile_bot(root: Path, name: str, steps: str, extra: str = "") -> BotSpec:
    from arena.sandbox.base_images import PYTHON_IMAGE

    folder = root / name
    folder.mkdir(exist_ok=True)
    (folder / "Dockerfile").write_text(f"FROM {PYTHON_IMAGE}\n{steps}\n")
    (folder / "bot.py").write_text(f"print('hello')\n{extra}")
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    return load_bot(folder)


def tags(client: object, bot: BotSpec) -> list[str]:
    """The bot's builds (an image built alike for another bot carries both bots' tags)."""
    repo = bot_images.repository(bot)
    images = client.images.list(name=repo)  # type: ignore[attr-defined]
    return sorted(t for image in images for t in image.tags if t.startswith(f"{repo}:"))


def test_a_build_step_over_the_memory_limit_fails_and_leaves_no_image(
    client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot_images, "BUILD_MEMORY_MB", 64)
    bot = dockerfile_bot(tmp_path, "buildhog", 'RUN ["python3", "-c", "b = bytearray(300 * 2**20)"]')
    with pytest.raises(SandboxError, match="building its Dockerfile failed"):
        bot_images.build(client, bot, None)
    assert tags(client, bot) == []


def test_a_build_that_takes_too_long_is_given_up(
    client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot_images, "BUILD_SECONDS", 3.0)
    bot = dockerfile_bot(tmp_path, "slowbuild", 'RUN ["python3", "-c", "import time; time.sleep(60)"]')
    t0 = time.monotonic()
    with pytest.raises(SandboxError, match="took longer than 3s"):
        bot_images.build(client, bot, None)
    assert time.monotonic() - t0 < 30
    assert tags(client, bot) == []


def test_an_image_over_the_size_cap_is_removed(
    client: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot_images, "IMAGE_MB", 1)
    # arena-python:1 alone is about 60 MB: over a 1 MB cap already.
    bot = dockerfile_bot(tmp_path, "bigimage", "ENV BIG=1")
    with pytest.raises(SandboxError, match=r"the image is \d+ MB, more than the 1 MB allowed"):
        bot_images.build(client, bot, None)
    assert tags(client, bot) == []


def test_a_new_build_removes_the_bots_older_builds(client: object, tmp_path: Path) -> None:
    first = dockerfile_bot(tmp_path, "rebuilt", "ENV V=1")
    second = dockerfile_bot(tmp_path, "rebuilt", "ENV V=1", extra="# changed\n")
    other = dockerfile_bot(tmp_path, "rebuilt-other", "ENV V=1")
    assert first.content_hash != second.content_hash
    try:
        assert bot_images.build(client, first, None) == bot_images.dockerfile_tag(first)
        bot_images.build(client, other, None)
        assert tags(client, first) == [bot_images.dockerfile_tag(first)]
        bot_images.build(client, second, None)
        assert tags(client, second) == [bot_images.dockerfile_tag(second)]
        # Another bot's builds are not this bot's, even with a name that starts alike.
        assert tags(client, other) == [bot_images.dockerfile_tag(other)]
    finally:
        for bot in (first, second, other):
            for tag in tags(client, bot):
                client.images.remove(tag, force=True)  # type: ignore[attr-defined]
