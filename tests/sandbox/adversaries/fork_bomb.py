"""Forks children that never exit, as many as it can, then goes on playing."""

import os
import time

from adversary import Adversary, failure, main, report

LIMIT = 2000  # enough to show a limit is missing without drowning the test machine


class ForkBomb(Adversary):
    def attack(self) -> None:
        n = 0
        try:
            while n < LIMIT:
                if os.fork() == 0:
                    while True:
                        time.sleep(60)
                n += 1
        except OSError as exc:
            report("fork", f"refused after {n}: {failure(exc)}")
            return
        report("fork", f"not stopped: {n} processes started")


main(ForkBomb())
