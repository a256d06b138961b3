"""A bot folder as one tar.gz in memory, and back: what `arena submit`
uploads to a ladder and what a Dask coordinator ships to workers of other
machines (arena/tournament/executors/cluster.py), each as its content hash counts
the bot's files (botfile.bot_files).
"""

from __future__ import annotations

import io
import os
import tarfile
import tempfile
from pathlib import Path
from typing import Literal

from arena.sandbox.botfile import bot_files, folder_hash


class PackError(ValueError):
    """A folder that cannot be packed, or a pack that is not the bot it
    claims to be: one line naming the file or the hash."""


def pack(folder: Path, links: Literal["refuse", "skip"] = "refuse") -> bytes:
    """The files that make the bot, plain files only, modes 0644 or 0755,
    no owners, fixed times (the same folder packs to the same bytes).
    Symbolic links are refused (PackError) or, with `links="skip"`, left
    out, as the content hash leaves them out."""
    files = bot_files(folder)
    if links == "refuse":
        for rel, path in files:
            if path.is_symlink():
                raise PackError(f"{folder / rel}: a symbolic link")
        for path in folder.rglob("*"):
            if path.is_symlink() and path.is_dir():
                raise PackError(f"{path}: a symbolic link")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=9) as tar:
        for rel, path in files:
            if path.is_symlink():
                continue
            data = path.read_bytes()
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o755 if os.access(path, os.X_OK) else 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def unpack(data: bytes, into: Path, content_hash: str) -> Path:
    """Unpack `data` as folder `into` (which must not exist yet), whole or
    not at all: into a sibling first, its content hash checked, then
    renamed. Returns `into`; PackError if the files hash to anything but
    `content_hash` (nothing is left then). A folder that appeared at `into`
    meanwhile (another worker of this machine) is kept."""
    into.parent.mkdir(parents=True, exist_ok=True)
    # A folder of this call's own: two threads of one worker process (a
    # Dask worker's) unpacking the same bot at once must not share one
    # (with the pid as its only name they did, and one's files or clean-up
    # landed in the other's: a hash mismatch).
    part = Path(tempfile.mkdtemp(prefix=f"{into.name}.", suffix=".part", dir=into.parent))
    os.chmod(part, 0o755)  # as a folder made by extractall: readable by the sandboxes
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            # The "data" filter: regular files and folders only, inside `part`.
            tar.extractall(part, filter="data")
        got = folder_hash(part)
        if got != content_hash:
            raise PackError(f"the bot's files as received hash to {got[:12]}, not "
                            f"{content_hash[:12]}")
        try:
            os.rename(part, into)
        except OSError:
            if not into.is_dir():
                raise
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise PackError(f"the bot's files as received cannot be unpacked: {exc}") from None
    finally:
        if part.exists():
            import shutil

            shutil.rmtree(part, ignore_errors=True)
    return into
