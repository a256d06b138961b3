"""Keeps a core busy between its turns (a thread) and in a child process."""

import os
import threading

from adversary import Adversary, main, report


def burn() -> None:
    x = 0
    while True:
        x += 1


class CpuBurner(Adversary):
    def attack(self) -> None:
        threading.Thread(target=burn, daemon=True).start()
        if os.fork() == 0:
            burn()
        report("cpu", "burning in a thread and a child process")


main(CpuBurner())
