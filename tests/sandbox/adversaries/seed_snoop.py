"""Collects everything it can see, to re-deal the match from it.

Every message the referee sends (text form), its environment, arguments,
working folder, the files it can read in its own sandbox (its folder, HOME,
TMPDIR, and /tmp where that is private to it), /proc/self, its host name and
socket path. At the end it prints all of it as one JSON line, with its hand
at its first decision (and the phase it was in), for the test to search
for the deal seed:

    ATTACK seen: {...}
"""

import json
import os
import socket
import sys

from adversary import Adversary, main, report

LIMIT = 65536  # bytes read of one file


def read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(LIMIT).decode("utf-8", "replace")
    except OSError as exc:
        return f"<{type(exc).__name__}>"


def walk(top: str, out: dict[str, str], budget: list[int]) -> None:
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ("__pycache__",)]
        out[folder + "/"] = " ".join(sorted(dirs + files))
        for name in files:
            if budget[0] <= 0:
                return
            budget[0] -= 1
            out[os.path.join(folder, name)] = read(os.path.join(folder, name))


class SeedSnoop(Adversary):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []
        self.hand: list[str] = []
        self.first_phase = ""

    def on_match_start(self, start) -> None:  # type: ignore[no-untyped-def]
        self.messages.append(str(start))

    def act(self, obs):  # type: ignore[no-untyped-def]
        self.messages.append(str(obs.request))
        if not self.first_phase:
            self.hand = sorted(str(c) for c in obs.hand)
            self.first_phase = f"{obs.phase} {obs.deal_number}"
        return super().act(obs)

    def on_event(self, event) -> None:  # type: ignore[no-untyped-def]
        self.messages.append(str(event))
        if not self.first_phase and "redeal" in event.text:
            self.first_phase = "redealt"  # its first hand is not the seed's first deal

    def on_deal_end(self, result) -> None:  # type: ignore[no-untyped-def]
        self.messages.append(str(result))

    def on_match_end(self, end) -> None:  # type: ignore[no-untyped-def]
        self.messages.append(str(end))
        files: dict[str, str] = {}
        budget = [400]
        tops = [os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", "")]
        if os.environ.get("ARENA_SANDBOX") != "process":  # its own private /tmp
            tops.append("/tmp")
        for top in dict.fromkeys(t for t in tops if t):
            walk(top, files, budget)
        for name in ("cmdline", "environ", "cgroup", "mountinfo", "status", "limits"):
            files[f"/proc/self/{name}"] = read(f"/proc/self/{name}")
        for path in ("/proc/1/cmdline", "/proc/1/environ", f"/proc/{os.getppid()}/cmdline",
                     f"/proc/{os.getppid()}/environ", "/etc/hostname", "/etc/hosts"):
            files[path] = read(path)
        address = os.environ.get("ARENA_ADDRESS", "")
        sock_dir = os.path.dirname(address.removeprefix("unix:"))
        try:
            listing = " ".join(os.listdir(sock_dir))
        except OSError as exc:
            listing = f"<{type(exc).__name__}>"
        seen = {
            "env": dict(os.environ), "argv": sys.argv, "cwd": os.getcwd(),
            "hostname": socket.gethostname(), "uid": os.getuid(), "pid": os.getpid(),
            "socket_dir": {sock_dir: listing}, "files": files, "messages": self.messages,
            "hand": self.hand, "first_phase": self.first_phase,
        }
        report("seen", json.dumps(seen))


main(SeedSnoop())
