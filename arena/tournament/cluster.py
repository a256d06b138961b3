"""Workers on other machines (`arena worker --scheduler ADDRESS`): what a
worker is (its arena version, the fingerprint of the rules engine and
referee it plays with, the sandbox levels its machine offers), whether a
run's coordinator takes it, and the worker process itself, a Dask
`Worker` in this process (no home-made protocol).

The coordinator asks each worker for its identity (Client.run) before it
sends it a match (dask_executor.DaskExecutor); a worker that cannot play
the run is told why (`refuse_here`, run on it), says so in one line and
exits, and the coordinator says the same line and sends it nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import signal
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import arena
from arena.manifest import BotSpec
from arena.referee.spec import MatchSpec
from arena.sandbox import botpack
from arena.sandbox.botfile import folder_hash
from arena.sandbox.levels import available_levels
from arena.tournament.bundle_format import arena_version

log = logging.getLogger("arena.tournament")

# Dask settings for workers that run matches (dask_executor.py's DaskExecutor
# and _in_match_process, `arena worker`; the same settings as environment variables are in
# docs/tournaments.md for workers started by hand).
QUIET_WORKER_CONFIG = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "2s",
    # A worker may start a child process: the match process (_in_match_process).
    "distributed.worker.daemon": False,
}


# The packages whose code decides a match's result from the bots' answers:
# the rules engine, and the referee (clocks, faults, places, replays).
ENGINE_PACKAGES = ("game", "referee")


@functools.cache
def engine_fingerprint() -> str:
    """sha256 of the engine's and the referee's source files (names and
    bytes): two arenas whose matches could end differently differ here."""
    root = Path(arena.__file__).parent
    digest = hashlib.sha256()
    for package in ENGINE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class Identity:
    """What a worker (or the coordinator) plays with."""

    arena: str                   # the package's version
    engine: str                  # engine_fingerprint()
    levels: tuple[str, ...]      # sandbox levels that work there, strongest first

    def line(self) -> str:
        return (f"arena {self.arena}, engine {self.engine[:12]}, sandbox levels "
                f"{', '.join(self.levels) or 'none'}")


def identity() -> Identity:
    """This process's identity (run on a worker through Client.run)."""
    return Identity(arena_version(), engine_fingerprint(), available_levels())


def refusal(worker: Identity, coordinator: Identity, sandbox: str) -> str:
    """Why a worker of identity `worker` cannot play a run of this
    coordinator at sandbox level `sandbox` ("" if it can)."""
    if worker.arena != coordinator.arena:
        return f"its arena is version {worker.arena}, the coordinator's {coordinator.arena}"
    if worker.engine != coordinator.engine:
        return (f"its rules engine and referee (fingerprint {worker.engine[:12]}) are not the "
                f"coordinator's ({coordinator.engine[:12]}): install the same arena on both")
    if sandbox not in ("", "auto") and sandbox not in worker.levels:
        return (f"the run asks for sandbox level {sandbox}, its machine offers "
                f"{', '.join(worker.levels) or 'none'}")
    return ""


# --- bots by content hash ----------------------------------------------------

# Where this worker keeps the bots it was sent, one folder per content hash
# (`arena worker`: FOLDER/bots, kept from run to run; any other Dask
# worker: its own scratch folder, gone with it).
BOT_CACHE: Path | None = None
_CHECKED: set[str] = set()  # cached folders whose hash this process has checked


def bot_cache() -> Path:
    if BOT_CACHE is not None:
        return BOT_CACHE
    import distributed

    return Path(distributed.get_worker().local_directory) / "arena-bots"


def pack_bot(bot: BotSpec) -> bytes:
    """A bot's folder as its content hash counts it (symbolic links left
    out, as the hash leaves them out), for the workers."""
    return botpack.pack(Path(bot.path), links="skip")


def localize(spec: MatchSpec, packs: dict[str, bytes]) -> MatchSpec:
    """On the worker: `spec` with every bot's folder this worker's copy of
    it, unpacked from `packs` (content hash -> pack) the first time, its
    hash checked (PackError if it is not the bot's). A cached folder is
    read-only, and checked again once per worker process."""
    bots = []
    for bot in spec.bots:
        folder = bot_cache() / bot.content_hash
        if not folder.is_dir():
            botpack.unpack(packs[bot.content_hash], folder, bot.content_hash)
            _read_only(folder)
        elif bot.content_hash not in _CHECKED:
            got = folder_hash(folder)
            if got != bot.content_hash:
                raise botpack.PackError(f"{folder}: this worker's copy of {bot.name} was "
                                        f"changed (its files hash to {got[:12]})")
        _CHECKED.add(bot.content_hash)
        bots.append(replace(bot, path=str(folder)))
    return replace(spec, bots=tuple(bots))


def _read_only(folder: Path) -> None:
    """No bot (nor anything else of this user's) changes a cached bot by mistake."""
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file():
            path.chmod(path.stat().st_mode & 0o555)


# --- the worker process ----------------------------------------------------

_REFUSED: list[str] = []      # why the coordinator refused this worker
_TOLD: asyncio.Event | None = None
_LOOP: asyncio.AbstractEventLoop | None = None


def refuse_here(why: str) -> bool:
    """Run on a worker by a coordinator that refuses it: `arena worker`
    prints `why` and exits. False where no `arena worker` runs (a worker
    started otherwise: only the coordinator's line then)."""
    _REFUSED.append(why)
    if _LOOP is None or _TOLD is None:
        return False
    _LOOP.call_soon_threadsafe(_TOLD.set)
    return True


async def serve(scheduler: str, name: str, folder: Path, nthreads: int = 1,
                connect_timeout: float = 30) -> str:
    """Run a Dask worker of `scheduler` in this process until it is closed
    (SIGTERM, SIGINT, the scheduler gone) or refused; returns why it was
    refused ("" if it was not)."""
    global _TOLD, _LOOP, BOT_CACHE
    import dask
    import distributed

    dist: Any = distributed
    _TOLD, _LOOP = asyncio.Event(), asyncio.get_running_loop()
    BOT_CACHE = folder / "bots"
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        _LOOP.add_signal_handler(sig, stop.set)
    with dask.config.set({**QUIET_WORKER_CONFIG,
                          "distributed.comm.timeouts.connect": f"{connect_timeout}s"}):
        worker = dist.Worker(scheduler, nthreads=nthreads, name=name, dashboard=False,
                             local_directory=str(folder / "dask"),
                             death_timeout=connect_timeout)
        await worker
        try:
            ended = asyncio.ensure_future(worker.finished())
            waits = [ended, asyncio.ensure_future(_TOLD.wait()),
                     asyncio.ensure_future(stop.wait())]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for waiting in waits:
                waiting.cancel()
        finally:
            with contextlib.suppress(Exception):
                await worker.close(reason="arena worker stopped")
    return _REFUSED[0] if _REFUSED else ""


def run_worker(scheduler: str, name: str, folder: Path, sandbox: str) -> int:
    """`arena worker`: check this machine, then serve until stopped. Exit
    status 0 when stopped, 1 when refused, 2 when it cannot start."""
    from arena.sandbox.api import LEVELS

    if sandbox not in ("auto", *LEVELS):
        print(f"error: --sandbox {sandbox!r}: expected auto, {', '.join(LEVELS)}",
              file=sys.stderr)
        return 2
    me = identity()
    if sandbox != "auto" and sandbox not in me.levels:
        print(f"error: sandbox level {sandbox} is not available on this machine (it offers "
              f"{', '.join(me.levels) or 'none'}; arena sandbox levels)", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    print(f"arena worker {name}: {me.line()}; scheduler {scheduler}", file=sys.stderr,
          flush=True)
    try:
        why = asyncio.run(serve(scheduler, name, folder))
    except OSError as exc:  # TimeoutError included: no scheduler answers there
        print(f"error: dask scheduler {scheduler}: cannot connect: {exc}", file=sys.stderr)
        return 2
    if why:
        print(f"arena worker {name}: refused by the coordinator: {why}", file=sys.stderr)
        return 1
    return 0
