"""Searching what a bot saw for a seed that deals its hand (the seed-secrecy tests).

`candidates(value)` turns everything a bot collected (nested JSON: texts,
numbers) into the integers it could try as a deal seed: every number, every
run of digits and each of its substrings, every run of hex digits read as
hex. `redeals(...)` keeps those that deal the bot's match, as a cheating bot
would find them with the rules engine's `new_game`: first the seeds that deal
its own first hand (all it can check), then, of those, the ones that deal the
whole deal, every hand and the talon (what it would gain).

Why the second step: a standard hand is 7 of 24 cards, so a seed picked at
random deals a given hand once in C(24, 7) = 346,104 tries, and a bot's
files and messages hold tens of thousands of digit runs and substrings. A
few per cent of honest runs had one such coincidence (299999999 once dealt
the snoop's hand in CI); that seed told the bot nothing about the other
hands. The whole deal matches by chance once in about 10^10.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from arena.game import Rules, new_game

_DIGITS = re.compile(r"\d+")
_HEX = re.compile(r"[0-9a-fA-F]{4,}")


def candidates(value: Any, out: set[int] | None = None) -> set[int]:
    found = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            candidates(k, found)
            candidates(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            candidates(v, found)
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int):
        found.add(abs(value))
    elif isinstance(value, float):
        found.add(int(abs(value)))
    elif isinstance(value, str):
        for run in _DIGITS.findall(value):
            for i in range(len(run)):
                for j in range(i + 1, len(run) + 1):
                    found.add(int(run[i:j]))
        for run in _HEX.findall(value):
            found.add(int(run, 16))
    return found


def first_hand(rules: Rules, seed: int, seat: int) -> list[str]:
    return sorted(str(c) for c in new_game(rules, seed=seed).observation(seat).to_dict()["hand"])


def whole_deal(rules: Rules, seed: int) -> list[list[str]]:
    """Every seat's first hand and the talon, as the seed deals them."""
    game = new_game(rules, seed=seed)
    hands = [sorted(str(c) for c in game.hand(s)) for s in range(game.players)]
    return [*hands, sorted(str(c) for c in game.talon)]


def redeals(seeds: Iterable[int], rules: Rules, seat: int, hand: list[str],
            deal_seed: int) -> list[int]:
    """The seeds among `seeds` that deal `hand` to `seat` first and deal the
    whole first deal of `deal_seed` (the match's true seed)."""
    want = sorted(hand)
    mine = [s for s in sorted(seeds) if first_hand(rules, s, seat) == want]
    deal = whole_deal(rules, deal_seed) if mine else []
    return [s for s in mine if whole_deal(rules, s) == deal]


def seen_lines(log: str) -> dict[str, object]:
    """Every `ATTACK seen:` line of a seed snoop's log (adversaries/seed_snoop.py), merged."""
    merged: dict[str, object] = {"messages": []}
    for line in log.splitlines():
        if line.startswith("ATTACK seen: "):
            part = json.loads(line[len("ATTACK seen: "):])
            merged["messages"] += part.pop("messages")  # type: ignore[operator]
            merged.update(part)
    return merged
