"""Two instances of one bot, on the same deals at the same time, tell each
other their hands through file locks (tests/sandbox/test_twin_instances.py).

Every sandbox of a bot mounts the same folder at /bot, and a lock taken on
a file there (flock, which needs no write access) is seen by every other
process that opens the file, in any sandbox on this kernel. The bot's
folder holds a file per card (cards/AS, ...). At its first decision this
bot locks the files of the cards in its hand and keeps them locked to its
end; then it probes the other cards' files, for `wait` seconds at most
(attack.json), and reports the cards some other instance holds:

    ATTACK twin: seat 1 hand 9C JC ... saw AS KS ... (or: saw nothing)

attack.json "fault": true makes its first reply malformed, so that a
tournament keeps its log.
"""

import fcntl
import os
import time

from adversary import HERE, Adversary, main, report

CARDS = os.path.join(HERE, "cards")


class Twin(Adversary):
    def __init__(self) -> None:
        super().__init__()
        self.held: list[object] = []  # open files whose locks it keeps

    def attack(self) -> None:
        pass

    def act(self, obs):  # type: ignore[no-untyped-def]
        action = super().act(obs)
        if self.turns == 1:
            self.tell(obs)
            if self.config.get("fault"):
                return "pass pass"  # malformed: a fault, so that a tournament keeps this log
        return action

    def tell(self, obs) -> None:  # type: ignore[no-untyped-def]
        hand = sorted(obs.hand)
        for card in hand:
            f = open(os.path.join(CARDS, card), "rb")  # noqa: SIM115 - kept open: its lock lasts to the end
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.held.append(f)
            except BlockingIOError:
                f.close()  # another instance, on other deals, holds it
        seen: set[str] = set()
        deadline = time.monotonic() + float(self.config.get("wait", 0))
        while True:
            for card in sorted(os.listdir(CARDS)):
                if card in hand or card in seen:
                    continue
                with open(os.path.join(CARDS, card), "rb") as f:
                    try:
                        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        seen.add(card)
            if len(seen) >= len(hand) or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        report("twin", f"seat {obs.seat} hand {' '.join(hand)} saw "
                       f"{' '.join(sorted(seen)) or 'nothing'}")


main(Twin())
