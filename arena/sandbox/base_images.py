"""Bot images for the docker level, assembled from this machine's own files.

There is no registry here, so `arena sandbox build-images` builds them
locally: a root file system holding just an interpreter, its standard
library, the shared libraries `ldd` says it needs and (for Python) the
packages a bot imports (grpc, protobuf, the arena package), written as a tar
and `docker import`ed. No network, a few seconds, small images (the vfs
storage driver copies the whole image for every container).

Each image is tagged with a hash of its inputs (`arena-python:<hash>`) and
with the stable tag bots name in bot.toml (`arena-python:1`). Building is
idempotent: if the hash tag exists, only the stable tag is (re)pointed.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECIPE_VERSION = 2  # bump when the way images are assembled changes
PYTHON_IMAGE = "arena-python:1"
NODE_IMAGE = "arena-node:1"
SHELL_IMAGE = "arena-shell:1"
# The Python image plus numpy: built on first use (ON_DEMAND), not by build_all,
# since few bots need its 70 MB.
NUMPY_IMAGE = "arena-numpy:1"
# The shell image: the Python image (the stdio bridge runs on it) plus these
# programs of this machine, for bots written in sh, jq or awk.
SHELL_TOOLS = (("dash", "/bin/sh"), ("jq", "/usr/bin/jq"), ("mawk", "/usr/bin/awk"))
SITE_DIR = "/opt/arena/site-packages"
_DYNLOAD_SKIP = ("_test", "_ctypes_test", "_xx", "xx", "_tkinter")
_STDLIB_SKIP = frozenset({"site-packages", "dist-packages", "test", "tests", "idlelib", "tkinter",
                          "turtledemo", "ensurepip", "lib2to3", "pydoc_data", "__phello__"})


class ImageBuildError(RuntimeError):
    """An image could not be assembled or imported; says which and why."""


@dataclass
class Recipe:
    """What goes into one image: files (host source -> image path) and settings."""

    repository: str
    files: dict[str, str] = field(default_factory=dict)      # image path -> host path
    symlinks: dict[str, str] = field(default_factory=dict)   # image path -> target
    env: dict[str, str] = field(default_factory=dict)
    zips: dict[str, dict[str, str]] = field(default_factory=dict)  # image path -> {arcname: host}
    # Binaries whose shared libraries go in too; resolved (slow: ldd) only when
    # building, the digest covers the binaries themselves.
    needs_libraries: list[str] = field(default_factory=list)
    _digest: str = ""

    def add_file(self, src: str | Path, dest: str | None = None) -> None:
        self.files[dest or str(src)] = str(Path(src).resolve())

    def add_zip_entry(self, zip_dest: str, arcname: str, src: Path) -> None:
        self.zips.setdefault(zip_dest, {})[arcname] = str(src)

    def add_tree(self, src: Path, dest: str, skip: Callable[[Path], bool] = lambda p: False) -> None:
        for dirpath, dirnames, filenames in os.walk(src):
            here = Path(dirpath)
            dirnames[:] = sorted(d for d in dirnames if not skip(here / d))
            for fn in sorted(filenames):
                p = here / fn
                if skip(p) or not p.is_file():
                    continue
                self.add_file(p, dest + "/" + p.relative_to(src).as_posix())

    def resolve_libraries(self) -> None:
        """Add every shared library `ldd` lists for `needs_libraries`, at the path
        ldd shows, and point LD_LIBRARY_PATH at their folders."""
        libs = shared_libraries(self.needs_libraries)
        for lib in libs:
            self.add_file(lib, lib)
        lib_dirs = sorted({str(Path(lib).parent) for lib in libs})
        self.env["LD_LIBRARY_PATH"] = ":".join(lib_dirs)

    def digest(self) -> str:
        """Hash of the inputs, taken once: the recipe is a snapshot (files may
        change under a working tree while an image builds)."""
        if not self._digest:
            self._digest = self._compute_digest()
        return self._digest

    def _compute_digest(self) -> str:
        h = hashlib.sha256(f"{self.repository} recipe {RECIPE_VERSION}".encode())
        for dest in sorted(self.files):
            st = os.stat(self.files[dest])
            h.update(f"{dest}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        for z in sorted(self.zips):
            for arc in sorted(self.zips[z]):
                st = os.stat(self.zips[z][arc])
                h.update(f"Z{z}\0{arc}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        for k in sorted(self.symlinks):
            h.update(f"L{k}\0{self.symlinks[k]}\n".encode())
        for k in sorted(self.env):
            h.update(f"E{k}={self.env[k]}\n".encode())
        return h.hexdigest()[:16]

    def changes(self) -> list[str]:
        return [f"ENV {k}={v}" for k, v in sorted(self.env.items())] + ["WORKDIR /bot"]


def shared_libraries(binaries: list[str]) -> list[str]:
    """Absolute paths of the shared libraries (and the loader) the binaries need."""
    found: set[str] = set()
    for chunk_start in range(0, len(binaries), 200):
        chunk = binaries[chunk_start:chunk_start + 200]
        out = subprocess.run(["ldd", *chunk], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            parts = line.split()
            if "=>" in parts:
                i = parts.index("=>")
                if i + 1 < len(parts) and parts[i + 1].startswith("/"):
                    found.add(parts[i + 1])
            elif parts and parts[0].startswith("/") and "ld-linux" in parts[0]:
                found.add(parts[0])
    return sorted(found)


def _module_dir(name: str) -> Path:
    module = __import__(name, fromlist=["__file__"])
    file = getattr(module, "__file__", None)
    if file is None:
        raise ImageBuildError(f"python image: package {name!r} has no files to copy")
    return Path(file).resolve().parent


def python_recipe(repository: str = "arena-python") -> Recipe:
    """The arena's own interpreter relocated to /usr/local, plus grpc, protobuf
    and the arena package.

    Pure-Python code (the standard library, the arena package) goes into one
    zip on the interpreter's default path with precompiled unchecked-hash .pyc
    (PEP 552), so a read-only container starts without compiling and the image
    has a few hundred files instead of thousands: vfs copies files one by one.
    Packages with extension modules (grpc, protobuf) stay plain folders."""
    r = Recipe(repository)
    exe = Path(sys.executable).resolve()
    stdlib = Path(os.__file__).resolve().parent
    ver = f"{sys.version_info.major}.{sys.version_info.minor}"
    r.add_file(exe, f"/usr/local/bin/python{ver}")
    r.symlinks["/usr/local/bin/python3"] = f"python{ver}"
    r.symlinks["/usr/local/bin/python"] = f"python{ver}"
    zip_dest = f"/usr/local/lib/python{ver.replace('.', '')}.zip"

    def skip_std(p: Path) -> bool:
        rel = p.relative_to(stdlib).parts
        if rel and (rel[0] in _STDLIB_SKIP or rel[0].startswith("config-") or
                    rel[0] == "lib-dynload"):
            return True
        return p.name == "__pycache__" or (p.suffix not in (".py", "") and p.is_file())

    for p in _walk(stdlib, skip_std):
        r.add_zip_entry(zip_dest, p.relative_to(stdlib).as_posix(), p)
    dynload = stdlib / "lib-dynload"
    for p in sorted(dynload.iterdir()):
        if p.suffix == ".so" and not p.name.startswith(_DYNLOAD_SKIP):
            r.add_file(p, f"/usr/local/lib/python{ver}/lib-dynload/{p.name}")
    arena_dir = _module_dir("arena")
    for p in _walk(arena_dir, lambda p: p.name in ("__pycache__", "tests") or
                   (p.is_file() and p.suffix != ".py")):
        r.add_zip_entry(zip_dest, "arena/" + p.relative_to(arena_dir).as_posix(), p)
    import typing_extensions  # grpc.aio needs it; one file

    r.add_zip_entry(zip_dest, "typing_extensions.py", Path(typing_extensions.__file__))
    for pkg, dest in (("grpc", "grpc"), ("google.protobuf", "google/protobuf")):
        src = _module_dir(pkg)
        r.add_tree(src, f"{SITE_DIR}/{dest}", _skip_site)
    upb = _module_dir("google.protobuf").parent / "_upb"
    if upb.is_dir():
        r.add_tree(upb, f"{SITE_DIR}/google/_upb", _skip_site)
    r.needs_libraries = [str(exe)] + [p for p in r.files.values() if p.endswith(".so")]
    r.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONHOME": "/usr/local",
             "PYTHONPATH": SITE_DIR, "PYTHONNOUSERSITE": "1",
             "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8",
             "HOME": "/tmp"}
    r.digest()  # snapshot the inputs now
    return r


def shell_recipe() -> Recipe:
    """The Python image plus sh (dash), jq and awk (mawk) with their shared
    libraries: for stdio bots (bot.toml `protocol = "stdio"`) in a shell
    language, whose bridge needs the arena's Python beside them."""
    r = python_recipe("arena-shell")
    for name, dest in SHELL_TOOLS:
        found = shutil.which(name)
        if found is None:
            raise ImageBuildError(f"shell image: no `{name}` on this machine")
        exe = str(Path(found).resolve())
        r.add_file(exe, dest)
        r.needs_libraries.append(exe)
    r._digest = ""  # python_recipe took it without these files
    r.digest()
    return r


def numpy_recipe() -> Recipe:
    """The Python image plus this machine's numpy: its package (tests left
    out) and the shared libraries its wheel carries beside it (numpy.libs,
    which its extension modules find by their RPATH, $ORIGIN/../numpy.libs),
    for bots whose policy is a numpy network (sample_bots/learned)."""
    try:
        src = _module_dir("numpy")
    except ImportError:
        raise ImageBuildError("numpy image: numpy is not installed here "
                              "(pip install numpy, or .[env])") from None
    r = python_recipe("arena-numpy")
    r.add_tree(src, f"{SITE_DIR}/numpy", _skip_site)
    libs = src.parent / "numpy.libs"
    if libs.is_dir():
        r.add_tree(libs, f"{SITE_DIR}/numpy.libs", _skip_site)
    r._digest = ""  # python_recipe took it without these files
    r.digest()
    return r


# Images a bot may name that are built the first time one is run, not by build_all.
ON_DEMAND: dict[str, Callable[[], Recipe]] = {NUMPY_IMAGE: numpy_recipe}


def shell_tools_present() -> bool:
    return all(shutil.which(name) for name, _ in SHELL_TOOLS)


def _skip_site(p: Path) -> bool:
    return p.name in ("tests", ".mypy_cache") or p.name.endswith((".opt-1.pyc", ".opt-2.pyc"))


def _walk(root: Path, skip: Callable[[Path], bool]) -> list[Path]:
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not skip(here / d))
        found += [here / f for f in sorted(filenames) if not skip(here / f)]
    return found


def unchecked_pyc(source: Path) -> bytes | None:
    """The .pyc of `source` in unchecked-hash form (PEP 552), None if it does not compile."""
    import importlib.util
    import marshal

    data = source.read_bytes()
    try:
        code = compile(data, str(source), "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    flags = (1).to_bytes(4, "little")  # hash-based, check_source = False
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(data) + \
        marshal.dumps(code)


def node_recipe() -> Recipe:
    """The machine's `node` binary; a bot's node_modules come with its folder at /bot."""
    node = shutil.which("node")
    if node is None:
        raise ImageBuildError("node image: no `node` binary on this machine")
    r = Recipe("arena-node")
    exe = Path(node).resolve()
    r.add_file(exe, "/usr/local/bin/node")
    r.needs_libraries = [str(exe)]
    r.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"}
    r.digest()
    return r


def strip_binaries(recipe: Recipe, scratch: Path) -> None:
    """Replace ELF files by copies without debug sections (libpython alone drops
    from ~23 MB to ~5 MB): every container start copies the image under vfs."""
    strip = shutil.which("strip")
    if strip is None:
        return
    for n, (dest, src) in enumerate(sorted(recipe.files.items())):
        # A wheel's bundled libraries (numpy.libs/, auditwheel's): their program
        # headers were rewritten by patchelf, and strip leaves them unloadable
        # ("ELF load command address/offset not page-aligned").
        if any(part.endswith(".libs") for part in dest.split("/")):
            continue
        with open(src, "rb") as f:
            if f.read(4) != b"\x7fELF":
                continue
        copy = scratch / f"elf{n}"
        shutil.copy2(src, copy)
        done = subprocess.run([strip, "--strip-debug", str(copy)], capture_output=True, check=False)
        if done.returncode == 0:
            recipe.files[dest] = str(copy)


def write_zips(recipe: Recipe, scratch: Path) -> None:
    """Write each zip (sources plus unchecked-hash .pyc next to them) and add it as a file."""
    import zipfile

    for n, (dest, entries) in enumerate(sorted(recipe.zips.items())):
        out = scratch / f"zip{n}.zip"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
            for arc, src in sorted(entries.items()):
                z.write(src, arc)
                if arc.endswith(".py"):
                    pyc = unchecked_pyc(Path(src))
                    if pyc is not None:
                        z.writestr(arc + "c", pyc)
        recipe.files[dest] = str(out)


def write_rootfs_tar(recipe: Recipe, out: Path) -> None:
    """A tar of the image's root file system: root-owned, explicit directories."""
    dirs: set[str] = {"tmp", "bot", "etc", "proc", "dev", "sys"}
    for dest in [*recipe.files, *recipe.symlinks]:
        for parent in Path(dest.lstrip("/")).parents:
            if str(parent) != ".":
                dirs.add(str(parent))

    def owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with tarfile.open(out, "w") as tar:
        for d in sorted(dirs):
            info = owned(tarfile.TarInfo(d))
            info.type = tarfile.DIRTYPE
            info.mode = 0o1777 if d == "tmp" else 0o755
            tar.addfile(info)
        for dest in sorted(recipe.files):
            src = recipe.files[dest]
            info = owned(tar.gettarinfo(src, arcname=dest.lstrip("/")))
            info.mode = (info.mode & 0o755) | 0o644
            with open(src, "rb") as f:
                tar.addfile(info, f)
        for dest in sorted(recipe.symlinks):
            info = owned(tarfile.TarInfo(dest.lstrip("/")))
            info.type = tarfile.SYMTYPE
            info.linkname = recipe.symlinks[dest]
            tar.addfile(info)


def build(recipe: Recipe, stable_tag: str, client: Any, force: bool = False) -> str:
    """Import the recipe as `<repository>:<digest>` unless present; point `stable_tag` at it."""
    import docker.errors

    digest = recipe.digest()
    full = f"{recipe.repository}:{digest}"
    exists = True
    try:
        client.images.get(full)
    except docker.errors.ImageNotFound:
        exists = False
    if force or not exists:
        recipe = copy.deepcopy(recipe)  # the caller's recipe keeps its digest
        recipe.resolve_libraries()
        with tempfile.TemporaryDirectory(prefix="arena-image-") as tmp:
            strip_binaries(recipe, Path(tmp))
            write_zips(recipe, Path(tmp))
            tar_path = Path(tmp) / "rootfs.tar"
            write_rootfs_tar(recipe, tar_path)
            try:
                client.api.import_image_from_file(str(tar_path), repository=recipe.repository,
                                                  tag=digest, changes=recipe.changes())
            except docker.errors.APIError as exc:
                raise ImageBuildError(f"docker import of {full} failed: {exc}") from None
    repo, _, tag = stable_tag.partition(":")
    client.images.get(full).tag(repo, tag or "latest")
    for old in client.images.list(name=recipe.repository):
        if full not in old.tags:  # an earlier build: the vfs driver makes each one costly
            with contextlib.suppress(docker.errors.APIError):  # still used by a container
                client.images.remove(old.id)
    return full


def build_all(client: Any, force: bool = False) -> dict[str, str]:
    """Build (or confirm) every bot image with the docker SDK `client`
    (docker_level.client(): the level runs the images, this module only
    builds them); stable tag -> content tag."""
    built = {PYTHON_IMAGE: build(python_recipe(), PYTHON_IMAGE, client, force)}
    if shutil.which("node") is not None:
        built[NODE_IMAGE] = build(node_recipe(), NODE_IMAGE, client, force)
    if shell_tools_present():
        built[SHELL_IMAGE] = build(shell_recipe(), SHELL_IMAGE, client, force)
    return built
