"""Uploads are read and checked in memory (arena/ladder/archive.py): each
bad form refused in one line naming the entry, good ones unpacked."""

from __future__ import annotations

import tarfile
import zlib

import pytest

from arena.ladder.archive import Caps, read
from arena.ladder.errors import Refused

from .archives import special, tar_gz, zip_bytes

CAPS = Caps(upload_bytes=200_000, files=20, unpacked_bytes=100_000)
BOT = {"bot.toml": b'name = "x"\nversion = "1"\nlanguage = "python"\nrun = "python3 bot.py"\n',
       "bot.py": b"print(1)\n"}


def refused(data: bytes, fragment: str, caps: Caps = CAPS) -> None:
    with pytest.raises(Refused) as caught:
        read(data, caps)
    assert fragment in str(caught.value), str(caught.value)
    assert "\n" not in str(caught.value) and caught.value.status == 400


def test_a_good_tar_gz_and_zip_give_the_files() -> None:
    for data in (tar_gz(BOT, modes={"bot.py": 0o755}), zip_bytes(BOT, modes={"bot.py": 0o100755})):
        entries = read(data, CAPS)
        assert [(e.path, e.data, e.executable) for e in entries] == [
            ("bot.py", BOT["bot.py"], True), ("bot.toml", BOT["bot.toml"], False)]


def test_one_top_folder_is_the_bot_folder() -> None:
    entries = read(tar_gz({f"mybot/{k}": v for k, v in BOT.items()}), CAPS)
    assert sorted(e.path for e in entries) == ["bot.py", "bot.toml"]
    assert sorted(e.path for e in read(tar_gz({f"./{k}": v for k, v in BOT.items()}), CAPS)) == \
        ["bot.py", "bot.toml"]


@pytest.mark.parametrize(("name", "fragment"), [
    ("/etc/passwd", "an absolute path"),
    ("../outside", "'..'"),
    ("a/../../b", "'..'"),
    ("a\\b", "a backslash"),
    ("a\x1bb", "a control character"),
    ("C:/x", "an absolute path"),
])
def test_names_that_reach_out_are_refused(name: str, fragment: str) -> None:
    refused(tar_gz({**BOT, name: b"x"}), fragment)
    refused(zip_bytes({**BOT, name: b"x"}), fragment)


@pytest.mark.parametrize(("kind", "fragment"), [
    (tarfile.SYMTYPE, "a symbolic link"), (tarfile.LNKTYPE, "a hard link"),
    (tarfile.CHRTYPE, "a device"), (tarfile.BLKTYPE, "a device"), (tarfile.FIFOTYPE, "a FIFO"),
])
def test_links_and_devices_in_a_tar_are_refused(kind: bytes, fragment: str) -> None:
    refused(tar_gz(BOT, extra=[special("thing", kind, "/etc/passwd")]), fragment)


def test_a_symlink_in_a_zip_is_refused() -> None:
    refused(zip_bytes({**BOT, "link": b"/etc/passwd"}, modes={"link": 0o120777}), "a symbolic link")
    refused(zip_bytes({**BOT, "dev": b""}, modes={"dev": 0o020644}), "not a plain file")


def test_caps_are_kept() -> None:
    refused(tar_gz(BOT), "more than the 100 allowed", Caps(100, 20, 100_000))
    refused(tar_gz({**BOT, **{f"f{i}": b"" for i in range(30)}}), "more than 20 entries")
    refused(zip_bytes({**BOT, **{f"f{i}": b"" for i in range(30)}}), "more than 20 entries")


def test_bombs_are_stopped_by_the_unpacked_size() -> None:
    # 50 MB of zeros in a few kB: the inflation stops at the bound, never whole.
    big = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = big.compress(b"\0" * 50_000_000) + big.flush()
    assert len(bomb) < CAPS.upload_bytes
    refused(bomb, "unpacks to more than 100000 bytes")
    refused(tar_gz({**BOT, "big": b"\0" * 200_000}), "unpacks to more than 100000 bytes")
    refused(zip_bytes({**BOT, "big": b"\0" * 200_000}), "unpacks to more than 100000 bytes")


def test_other_bad_forms() -> None:
    refused(b"just text", "not a tar.gz or a zip")
    refused(tar_gz({"bot.py": b"x"}), "no bot.toml at the top")
    refused(tar_gz(BOT)[:-20], "gzip")
    refused(tar_gz(BOT) + b"more", "data after the gzip stream")
    refused(tar_gz({**BOT, "a": b"1", "a/b": b"2"}), "both a file and a folder")
    refused(zip_bytes(BOT)[:40], "not a valid zip archive")
