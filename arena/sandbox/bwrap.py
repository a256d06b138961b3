"""The bwrap level: Linux namespaces through bubblewrap.

The bot sees a file system assembled for it: the system directories and
the arena's Python (prefix, venv, the arena package) read-only, its own
folder read-only at /bot, the match's socket folder (same path, so
ARENA_ADDRESS stays valid), a size-capped private /tmp, a fresh /proc of
its own pid namespace, and no network (a network namespace of its own:
only its own loopback, which bwrap brings up; the host's 127.0.0.1 is not
in it). Nothing else of the host: no other bot's folder,
no referee files, no replay.

bwrap runs as root so it can mount; inside, `setpriv` switches to a uid
of the bot's own with every capability dropped and no_new_privs, which also
makes RLIMIT_NPROC bind (it never binds root). Killing bwrap kills the pid
namespace's init and with it every process of the bot (--die-with-parent).
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import arena
from arena.manifest import BotSpec
from arena.sandbox.api import Limits, SandboxError, SandboxUnavailable
from arena.sandbox.process import ProcessHandle, base_env, spawn
from arena.sandbox.sockets import open_socket_to

BOT_DIR = "/bot"
UID_BASE = 200_000  # bots run as UID_BASE + n: no such user exists on the host
_uids = itertools.count()
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# /etc/ssl/openssl.cnf: Node.js reads it at start and exits (status 13) without it.
_ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf",
              "/etc/alternatives", "/etc/ssl/openssl.cnf")


UIDS_PER_PROCESS = 64  # a referee process runs one match (at most 4 bots) at a time


def next_uid() -> int:
    """A uid no other running bot uses, in this arena process or another one.

    The whole pid goes into it (not pid % N): two referee processes always
    differ, so bots of concurrent matches never share a uid, and with it
    their RLIMIT_NPROC. pid_max is at most 2**22, which keeps the uid below
    2**31."""
    return UID_BASE + os.getpid() * UIDS_PER_PROCESS + next(_uids) % UIDS_PER_PROCESS


def python_paths() -> list[str]:
    """Read-only binds that make the arena's interpreter and packages work inside."""
    paths = {sys.base_prefix, sys.prefix, str(Path(sys.executable).resolve().parent),
             str(Path(arena.__file__).resolve().parent)}
    found = []
    for p in sorted(paths):
        if p and os.path.isdir(p) and not any(p == d or p.startswith(d + "/") for d in ("/usr",)):
            found.append(p)
    # Drop paths inside other binds (a venv inside the prefix, say).
    return [p for p in found if not any(p != q and p.startswith(q + "/") for q in found)]


def bwrap_argv(inner: list[str], *, bot_dir: str, socket_dir: str, limits: Limits,
               uid: int) -> list[str]:
    """The full bwrap command line that runs `inner` confined."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable("bwrap level: the bwrap binary is not installed (Debian: bubblewrap)")
    argv = [bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--hostname", "bot"]
    for d in _SYSTEM_DIRS:
        if os.path.islink(d):
            argv += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            argv += ["--ro-bind", d, d]
    argv += ["--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", "/etc/ssl"]
    for f in _ETC_FILES:
        argv += ["--ro-bind-try", f, f]
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(limits.tmpfs_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    made = {"/", "/tmp", *_SYSTEM_DIRS}
    binds = [("--ro-bind", p, p) for p in python_paths()]
    binds += [("--ro-bind", bot_dir, BOT_DIR), ("--bind", socket_dir, socket_dir)]
    for how, src, dest in binds:
        # bwrap would create missing parents with mode 0700, which the bot's uid
        # could not traverse: create them 0755 first.
        for parent in reversed(Path(dest).parents):
            if str(parent) not in made:
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(str(parent))
        argv += [how, src, dest]
    argv += ["--chdir", BOT_DIR, "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
    setpriv = shutil.which("setpriv")
    if setpriv is not None:
        argv += ["--", setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    else:
        # Without setpriv: a user namespace maps the bot to an unprivileged uid;
        # RLIMIT_NPROC then does not bind (the host uid stays root), cgroups still do.
        argv[1:1] = ["--unshare-user", "--uid", str(uid), "--gid", str(uid),
                     "--cap-drop", "ALL"]
        argv += ["--"]
    return argv + inner


@functools.cache
def works() -> bool:
    """bwrap is installed and can build a sandbox here (probed once)."""
    if shutil.which("bwrap") is None or not sys.platform.startswith("linux"):
        return False
    try:
        argv = bwrap_argv(["/bin/sh", "-c", "exit 0"], bot_dir="/usr", socket_dir="/tmp",
                          limits=Limits(), uid=UID_BASE)
        done = subprocess.run(argv, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired, SandboxError):
        return False
    return done.returncode == 0


def launch_bwrap(bot: BotSpec, env: dict[str, str], socket_dir: str, log_path: str,
                 limits: Limits) -> ProcessHandle:
    """Start the bot's `run` inside bwrap (see module docstring)."""
    if not bot.run:
        raise SandboxError(f"{bot.label}: bot.toml has no 'run' command; the bwrap level needs one")
    open_socket_to(socket_dir, env.get("ARENA_ADDRESS", ""))
    marker = uuid.uuid4().hex
    full_env = base_env("bwrap", marker) | dict(env)
    uid = next_uid()
    argv = bwrap_argv(list(bot.argv), bot_dir=bot.path, socket_dir=socket_dir, limits=limits,
                      uid=uid)
    # With setpriv the host sees the bot as `uid`; without, a user namespace
    # maps it back to the arena's user and only its process tree tells it apart.
    own = uid if shutil.which("setpriv") is not None else None
    return spawn(argv, level="bwrap", cwd="/", env=full_env, log_path=log_path, limits=limits,
                 marker=marker, nproc=True, watchdog=True, uid=own)
