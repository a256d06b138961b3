"""The attack bots of tests/sandbox/adversaries/ at a table: their folders,
the match they play between two random bots, and what the tests check
after it (leftover processes and containers, the others unharmed). Shared
by the attack test modules."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

from arena.referee import MatchResult, MatchSpec, TimeControl, run_match
from arena.sandbox.botfile import BotSpec, load_bot
from arena.sandbox.process import private_mounts_available

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STRONG = ("bwrap", "docker")  # levels where every attack must fail


def confined(level: str) -> bool:
    """The bot reaches no other seat's socket nor the referee's files: bwrap,
    docker, and the process level in a mount namespace of its own (as root)."""
    return level in STRONG or (level == "process" and private_mounts_available())


@dataclass
class Played:
    result: MatchResult
    log: str                # the adversary's own log
    level: str
    listener_hits: int

    @property
    def attacker(self):  # type: ignore[no-untyped-def]
        return self.result.seats[0]

    def attacks(self, what: str) -> list[str]:
        return re.findall(rf"^ATTACK {re.escape(what)}: (.*)$", self.log, re.MULTILINE)


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections (the network attack's target)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


def leftovers(root: Path) -> list[str]:
    """Processes and containers still tied to this test's folder."""
    needle = str(root).encode()
    found: list[str] = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            cwd = os.readlink(f"/proc/{pid}/cwd").encode()
        except OSError:
            continue
        if needle in cmd or cwd.startswith(needle):
            found.append(f"pid {pid}: {cmd.replace(bytes(1), b' ')[:120]!r}")
    from arena.sandbox import docker_level

    if docker_level.engine_reachable():
        # One listing call (the low-level API): other matches' containers may
        # come and go meanwhile, and inspecting one that just went would fail.
        api = docker_level.client().api
        for c in api.containers(all=True, filters={"label": "arena.bot=1"}):
            if any(m.get("Source", "").startswith(str(root)) for m in c.get("Mounts") or []):
                found.append(f"container {c['Id'][:12]} ({c.get('State')})")
    return found


def adversary(root: Path, attack: str, config: dict[str, object],
              packages: tuple[str, ...] = ()) -> BotSpec:
    """The attack's bot folder; `packages` (pure Python, importable here) are
    copied in, for levels whose image lacks them (docker)."""
    folder = root / "bots" / attack
    folder.mkdir(parents=True)
    for shared in ("adversary.py", "reach.py"):
        shutil.copy(HERE / "adversaries" / shared, folder / shared)
    for name in packages:
        module = __import__(name)
        shutil.copytree(Path(module.__file__).parent, folder / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(HERE / "adversaries" / f"{attack}.py", folder / "bot.py")
    (folder / "attack.json").write_text(json.dumps(config))
    (folder / "bot.toml").write_text(
        f'name = "{attack.replace("_", "-")}"\nversion = "1"\nlanguage = "python"\n'
        'run = "python3 bot.py"\nimage = "arena-python:1"\n')
    return load_bot(folder)


def random_bot(root: Path) -> BotSpec:
    folder = root / "bots" / "random"
    shutil.copytree(ROOT / "sample_bots" / "random", folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return load_bot(folder)


def play(root: Path, level: str, attack: str, listener: Listener | None = None,
         extra: dict[str, object] | None = None, packages: tuple[str, ...] = ()) -> Played:
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    other = random_bot(root)
    work = root / "work"
    work.mkdir()
    match_id = f"adv-{attack}"
    config: dict[str, object] = {
        "tcp_port": listener.port if listener else 0,
        "referee_pid": os.getpid(),
        "read": {
            "other bot": str(Path(other.path) / "bot.py"),
            "other bot folder": other.path,
            "replay": str(root / "replay.jsonl"),
            "referee work dir": str(work),
            "other seat log": str(work / f"{match_id}-seat1-random.log"),
        },
    } | (extra or {})
    bot = adversary(root, attack, config, packages)
    spec = MatchSpec(
        match_id=match_id, bots=(bot, other, other), seed=3, sandbox=level,
        rules_options=(("max_deals", 2),), replay_path=str(root / "replay.jsonl"),
        work_dir=str(work),
        time_control=TimeControl(per_move=3.0, bank=6.0, increment=0.1, startup=120.0),
    )
    result = run_match(spec)
    log_path = result.seats[0].log_path
    log = Path(log_path).read_text(errors="replace") if log_path else ""
    left = leftovers(root)
    assert left == [], f"left behind: {left}"
    return Played(result, log, level, listener.hits if listener else 0)


def assert_others_unharmed(p: Played) -> None:
    for seat in p.result.seats[1:]:
        assert seat.status == "ok", (seat, p.result)
        assert all(n == 0 for _, n in seat.faults), seat
        assert seat.decisions > 0
        assert seat.sandbox == p.level
    assert p.result.reason in ("complete", "max_deals", "forfeit")


def fault_count(p: Played) -> int:
    return sum(n for _, n in p.attacker.faults)


def attack_field(root: Path, attack: str, name: str, config: dict[str, object],
                 image: str = "") -> list[Path]:
    """The folders of a three-bot field in root/src: the attack's bot (named
    `name`, from adversaries/ATTACK.py) and two random bots."""
    attacker = root / "src" / attack
    attacker.mkdir(parents=True, exist_ok=True)
    for shared in ("adversary.py", "reach.py"):
        shutil.copy(HERE / "adversaries" / shared, attacker / shared)
    shutil.copy(HERE / "adversaries" / f"{attack}.py", attacker / "bot.py")
    (attacker / "attack.json").write_text(json.dumps(config))
    (attacker / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                       'run = "python3 bot.py"\n'
                                       + (f'image = "{image}"\n' if image else ""))
    others = []
    for other in ("random", "random-two"):
        folder = root / "src" / other
        shutil.copytree(ROOT / "sample_bots" / "random", folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
        toml = (folder / "bot.toml").read_text()
        (folder / "bot.toml").write_text(re.sub(r'^name = ".*"$', f'name = "{other}"', toml,
                                                flags=re.MULTILINE))
        others.append(folder)
    return [attacker, *others]
