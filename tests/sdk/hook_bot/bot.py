"""Counts what the SDK hands it and prints one JSON line at the end."""

import json
import random
import sys
from collections import Counter

from arena.sdk import Bot, run


class HookBot(Bot):
    name = "hooks"

    def __init__(self) -> None:
        self.rng = random.Random(1)
        self.seen: Counter[str] = Counter()
        self.seat = -1
        self.trick_cards_ok = True

    def on_match_start(self, start):
        self.seat = start.seat
        self.seen["start"] += 1
        self.seen["options"] = len(start.rules.options)

    def on_event(self, event):
        self.seen["event:" + event.kind] += 1
        if event.kind == "trick" and len(event.cards) != 3:
            self.trick_cards_ok = False

    def on_deal_end(self, result):
        self.seen["deal_end"] += 1

    def act(self, obs):
        self.seen["act"] += 1
        assert obs.seat == self.seat and obs["seat"] == self.seat and obs.to_act == self.seat
        assert len(obs.legal_actions) == len(obs.legal_texts) > 0
        assert [str(a) for a in obs.legal_actions] == obs.legal_texts
        assert all(len(c) == 2 for c in obs.hand) and len(obs.hand_cards) == len(obs.hand)
        return self.rng.choice(obs.legal_texts if self.seen["act"] % 2 else obs.legal_actions)

    def on_match_end(self, end):
        self.seen["end"] += 1
        print(json.dumps({"seen": self.seen, "seat": self.seat, "places": list(end.places),
                          "tricks_ok": self.trick_cards_ok}), file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(run(HookBot()))
