"""Collects everything it can see, to re-deal the match from it.

Every message the referee sends (text form), its environment, arguments,
working folder, the files it can read in its own sandbox (its folder, HOME,
TMPDIR, and /tmp where that is private to it), /proc/self, its host name and
socket path. It prints all of it as JSON lines, for the test to search for
the deal seed: at its first decision what it holds and has seen so far
(with its hand and the phase it was in), then each message as it comes:

    ATTACK seen: {...}

attack.json may ask for more: "fault": true makes its first reply malformed
(a tournament then keeps its log), and "known_hands" (hands dealt in
earlier matches, read from their replays) makes it say whether it was dealt
one of them: "ATTACK known deal: yes|no|unsure".
"""

import json
import os
import socket
import sys

from adversary import Adversary, main, report

LIMIT = 65536  # bytes read of one file
# Bytes read in all: the whole report is one log line, and a seat's log keeps
# 1 MB (Limits.log_bytes); past that the line is cut and says nothing.
TOTAL = 600_000


def _public() -> tuple[str, ...]:
    """The arena's own Python, shown to every bot where it lies (a checkout
    under /tmp puts it in the bot's /tmp): the same files for every match,
    so nothing in them can hold a match's seed."""
    import arena

    return tuple(os.path.realpath(p) + "/" for p in
                 (sys.prefix, sys.base_prefix, os.path.dirname(arena.__file__)))


def read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(LIMIT).decode("utf-8", "replace")
    except OSError as exc:
        return f"<{type(exc).__name__}>"


def walk(top: str, out: dict[str, str], budget: list[int]) -> None:
    public = _public()
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ("__pycache__",)
                   and not (os.path.realpath(os.path.join(folder, d)) + "/").startswith(public)]
        out[folder + "/"] = " ".join(sorted(dirs + files))
        for name in files:
            if budget[0] <= 0 or budget[1] <= 0:
                return
            budget[0] -= 1
            text = read(os.path.join(folder, name))
            budget[1] -= len(text)
            out[os.path.join(folder, name)] = text


def surroundings() -> dict[str, object]:
    files: dict[str, str] = {}
    budget = [400, TOTAL]  # files, bytes
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
    return {"env": dict(os.environ), "argv": sys.argv, "cwd": os.getcwd(),
            "hostname": socket.gethostname(), "uid": os.getuid(), "pid": os.getpid(),
            "socket_dir": {sock_dir: listing}, "files": files}


class SeedSnoop(Adversary):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []  # until the first decision; then printed as they come
        self.first_phase = ""

    def seen(self, text: str) -> None:
        if self.first_phase:
            report("seen", json.dumps({"messages": [text]}))
        else:
            self.messages.append(text)

    def on_match_start(self, start) -> None:  # type: ignore[no-untyped-def]
        self.seen(str(start))

    def on_event(self, event) -> None:  # type: ignore[no-untyped-def]
        self.seen(str(event))
        if not self.first_phase and "redeal" in event.text:
            self.redealt = True

    def on_deal_end(self, result) -> None:  # type: ignore[no-untyped-def]
        self.seen(str(result))

    def on_match_end(self, end) -> None:  # type: ignore[no-untyped-def]
        self.seen(str(end))

    def act(self, obs):  # type: ignore[no-untyped-def]
        if self.first_phase:
            self.seen(str(obs.request))
            return super().act(obs)
        self.messages.append(str(obs.request))
        hand = sorted(str(c) for c in obs.hand)
        phase = "redealt" if getattr(self, "redealt", False) else f"{obs.phase} {obs.deal_number}"
        self.first_phase = phase
        report("seen", json.dumps(surroundings() | {
            "messages": self.messages, "hand": hand, "first_phase": phase}))
        known = self.config.get("known_hands")
        if known is not None:
            answer = "unsure" if phase != "bidding 1" else ("yes" if hand in known else "no")
            report("known deal", answer)
        if self.config.get("fault"):
            super().act(obs)  # as many draws as an honest turn
            return "pass pass"  # malformed: a fault, so that a tournament keeps this log
        return super().act(obs)


main(SeedSnoop())
