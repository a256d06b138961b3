"""`arena replay show --seat N` shows the seat's hand after the exchange,
with the cards it gave and was given, and each decision's time."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clihelp import ROOT, cli_ok

RANDOM = ROOT / "sample_bots" / "random"


def arena(*args: object) -> str:
    return cli_ok(*args, timeout=300).stdout


@pytest.mark.slow
def test_the_seat_view_shows_the_hand_after_the_exchange_and_decision_times(
        tmp_path: Path) -> None:
    replay = tmp_path / "m.jsonl"
    arena("play", RANDOM, RANDOM, RANDOM, "--seed", "4", "--sandbox", "process",
          "--option", "max_deals=1", "--replay", replay)
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    actions = [r for r in records if r["type"] == "action"]
    gives = [a for a in actions if a["action"].startswith("give ")]
    assert len(gives) == 2
    declarer = gives[0]["seat"]
    for seat in range(3):
        lines = arena("replay", "show", replay, "--seat", seat).splitlines()
        after = [line for line in lines if "hand after the exchange:" in line]
        assert len(after) == 1 and after[0].startswith(f"   seat {seat} hand after"), after
        hand = after[0].split(": ", 1)[1].split("  (")[0].split()
        assert len(hand) == 8  # 7 dealt, and the card given (the declarer: +3 talon, -2)
        if seat == declarer:
            given = ", ".join(f"{g['action'].split()[1]} to {g['action'].split()[2]}"
                              for g in gives)
            assert after[0].endswith(f"(gave {given})")
        else:
            card = next(g["action"].split()[1] for g in gives
                        if g["action"].split()[2] == str(seat))
            assert after[0].endswith(f"(received {card} from {declarer})")
            assert card in hand
            # The card given face down to the other opponent stays hidden.
            other = next(g["action"].split()[1] for g in gives
                         if g["action"].split()[2] != str(seat))
            assert other not in after[0]
        # Every decision line carries its time and CPU time, as recorded.
        told = [line for line in lines if re.match(r"   seat \d: ", line)
                and "hand" not in line and "compulsory" not in line]
        assert len(told) == len(actions)
        for line, action in zip(told, actions, strict=True):
            ms = action["time"] * 1000
            wall = f"{ms:.1f} ms" if action["time"] < 1 else f"{action['time']:.2f} s"
            cpu = "" if action.get("cpu") is None else f", CPU {action['cpu'] * 1000:.1f} ms"
            assert line.endswith(f"({wall}{cpu})"), (line, action)
