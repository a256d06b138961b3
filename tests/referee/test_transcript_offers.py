"""A seat's transcript does not tell it of another seat's declined private
offer (docs/rules.md#private-offers); the all-seats view does."""

from __future__ import annotations

from typing import Any

from arena.game import Rules, new_game
from arena.game.actions import Pass
from arena.referee.replay import Replay
from arena.referee.transcript import replay_lines

from .offer_seed import SEED


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


def test_fault_notes_and_fault_logs_show_only_in_the_faulty_seats_view_or_all() -> None:
    """A fault's note lists the faulty seat's legal actions, that is part of
    its hand: another seat's view of the replay gets only the fault's kind."""
    replay, _ = offer_replay()
    actor = int(replay.actions[2]["seat"])
    secret = "decision 3: bid 7 is not legal (legal: pass, bid 110)"
    replay.actions[2] = {**replay.actions[2], "fault": "illegal", "note": secret}
    replay.result = {"type": "result", "totals": [0, 0, 0], "places": [1, 1, 1],
                     "statuses": ["ok"] * 3, "fault_log": [[secret] if s == actor else [] for s in range(3)]}
    replay.refused = [{"type": "refused", "seat": 1, "reason": "unknown token"}]
    for view in (None, 0, 1, 2):
        text = "\n".join(replay_lines(replay, view))
        assert ("legal: pass, bid 110" in text) == (view in (None, actor)), (view, text)
        assert "[fault: illegal" in text  # the kind is public in every view
        assert "refused on seat 1's socket: unknown token" in text
