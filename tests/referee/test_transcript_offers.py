"""A seat's transcript does not tell it of another seat's declined private
offer (RULES.md §6; docs/rules.md "Private offers"); the all-seats view does."""

from __future__ import annotations

from typing import Any

from arena.game import Rules, new_game
from arena.game.actions import Pass
from arena.referee.replay import Replay
from arena.referee.transcript import replay_lines

SEED = 119  # estonian: seat 1 is offered a redeal at the very start


def offer_replay() -> tuple[Replay, int]:
    rules = Rules.preset("estonian")
    g = new_game(rules, seed=SEED)
    assert g.private_offer, "the seed no longer starts with an offer"
    holder = g.to_act
    assert holder is not None
    actions: list[dict[str, Any]] = []
    for n in range(6):
        seat = g.to_act
        action = Pass() if any(isinstance(a, Pass) for a in g.legal_actions()) else g.legal_actions()[0]
        actions.append({"type": "action", "n": n, "deal": 1, "seat": seat, "action": str(action)})
        g = g.apply(action)
    header = {"type": "header", "match_id": "t", "seed": SEED, "rules": rules.to_dict(),
              "bots": [{"seat": s, "name": f"b{s}", "version": "1"} for s in range(3)]}
    return Replay(path="t.jsonl", header=header, actions=actions), holder


def test_other_seats_transcripts_omit_the_declined_offer() -> None:
    replay, holder = offer_replay()
    passes = {}
    for view in (None, 0, 1, 2):
        lines = list(replay_lines(replay, view))
        passes[view] = sum(1 for x in lines if x.strip() == f"seat {holder}: pass")
    assert passes[None] == passes[holder] == 2  # the declined offer, then the auction pass
    for seat in range(3):
        if seat != holder:
            assert passes[seat] == 1
