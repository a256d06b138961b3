"""Matches for the analysis tests, played with the engine and the greedy
sample bot's policy, written as the referee writes a replay (the record
types of arena/referee/replay.py): the analysis reads a real file."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from arena.analysis.policies import reference
from arena.game import GameState, Rules, new_game
from arena.game.actions import Action
from arena.referee.replay import REPLAY_VERSION

# A change to the action at a decision: (state, seat's decision count) -> action or None.
Inject = Callable[[GameState, int], Action | None]


def play_replay(path: Path, rules: Rules, seed: int, *, match_id: str = "m1",
                names: Mapping[int, str] | None = None, inject: Inject | None = None,
                seat: int = 0) -> list[dict[str, Any]]:
    """Play a whole match, every seat greedy except where `inject` (for
    `seat`) returns an action; write its replay to `path`. Returns the
    action records."""
    policy = reference("greedy")
    rng = random.Random(0)
    n = rules.players
    names = names or {}
    g = new_game(rules, seed=seed)
    header = {"type": "header", "version": REPLAY_VERSION, "match_id": match_id, "seed": seed,
              "rules": rules.to_dict(),
              "bots": [{"seat": s, "name": names.get(s, "greedy"), "version": "1.0.0",
                        "language": "python", "content_hash": "0" * 64} for s in range(n)]}
    actions: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []
    mine = 0
    while not g.is_over:
        who = g.to_act
        assert who is not None
        action = policy(g, rng)
        if who == seat:
            mine += 1
            if inject is not None:
                action = inject(g, mine) or action
        actions.append({"type": "action", "n": len(actions), "deal": g.deal_number, "seat": who,
                        "action": str(action), "time": 0.001, "fault": None, "note": ""})
        g = g.apply(action)
        while len(deals) < len(g.deals):
            record = g.deals[len(deals)].to_dict()
            record.pop("redeals", None)
            deals.append({"type": "deal", **record})
    result = {"type": "result", "finish": [list(f) for f in g.finish], "totals": list(g.totals),
              "places": list(g.places), "statuses": ["ok"] * n, "reason": "complete", "duration": 1.0}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n"
                            for r in [header, *actions, *deals, result]), encoding="utf-8")
    return actions
