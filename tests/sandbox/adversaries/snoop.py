"""Tries to read another bot's folder, the referee's files and replay, and /proc."""

import os

from adversary import Adversary, failure, main, report


def try_read(label: str, path: str) -> None:
    try:
        if os.path.isdir(path):
            names = os.listdir(path)
            report(f"read {label}", f"ok: {len(names)} entries")
        else:
            with open(path, "rb") as f:
                data = f.read(4096)
            report(f"read {label}", f"ok: {len(data)} bytes")
    except OSError as exc:
        report(f"read {label}", failure(exc))


class Snoop(Adversary):
    def attack(self) -> None:
        for label, path in sorted(self.config.get("read", {}).items()):
            try_read(label, path)
        referee = int(self.config.get("referee_pid", 0))
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        report("proc", f"{len(pids)} processes visible")
        try_read("referee cmdline", f"/proc/{referee}/cmdline")
        try_read("referee environ", f"/proc/{referee}/environ")
        try_read("referee cwd", f"/proc/{referee}/cwd")


main(Snoop())
