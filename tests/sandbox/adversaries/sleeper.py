"""Stops answering: sleeps forever at its first decision."""

import time

from adversary import Adversary, main, report


class Sleeper(Adversary):
    def attack(self) -> None:
        report("sleep", "sleeping forever")
        while True:
            time.sleep(60)


main(Sleeper())
