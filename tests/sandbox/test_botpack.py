"""A bot folder packed and unpacked by content hash (arena/sandbox/botpack.py):
what a Dask coordinator ships to workers of other machines."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from arena.sandbox.botfile import folder_hash
from arena.sandbox.botpack import PackError, pack, unpack


def bot(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    (folder / "lib").mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "b"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    (folder / "bot.py").write_text("print('hi')\n")
    (folder / "lib" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(folder / "lib" / "run.sh", 0o755)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"cache")
    return folder


def test_a_pack_unpacks_to_the_same_bot_with_its_modes(tmp_path: Path) -> None:
    folder = bot(tmp_path)
    data = pack(folder)
    into = unpack(data, tmp_path / "cache" / folder_hash(folder), folder_hash(folder))
    assert folder_hash(into) == folder_hash(folder)
    assert os.access(into / "lib" / "run.sh", os.X_OK)
    assert not (into / "__pycache__").exists()  # not part of the bot
    assert [p.name for p in into.parent.iterdir()] == [into.name]  # no part folder left


def test_files_that_are_not_the_bot_are_refused_and_nothing_is_left(tmp_path: Path) -> None:
    folder = bot(tmp_path)
    data = pack(folder)
    (folder / "bot.py").write_text("print('changed')\n")
    want = folder_hash(folder)
    with pytest.raises(PackError, match=f"hash to .*, not {want[:12]}"):
        unpack(data, tmp_path / "cache" / want, want)
    assert list((tmp_path / "cache").iterdir()) == []
    with pytest.raises(PackError, match="cannot be unpacked"):
        unpack(b"not a tar", tmp_path / "cache" / want, want)
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_pack_with_a_path_outside_its_folder_is_refused(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../escaped")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(PackError, match="cannot be unpacked"):
        unpack(buf.getvalue(), tmp_path / "cache" / "h", "h")
    assert not (tmp_path / "escaped").exists()


def test_symbolic_links_are_refused_or_left_out_as_the_hash_leaves_them(tmp_path: Path) -> None:
    folder = bot(tmp_path)
    (folder / "link").symlink_to(folder / "bot.py")
    with pytest.raises(PackError, match="link: a symbolic link"):
        pack(folder)
    into = unpack(pack(folder, links="skip"), tmp_path / "c" / "x", folder_hash(folder))
    assert not (into / "link").exists()


def test_threads_of_one_process_unpacking_the_same_bot_at_once_all_get_it(tmp_path: Path) -> None:
    """A Dask worker's threads (one pid) receive the same bot at once: each
    unpacks into a folder of its own, one rename wins, every call gets the
    verified folder (they had shared one folder named by the pid, and a
    call saw the other's half-written files: a CI run's hash mismatch)."""
    import threading

    from arena.sandbox.botfile import folder_hash

    source = Path(__file__).resolve().parents[2] / "sample_bots" / "greedy"
    data = pack(source)
    want = folder_hash(source)
    for round_no in range(10):
        into = tmp_path / f"r{round_no}" / want
        errors: list[BaseException] = []
        start = threading.Barrier(4)

        def one(into: Path = into, start: threading.Barrier = start,
                errors: list[BaseException] = errors) -> None:
            try:
                start.wait()
                assert folder_hash(unpack(data, into, want)) == want
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == [], errors
        assert sorted(p.name for p in into.parent.iterdir()) == [want]  # no .part left
