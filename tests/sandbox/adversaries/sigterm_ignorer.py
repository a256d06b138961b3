"""Plays legally but ignores SIGTERM and will not exit when the match ends."""

import signal
import time

from adversary import Adversary, main, report


class Stubborn(Adversary):
    def attack(self) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        report("sigterm", "ignoring SIGTERM")

    def on_match_end(self, end: object) -> None:
        report("sigterm", "match over, staying alive")
        while True:
            time.sleep(60)


main(Stubborn())
