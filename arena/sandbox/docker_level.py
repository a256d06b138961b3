"""The docker level: one locked-down container per bot.

Network "none", read-only root file system, a size-capped tmpfs /tmp (and
over every VOLUME the image declares), memory (no swap), CPU and pids
limits, a uid of its own (bwrap.next_uid), every capability dropped,
no-new-privileges, rlimits; mounted are only the bot's folder (read-only,
at /bot, the working directory) and the match's socket folder (read-write,
at the same path, so ARENA_ADDRESS is unchanged). Containers carry the label
`arena.bot=1` plus the match id and their owner (host and pid of the arena
process); they are removed with their anonymous volumes at cleanup(), and `cleanup_stale()` (run before
the first docker launch of each arena process) removes those whose owner
process is gone, i.e. whatever a crash left behind.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import socket
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from arena.manifest import BotSpec
from arena.sandbox import base_images, bot_images, freezer, own_init, peers
from arena.sandbox.api import Limits, SandboxError, SandboxUnavailable
from arena.sandbox.bwrap import next_uid
from arena.sandbox.logcap import CappedLog
from arena.sandbox.own_init import OwnInit
from arena.sandbox.sockets import open_socket_to

log = logging.getLogger("arena.sandbox")

LABEL = "arena.bot"
# Declared VOLUMEs an image may have: each gets a tmpfs of Limits.tmpfs_mb.
MAX_VOLUMES = 8
_MB = 1024 * 1024


@functools.cache
def client() -> Any:
    """A docker SDK client for the local engine (DOCKER_HOST etc. respected)."""
    import docker

    try:
        return docker.from_env(timeout=60)
    except docker.errors.DockerException as exc:
        raise SandboxUnavailable(f"docker level: no Docker engine reachable: {exc}") from None


@functools.cache
def engine_reachable() -> bool:
    try:
        return bool(client().ping())
    except Exception:  # noqa: BLE001 - any failure means "not available"
        return False


_present: set[str] = set()


def image_present(image: str) -> bool:
    """The engine has `image` (positive answers cached: images are not removed under us)."""
    if image in _present:
        return True
    import docker.errors

    try:
        client().images.get(image)
    except (docker.errors.ImageNotFound, docker.errors.APIError):
        return False
    _present.add(image)
    return True


def bot_image(bot: BotSpec) -> str:
    """The image the bot runs in: bot.toml `image`, else one built from its Dockerfile."""
    if bot.image:
        return bot.image
    if bot_images.has_dockerfile(bot):
        return bot_images.dockerfile_tag(bot)
    return ""


def can_run(bot: BotSpec) -> bool:
    """The docker level is usable for this bot: an engine, and an image it has or can build."""
    if not engine_reachable():
        return False
    if bot.image:  # an on-demand image is built at the first launch
        return image_present(bot.image) or bot.image in base_images.ON_DEMAND
    return bot_images.has_dockerfile(bot)


def prepare_image(bot: BotSpec) -> str:
    """The image the bot runs in at the docker level, built now from its
    Dockerfile if it is not there yet (bot_images.build: no network,
    bounded); SandboxError saying why not. A ladder builds a submission
    this way before its validation match."""
    return _ensure_image(bot)


def _ensure_image(bot: BotSpec) -> str:
    image = bot_image(bot)
    if not image:
        raise SandboxError(f"{bot.label}: docker level needs `image` in bot.toml or a Dockerfile")
    if bot.image:
        if not image_present(image) and image in base_images.ON_DEMAND:
            _build_on_demand(bot, image)
        if not image_present(image):
            raise SandboxError(f"{bot.label}: docker image {image!r} not found "
                               f"(build the sample images with `arena sandbox build-images`)")
        return image
    import docker.errors

    # A built image is looked up every time, not remembered: a newer build
    # of the same bot by another arena process removes it (bot_images).
    try:
        client().images.get(image)
        return image
    except docker.errors.ImageNotFound:
        pass
    except docker.errors.APIError as exc:
        raise SandboxError(f"{bot.label}: docker could not look up {image!r}: {exc}") from None
    # A Dockerfile FROM an on-demand base: that base first (no registry to pull it from).
    text = (Path(bot.path) / "Dockerfile").read_text(encoding="utf-8", errors="replace")
    for base in base_images.ON_DEMAND:
        if base.split(":")[0] in text and not image_present(base):
            _build_on_demand(bot, base)
    return bot_images.build(client(), bot, _cpuset())


_on_demand = threading.Lock()  # one build of an image at a time in this process


def _build_on_demand(bot: BotSpec, image: str) -> None:
    """An image of base_images.ON_DEMAND, built now from this machine's
    files (as `arena sandbox build-images` builds the others)."""
    with _on_demand:
        if image_present(image):
            return
        log.info("building docker image %s for %s (once)", image, bot.label)
        try:
            base_images.build(base_images.ON_DEMAND[image](), image, client())
        except base_images.ImageBuildError as exc:
            raise SandboxError(f"{bot.label}: docker image {image!r}: {exc}") from None


def _check_image_command(bot: BotSpec, image: str) -> None:
    """A bot without `run` runs its image's own command: say so if there is none."""
    import docker.errors

    try:
        config = client().images.get(image).attrs.get("Config") or {}
    except docker.errors.DockerException:
        return  # the create below reports it
    if not config.get("Cmd") and not config.get("Entrypoint"):
        raise SandboxError(f"{bot.label}: bot.toml has no 'run', and image {image!r} has no command "
                           "of its own (CMD or ENTRYPOINT): set 'run' in bot.toml")


def image_volumes(bot: BotSpec, image: str) -> list[str]:
    """The folders the image declares as VOLUMEs. Docker would give each an
    anonymous volume: writable through the read-only root, unbounded, and
    left behind with the container. The bot gets a size-capped tmpfs there
    instead (launch_docker); an image with more than MAX_VOLUMES, or a
    volume at the root, is refused."""
    import docker.errors

    try:
        config = client().images.get(image).attrs.get("Config") or {}
    except docker.errors.DockerException as exc:
        raise SandboxError(f"{bot.label}: docker could not inspect {image!r}: {exc}") from None
    folders = sorted(os.path.normpath(v) for v in (config.get("Volumes") or {}))
    if "/" in folders or len(folders) > MAX_VOLUMES:
        raise SandboxError(f"{bot.label}: image {image!r} declares VOLUME {', '.join(folders)}: "
                           f"at most {MAX_VOLUMES} folders, not the root")
    return folders


def owner_label() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def cleanup_stale() -> int:
    """Remove arena containers whose owning arena process is gone. Returns how many."""
    removed = 0
    host = socket.gethostname()
    api = client().api
    # One listing call: containers.list() inspects each container and fails
    # on one that another arena process removes meanwhile.
    for c in api.containers(all=True, filters={"label": f"{LABEL}=1"}):
        owner = (c.get("Labels") or {}).get("arena.owner", "")
        owner_host, _, owner_pid = owner.rpartition(":")
        if owner_host == host and owner_pid.isdigit() and _alive(int(owner_pid)):
            continue
        try:
            api.remove_container(c["Id"], force=True, v=True)  # and its anonymous volumes
            removed += 1
        except Exception:  # noqa: BLE001, S110 - already gone
            pass
    own_init.remove_stale(_alive)  # the init copies of those containers (own_init.py)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@functools.cache
def _cleanup_once() -> int:
    return cleanup_stale()


class DockerHandle:
    """A bot's container: see arena.sandbox.api.BotHandle."""

    level = "docker"

    def __init__(self, container: Any, output: Iterable[bytes], log_path: str,
                 limits: Limits, init: OwnInit | None = None) -> None:
        self.container = container
        self._init = init
        self.limits = limits
        self.violations: list[str] = []
        self.pid: int | None = None
        self.uid: int | None = None  # not the arena's: the container's user (BOT_USER)
        self.reaches_others = False  # only its own socket folder is mounted
        self._exit: int | None = None
        self._exited = threading.Event()
        self._lock = threading.Lock()
        self._stopped = False
        self._removed = False
        container.reload()
        self.pid = container.attrs.get("State", {}).get("Pid") or None
        self.pauser = _pauser(container, self.pid)
        self.log = CappedLog(self._chunks(output), log_path, limits.log_bytes)
        threading.Thread(target=self._wait, name=f"botwait:{container.short_id}",
                         daemon=True).start()

    @staticmethod
    def _chunks(output: Iterable[bytes]) -> Iterator[bytes]:
        try:
            yield from output
        except Exception:  # noqa: BLE001 - the container went away: the log simply ends
            return

    def _wait(self) -> None:
        try:
            status = self.container.wait()
            self._exit = int(status.get("StatusCode", -1))
        except Exception:  # noqa: BLE001 - removed under us
            self._exit = -1
        self._exited.set()

    def poll(self) -> int | None:
        return self._exit if self._exited.is_set() else None

    def owns(self, pid: int, _uid: int) -> bool:
        """True if host process `pid` runs in this container: in the pid
        namespace of its init, or (where that cannot be read) its cgroup."""
        if self.pid is None:
            return False
        try:
            return os.stat(f"/proc/{pid}/ns/pid").st_ino == os.stat(f"/proc/{self.pid}/ns/pid").st_ino
        except OSError:
            return peers.in_cgroup_named(pid, str(self.container.id))

    def wait(self, timeout: float | None = None) -> int | None:
        self._exited.wait(timeout)
        return self.poll()

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self.pauser.release()  # frozen, the bot would hold SIGTERM until docker's SIGKILL
        if not self._exited.is_set():
            try:  # docker: SIGTERM, then SIGKILL after the grace period
                self.container.stop(timeout=max(1, math.ceil(self.limits.stop_grace)))
            except Exception:  # noqa: BLE001
                self._kill()
        if not self._exited.wait(10.0):
            self._kill()
            self._exited.wait(10.0)
        self.log.join(5.0)
        try:
            self.container.reload()
            if self.container.attrs.get("State", {}).get("OOMKilled"):
                self.violations.append("killed at the memory limit (OOM)")
        except Exception:  # noqa: BLE001, S110
            pass

    def _kill(self) -> None:
        with contextlib.suppress(Exception):  # already stopped
            self.container.kill()

    def cleanup(self) -> None:
        self.stop()
        with self._lock:
            if self._removed:
                return
            self._removed = True
        with contextlib.suppress(Exception):  # already removed
            self.container.remove(force=True, v=True)  # v: no anonymous volume survives it
        if self._init is not None:
            self._init.remove()


def _pauser(container: Any, pid: int | None) -> freezer.Pauser:
    """The container's own cgroup, written directly (a few µs) where this
    process can reach it; else the engine's pause API (about 17 ms a call)."""
    dirs = freezer.cgroup_dirs_of(pid) if pid else (None, None, None)
    found = freezer.for_dirs(*dirs, fallback_pid=None)
    if found.mechanism == freezer.NONE and freezer.allowed(freezer.DOCKER_PAUSE):
        return freezer.CallPauser(container.pause, container.unpause, found.cpu)
    return found


def _cpuset() -> str | None:
    """The CPUs the calling thread may use, as a cpuset, when they are not
    all of the machine's: a match pinned to a CPU slot (arena.tournament.executors.cpus)
    starts its containers there too, as it starts its processes there. The
    daemon starts containers, so they would not inherit the affinity."""
    try:
        mine = os.sched_getaffinity(0)
    except AttributeError:  # not Linux
        return None
    if len(mine) >= (os.cpu_count() or 0):
        return None
    return ",".join(str(c) for c in sorted(mine))


def launch_docker(bot: BotSpec, env: dict[str, str], socket_dir: str, log_path: str,
                  limits: Limits, match_id: str) -> DockerHandle:
    """Start the bot's container (see module docstring)."""
    import docker.errors
    from docker.types import LogConfig, Ulimit

    _cleanup_once()
    image = _ensure_image(bot)
    if not bot.run:
        _check_image_command(bot, image)
    open_socket_to(socket_dir, env.get("ARENA_ADDRESS", ""))
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    environment = {"ARENA_SANDBOX": "docker", "HOME": "/tmp", "TMPDIR": "/tmp",
                   "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"} | dict(env)
    fsize = limits.file_size_mb * _MB
    cpu = max(1, int(limits.cpu_seconds))
    data = limits.memory_mb * _MB
    capped = f"size={limits.tmpfs_mb}m,mode=1777,nosuid,nodev"
    mounted = ("/bot", socket_dir)
    tmpfs = {"/tmp": capped} | {
        v: capped for v in image_volumes(bot, image)
        if not any(v == m or v.startswith(m + "/") for m in mounted)}
    # A uid of its own (as at the bwrap level): per-user kernel limits
    # (inotify instances, RLIMIT_NPROC, ...) are not shared with other bots.
    uid = next_uid()
    container = None
    init = OwnInit()  # not the engine's one file shared by every container (own_init.py)
    try:
        config = client().images.get(image).attrs.get("Config") or {}
        container = client().containers.create(
            image, **init.create_args(list(bot.argv), config),
            network_mode="none", read_only=True,
            tmpfs=tmpfs,
            mem_limit=f"{limits.memory_mb}m", memswap_limit=f"{limits.memory_mb}m",
            nano_cpus=int(limits.cpus * 1e9), pids_limit=limits.pids, cpuset_cpus=_cpuset(),
            user=f"{uid}:{uid}", cap_drop=["ALL"], security_opt=["no-new-privileges"],
            ipc_mode="none", working_dir="/bot", environment=environment,
            volumes={bot.path: {"bind": "/bot", "mode": "ro"},
                     socket_dir: {"bind": socket_dir, "mode": "rw"}} | init.mount(),
            labels={LABEL: "1", "arena.match": match_id, "arena.owner": owner_label(),
                    "arena.seat_bot": bot.label},
            ulimits=[Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
                     Ulimit(name="fsize", soft=fsize, hard=fsize),
                     Ulimit(name="cpu", soft=cpu, hard=cpu + 1),
                     # Per process, as at the other levels (mem_limit bounds the total).
                     Ulimit(name="data", soft=data, hard=data),
                     Ulimit(name="core", soft=0, hard=0),
                     # Counts the uid's processes on the whole host: with a uid of
                     # its own, this bot's alone (pids_limit bounds the container).
                     Ulimit(name="nproc", soft=limits.pids, hard=limits.pids)],
            # The daemon's own copy of the log is capped too (a spammer must not fill its disk).
            log_config=LogConfig(type="json-file",
                                 config={"max-size": str(max(limits.log_bytes, 65536)),
                                         "max-file": "1"}),
        )
        # Attached before the start, so a bot that prints and exits at once
        # is not lost (attaching to an exited container yields nothing).
        output = container.attach(stdout=True, stderr=True, stream=True, logs=True)
        container.start()
    except BaseException as exc:
        # No handle owns the container yet: remove it here, on any way out.
        # A match stopped mid-launch (its worker killed: the match process's
        # KeyboardInterrupt) left containers "created", never started, that
        # no later run removed while this process lived, and none after.
        _remove_unowned(container, match_id, bot.label)
        init.remove()
        if isinstance(exc, docker.errors.DockerException):
            raise SandboxError(f"{bot.label}: docker could not start {image!r}: {exc}") from None
        raise
    return DockerHandle(container, output, log_path, limits, init)


def _remove_unowned(container: Any, match_id: str, label: str) -> None:
    """Remove a container a launch made and gave no handle. Interrupted in
    the middle of the create call, the launch has no container object
    though the engine may have made it: those of this process, match and
    bot never started are removed by their labels."""
    import docker.errors

    with contextlib.suppress(docker.errors.DockerException, OSError):
        if container is not None:
            container.remove(force=True, v=True)
            return
        api = client().api
        for c in api.containers(all=True, filters={
                "label": [f"arena.owner={owner_label()}", f"arena.match={match_id}",
                          f"arena.seat_bot={label}"], "status": "created"}):
            api.remove_container(c["Id"], force=True, v=True)
