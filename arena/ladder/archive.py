"""An uploaded bot: a tar.gz or zip of its folder, read and checked in
memory before a single byte of it is written.

Refused, each in one line naming the entry:

* more than `upload_bytes` as sent (the server stops reading there);
* not gzip'd tar nor zip; a gzip stream with data after it;
* unpacking to more than `unpacked_bytes` (a zip or gzip bomb: the gzip
  stream is inflated with a bound, never whole; a zip entry is read with
  a bound, whatever size its header claims);
* more than `files` entries;
* an absolute path, a `..` part, a backslash, a NUL or a control
  character in a name, a name twice, a file where a folder is needed;
* anything but plain files and folders: symbolic links, hard links,
  character and block devices, FIFOs (tar), links and devices by their
  mode bits (zip); an encrypted zip entry;
* no bot.toml at the top (the folder itself, or the one folder the
  archive holds, as `tar czf bot.tar.gz mybot/` makes).

What comes out is a list of (relative path, bytes, executable) that
`intake` writes with modes of its own (0644, or 0755 where the archive
marked a file executable), never the archive's owners or other bits.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from arena.ladder.errors import Refused

NAME_BYTES = 255      # one path part
PATH_BYTES = 1024     # a whole path
DEPTH = 32


@dataclass(frozen=True)
class Caps:
    upload_bytes: int
    files: int
    unpacked_bytes: int


@dataclass(frozen=True)
class Entry:
    path: str            # relative, POSIX, checked
    data: bytes
    executable: bool


def _refuse(message: str) -> Refused:
    return Refused(f"archive refused: {message}", 400)


def _checked_name(raw: str) -> tuple[str, ...]:
    """The parts of an entry's name; Refused for a name that could reach
    outside the bot's folder or that no file system should be given."""
    shown = raw[:80].encode("unicode_escape").decode()
    if not raw or raw.startswith("/") or raw.startswith("\\") or (len(raw) > 1 and raw[1] == ":"):
        raise _refuse(f"entry {shown!r}: an absolute path")
    if "\\" in raw:
        raise _refuse(f"entry {shown!r}: a backslash in a name")
    if any(not c.isprintable() for c in raw):
        raise _refuse(f"entry {shown!r}: a control character in a name")
    if len(raw.encode()) > PATH_BYTES:
        raise _refuse(f"entry {shown!r}: a path longer than {PATH_BYTES} bytes")
    parts = tuple(p for p in raw.split("/") if p not in ("", "."))
    if ".." in parts:
        raise _refuse(f"entry {shown!r}: a '..' in the path")
    if len(parts) > DEPTH or any(len(p.encode()) > NAME_BYTES for p in parts):
        raise _refuse(f"entry {shown!r}: too deep, or a name longer than {NAME_BYTES} bytes")
    return parts


def read(data: bytes, caps: Caps) -> list[Entry]:
    """The files of an uploaded archive, checked (see the module's docstring)."""
    if len(data) > caps.upload_bytes:
        raise _refuse(f"{len(data)} bytes, more than the {caps.upload_bytes} allowed")
    if data[:2] == b"\x1f\x8b":
        entries = _tar(_gunzip(data, caps), caps)
    elif data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        entries = _zip(data, caps)
    else:
        raise _refuse("not a tar.gz or a zip file")
    return _rooted(entries)


def _gunzip(data: bytes, caps: Caps) -> bytes:
    # What a tar of `files` entries may hold beyond their contents: a header
    # and padding per entry, two end blocks; long names in extra headers.
    bound = caps.unpacked_bytes + (caps.files + 2) * 1536 + 10240
    inflate = zlib.decompressobj(wbits=31)
    try:
        out = inflate.decompress(data, bound + 1)
    except zlib.error as exc:
        raise _refuse(f"not a valid gzip stream ({exc})") from None
    if len(out) > bound or inflate.unconsumed_tail:
        raise _refuse(f"unpacks to more than {caps.unpacked_bytes} bytes")
    if not inflate.eof:
        raise _refuse("the gzip stream is cut short")
    if inflate.unused_data.strip(b"\0"):
        raise _refuse("data after the gzip stream")
    return out


def _tar(raw: bytes, caps: Caps) -> list[tuple[tuple[str, ...], bytes | None, bool]]:
    out: list[tuple[tuple[str, ...], bytes | None, bool]] = []
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
            for member in tar:
                if len(out) >= caps.files:
                    raise _refuse(f"more than {caps.files} entries")
                parts = _checked_name(member.name)
                if member.issym() or member.islnk():
                    kind = "a symbolic link" if member.issym() else "a hard link"
                    raise _refuse(f"entry {member.name[:80]!r}: {kind}")
                if member.isdir():
                    out.append((parts, None, False))
                    continue
                if not member.isreg():
                    kind = ("a device" if member.ischr() or member.isblk()
                            else "a FIFO" if member.isfifo() else "not a plain file")
                    raise _refuse(f"entry {member.name[:80]!r}: {kind}")
                total += member.size
                if total > caps.unpacked_bytes:
                    raise _refuse(f"unpacks to more than {caps.unpacked_bytes} bytes")
                handle = tar.extractfile(member)
                body = handle.read() if handle is not None else b""
                out.append((parts, body, bool(member.mode & 0o111)))
    except tarfile.TarError as exc:
        raise _refuse(f"not a valid tar archive ({exc})") from None
    return out


def _zip(data: bytes, caps: Caps) -> list[tuple[tuple[str, ...], bytes | None, bool]]:
    out: list[tuple[tuple[str, ...], bytes | None, bool]] = []
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if len(infos) > caps.files:
                raise _refuse(f"more than {caps.files} entries")
            for info in infos:
                parts = _checked_name(info.filename)
                mode = info.external_attr >> 16
                kind = stat.S_IFMT(mode)
                if info.flag_bits & 0x1:
                    raise _refuse(f"entry {info.filename[:80]!r}: encrypted")
                if kind == stat.S_IFLNK:
                    raise _refuse(f"entry {info.filename[:80]!r}: a symbolic link")
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise _refuse(f"entry {info.filename[:80]!r}: not a plain file")
                if info.is_dir() or kind == stat.S_IFDIR:
                    out.append((parts, None, False))
                    continue
                left = caps.unpacked_bytes - total
                # Read with a bound, whatever the header says (a bomb lies there).
                with archive.open(info) as handle:
                    body = handle.read(left + 1)
                total += len(body)
                if total > caps.unpacked_bytes:
                    raise _refuse(f"unpacks to more than {caps.unpacked_bytes} bytes")
                out.append((parts, body, bool(mode & 0o111)))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError,
            zlib.error, ValueError) as exc:
        raise _refuse(f"not a valid zip archive ({exc})") from None
    return out


def _rooted(found: list[tuple[tuple[str, ...], bytes | None, bool]]) -> list[Entry]:
    """The entries relative to the bot's folder: the archive's top, or the
    one folder everything is in when bot.toml is there. Refuses names that
    come twice or that are both a file and a folder."""
    files = [(p, b, x) for p, b, x in found if b is not None and p]
    tops = {p[0] for p, _, _ in found if p}
    strip = (len(tops) == 1 and (next(iter(tops)), "bot.toml") in {p for p, _, _ in files}
             and ("bot.toml",) not in {p for p, _, _ in files})
    entries: dict[PurePosixPath, Entry] = {}
    folders: set[PurePosixPath] = set()
    for parts, body, executable in files:
        rel = PurePosixPath(*(parts[1:] if strip else parts))
        if rel in entries:
            raise _refuse(f"entry {str(rel)[:80]!r} comes twice")
        entries[rel] = Entry(rel.as_posix(), body or b"", executable)
        folders.update(rel.parents)
    clash = sorted(str(p) for p in folders & set(entries))
    if clash:
        raise _refuse(f"entry {clash[0][:80]!r} is both a file and a folder")
    if PurePosixPath("bot.toml") not in entries:
        raise _refuse("no bot.toml at the top (pack the bot's folder: "
                      "`tar czf bot.tar.gz -C mybot .`, or use `arena submit`)")
    return [entries[k] for k in sorted(entries)]
