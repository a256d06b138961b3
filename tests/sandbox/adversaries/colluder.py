"""Two different bots at one table pass cards through file locks
(tests/sandbox/test_collusion.py).

A lock needs no write access: a fcntl read lock on one byte of a file
opened read-only is seen by any other process that opens the same file and
asks F_GETLK. The files two containers can both open are the ones the
engine mounts into each from the host (the container's own root is a copy),
so this bot looks them up in /proc/self/mountinfo: every mount but /proc,
/sys, /dev and tmpfs, each file of it (a folder's files up to a bound).

attack.json "role": "send" locks byte i (i = the card's index in the deck)
of each such file for every card of its first hand, and keeps the locks to
its end: `ATTACK collude: sent HAND`. "read" asks, at each of its decisions,
which of those bytes another process holds: `ATTACK collude: read CARDS`
(or `read nothing`).
"""

import contextlib
import fcntl
import os
import struct

from adversary import Adversary, main, report

DECK = [r + s for s in "CDHS" for r in "AKQJT9"]
SKIP_TYPES = {"proc", "sysfs", "tmpfs", "devpts", "mqueue", "cgroup", "cgroup2", "devtmpfs"}
MAX_FILES = 150  # within RLIMIT_NOFILE: a process's locks on a file end when it closes it


def shared_files() -> list[str]:
    found: list[str] = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            point, kind = fields[4], fields[fields.index("-") + 1]
            if point == "/" or kind in SKIP_TYPES or point.startswith(("/proc", "/sys", "/dev")):
                continue
            if os.path.isfile(point):
                found.append(point)
            elif os.path.isdir(point):
                for root, _dirs, files in os.walk(point):
                    found += [os.path.join(root, n) for n in sorted(files)]
    return sorted(p for p in set(found) if os.path.isfile(p))[:MAX_FILES]


class Colluder(Adversary):
    def __init__(self) -> None:
        super().__init__()
        self.kept: list[int] = []

    def act(self, obs):  # type: ignore[no-untyped-def]
        action = super().act(obs)
        if self.config.get("role") == "send":
            if self.turns == 1:
                self.send(sorted(obs.hand))
        else:
            self.read()
        return action

    def send(self, hand: list[str]) -> None:
        for path in shared_files():
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            for card in hand:
                with contextlib.suppress(OSError):
                    fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, DECK.index(card))
            self.kept.append(fd)
        report("collude", f"sent {' '.join(hand)} on {len(self.kept)} files")

    def read(self) -> None:
        seen: set[str] = set()
        for path in shared_files():
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                for i, card in enumerate(DECK):
                    probe = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, i, 1, 0)
                    kind = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, probe))[0]
                    if kind != fcntl.F_UNLCK:
                        seen.add(card)
            finally:
                os.close(fd)
        report("collude", f"read {' '.join(sorted(seen)) or 'nothing'}")


main(Colluder())
