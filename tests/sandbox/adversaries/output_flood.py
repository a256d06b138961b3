"""Writes a gigabyte to stdout and stderr (a thread), and files to /tmp, $HOME
and its own folder until stopped, while playing."""

import os
import sys
import threading

from adversary import HERE, MB, Adversary, failure, main, report

FLOOD = 1024 * MB        # stdout + stderr
DISK = 60 * MB           # per target: enough to show a missing limit, not to fill this disk
FILE = 20 * MB           # per file: over the 16 MB RLIMIT_FSIZE default


def flood() -> None:
    chunk = b"spam " * (MB // 5)
    out, err = sys.stdout.buffer, sys.stderr.buffer
    sent = 0
    while sent < FLOOD:
        (out if sent % (2 * len(chunk)) == 0 else err).write(chunk)
        sent += len(chunk)
    out.flush()


def fill(label: str, folder: str) -> None:
    written = 0
    block = b"\0" * MB
    try:
        for i in range(DISK // FILE):
            with open(os.path.join(folder, f"fill-{os.getpid()}-{i}"), "wb") as f:
                for _ in range(FILE // MB):
                    f.write(block)
                    f.flush()
                    written += MB
        report(f"disk {label}", f"not stopped: wrote {written // MB} MB")
    except OSError as exc:
        report(f"disk {label}", f"stopped at {written // MB} MB: {failure(exc)}")


class OutputFlood(Adversary):
    def attack(self) -> None:
        for label, folder in (("tmp", "/tmp"), ("home", os.environ.get("HOME", "/tmp")),
                              ("own folder", HERE)):
            fill(label, folder)
        report("output", "flooding stdout and stderr")
        threading.Thread(target=flood, daemon=True).start()


main(OutputFlood())
