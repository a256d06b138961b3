"""Starts processes that never exit, as many as it can, then goes on playing.

posix_spawn rather than os.fork: gRPC's fork handlers retry thread creation
forever once the pids limit is reached, which would hang the bot before it
could report; spawning skips them."""

import os
import sys

from adversary import Adversary, failure, main, report

LIMIT = 500  # enough to show a limit is missing without drowning the test machine
CHILD = "import time\nwhile True: time.sleep(60)"


class ForkBomb(Adversary):
    def attack(self) -> None:
        n = 0
        try:
            while n < LIMIT:
                os.posix_spawn(sys.executable, [sys.executable, "-c", CHILD], dict(os.environ))
                n += 1
        except OSError as exc:
            report("fork", f"refused after {n}: {failure(exc)}")
            return
        report("fork", f"not stopped: {n} processes started")


main(ForkBomb())
