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
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import arena
from arena.manifest import BotSpec
from arena.referee.spec import MatchSpec
from arena.sandbox import botpack
from arena.sandbox.botfile import folder_hash
from arena.sandbox.levels import available_levels
from arena.tournament.errors import TournamentError
from arena.tournament.executors.worker import ExecutorError, _error_text
from arena.tournament.results.bundle_format import arena_version

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
                connect_timeout: float = 30, tls: str = "") -> str:
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
                             death_timeout=connect_timeout, security=security(tls))
        await worker
        try:
            ended = asyncio.ensure_future(worker.finished())
            waits = [ended, asyncio.ensure_future(_TOLD.wait()),
                     asyncio.ensure_future(stop.wait())]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for waiting in waits:
                waiting.cancel()
        finally:
            # Refused: no goodbye (a hung match would hold the worker's
            # close; the process exits, run_worker, and its match process
            # follows with its bots stopped: worker._exit_with_parent).
            if not _REFUSED:
                with contextlib.suppress(Exception):
                    await worker.close(reason="arena worker stopped")
    return _REFUSED[0] if _REFUSED else ""


def run_worker(scheduler: str, name: str, folder: Path, sandbox: str, tls: str = "",
               insecure: bool = False) -> int:
    """`arena worker`: check this machine, then serve until stopped. Exit
    status 0 when stopped, 1 when refused, 2 when it cannot start."""
    if problem := address_problem(scheduler, tls, insecure):
        print(f"error: --scheduler {problem}", file=sys.stderr)
        return 2
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
        why = asyncio.run(serve(scheduler, name, folder, tls=tls))
    except OSError as exc:  # TimeoutError included: no scheduler answers there
        print(f"error: dask scheduler {scheduler}: cannot connect: {exc}", file=sys.stderr)
        return 2
    if why:
        import os

        print(f"arena worker {name}: refused by the coordinator: {why}", file=sys.stderr,
              flush=True)
        sys.stdout.flush()
        os._exit(1)  # at once: a hung match's thread would hold a normal exit
    return 0


# --- the coordinator's side: who may play ------------------------------------

# Seconds a run waits for a worker that may play it (Admission.wait_for_workers).
WORKERS_SECONDS = 60


class Admission:
    """Which workers of a Dask client's scheduler may play a run at sandbox
    level `sandbox`: each new worker asked once what it plays with
    (`identity`, run on it) and admitted or refused (`refusal`); a refused
    one is told why (`refuse_here`) or retired, and sent nothing."""

    def __init__(self, client: Any, sandbox: str) -> None:
        self._client = client
        self._sandbox = sandbox
        self._me = identity()
        self.admitted: set[str] = set()
        self.refused: dict[str, str] = {}  # worker address -> why it was refused

    def wait_for_workers(self, address: str) -> int:
        """The threads of the workers that may play this run, once there is
        one; ExecutorError when none joins in time or every one is refused."""
        deadline = time.monotonic() + WORKERS_SECONDS
        while True:
            good = self.admit()
            if good:
                info = self._client.scheduler_info()["workers"]
                return sum(int(info[w].get("nthreads", 1)) for w in good if w in info)
            if time.monotonic() > deadline:
                if self.refused:
                    raise ExecutorError(f"dask scheduler {address}: no worker can play this run"
                                        f" ({'; '.join(sorted(set(self.refused.values())))})")
                raise ExecutorError(f"dask scheduler {address}: no worker joined within "
                                    f"{WORKERS_SECONDS:.0f} s (arena worker --scheduler "
                                    f"{address} on each machine)")
            time.sleep(0.2)

    def admit(self) -> list[str]:
        """The workers that may be sent matches now: each new one asked once
        what it plays with (cluster.identity), and refused if it cannot
        play this run (another arena or engine, a sandbox level missing)."""
        workers = self._client.scheduler_info()["workers"]
        new = [w for w in workers if w not in self.admitted and w not in self.refused]
        if new:
            answers = self._client.run(identity, workers=new, on_error="return")
            for worker, answer in answers.items():
                why = (refusal(answer, self._me, self._sandbox) if isinstance(answer, Identity)
                       else f"it did not say what it plays with ({_error_text(answer)})")
                if why:
                    self.refuse(worker, why, workers[worker].get("name"))
                else:
                    self.admitted.add(worker)
        return [w for w in workers if w in self.admitted and w not in self.refused]

    def refuse(self, worker: str, why: str, name: Any = None) -> None:
        """Send `worker` no further match; it is told why (and exits if it
        is an `arena worker`), and the run says the same line."""
        self.refused[worker] = why
        if name is None:
            name = self._client.scheduler_info()["workers"].get(worker, {}).get("name")
        named = f" ({name})" if name is not None and str(name) != worker else ""
        log.warning("dask worker %s%s refused: %s", worker, named, why)
        told: dict[str, Any] = {}
        with contextlib.suppress(Exception):  # gone already: nothing to tell
            told = self._client.run(refuse_here, why, workers=[worker], on_error="ignore")
        if told.get(worker) is not True:
            # Not an `arena worker` (which leaves once told): the scheduler
            # closes it, and what it held goes to the others.
            with contextlib.suppress(Exception):
                self._client.retire_workers([worker], close_workers=True)


# --- addresses and TLS -------------------------------------------------------

# The files of a TLS folder (`arena cluster certs DIR`, or the openssl recipe
# in docs/tournaments.md): the cluster's CA, and one certificate and key it
# signed that every node (scheduler, workers, coordinator) presents.
CA_FILE, CERT_FILE, KEY_FILE = "ca.pem", "cluster.pem", "cluster.key"


def _loopback(host: str) -> bool:
    import ipaddress

    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address_problem(address: str, tls: str, insecure: bool) -> str:
    """What stops this run (or worker) from using the scheduler at `address`
    ("" if nothing): plain tcp:// is unencrypted and unauthenticated, so it
    goes to this machine only unless `insecure`; tls:// needs `tls` (the
    TLS folder) and the folder its three files."""
    if address in ("", "local"):
        return ""
    scheme, _, rest = address.partition("://")
    host = rest.rpartition(":")[0]
    if scheme == "tcp":
        if tls:
            return f"{address}: --tls is for a tls:// address"
        if not insecure and not _loopback(host):
            return (f"{address}: plain tcp:// to another machine is neither encrypted nor "
                    "authenticated (anyone who reaches the scheduler can run code on every "
                    "worker); use tls:// with --tls DIR (arena cluster certs DIR), or say "
                    "--insecure")
        return ""
    if scheme == "tls":
        if not tls:
            return f"{address}: a tls:// scheduler needs --tls DIR (arena cluster certs DIR)"
        for name in (CA_FILE, CERT_FILE, KEY_FILE):
            if not (Path(tls) / name).is_file():
                return f"--tls {tls}: no {name} there (arena cluster certs DIR makes them)"
    return ""


def security(tls: str) -> Any:
    """Dask's Security for the TLS folder `tls` (None without one): every
    connection encrypted, and only nodes with a certificate of the
    cluster's CA let in."""
    if not tls:
        return None
    from distributed import security as dask_security

    make: Any = dask_security.Security  # untyped library
    folder = Path(tls)
    ca, cert, key = (str(folder / n) for n in (CA_FILE, CERT_FILE, KEY_FILE))
    return make(require_encryption=True, tls_ca_file=ca, tls_client_cert=cert,
                    tls_client_key=key, tls_worker_cert=cert, tls_worker_key=key,
                    tls_scheduler_cert=cert, tls_scheduler_key=key)


def make_certs(folder: Path, days: int = 365) -> list[Path]:
    """A CA and one certificate it signs, for every node of a cluster, with
    openssl (EC P-256 keys, readable by their owner only). Returns the files;
    CertsError if the folder has them already or openssl fails."""
    import os
    import shutil
    import subprocess

    openssl = shutil.which("openssl")
    if openssl is None:
        raise CertsError("openssl is not installed (it makes the certificates)")
    targets = [folder / n for n in (CA_FILE, CERT_FILE, KEY_FILE)]
    if any(p.exists() for p in targets):
        raise CertsError(f"{folder}: has certificates already (remove them to make new ones)")
    folder.mkdir(parents=True, exist_ok=True)
    work = folder / ".making"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(mode=0o700)
    old = os.umask(0o077)
    try:
        steps = [
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key"],
            ["req", "-x509", "-new", "-key", "ca.key", "-sha256", "-days", str(days),
             "-subj", "/CN=arena cluster CA", "-out", CA_FILE],
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", KEY_FILE],
            ["req", "-new", "-key", KEY_FILE, "-subj", "/CN=arena cluster node", "-out",
             "node.csr"],
            ["x509", "-req", "-in", "node.csr", "-CA", CA_FILE, "-CAkey", "ca.key",
             "-CAcreateserial", "-sha256", "-days", str(days), "-out", CERT_FILE],
        ]
        for step in steps:
            done = subprocess.run([openssl, *step], cwd=work, capture_output=True, text=True,
                                  check=False)
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["failed"])[-1]
                raise CertsError(f"openssl {step[0]}: {last}")
        for target in targets:
            os.replace(work / target.name, target)
        # The CA's key signs nothing more: kept beside, for the organiser to
        # put away (a node needs the three files above only).
        os.replace(work / "ca.key", folder / "ca.key")
    finally:
        os.umask(old)
        shutil.rmtree(work, ignore_errors=True)
    return [*targets, folder / "ca.key"]


class CertsError(TournamentError, RuntimeError):
    """`arena cluster certs` cannot make the certificates: one line."""
