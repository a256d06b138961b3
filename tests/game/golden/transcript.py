"""A readable transcript of one seeded whole game (the golden playthroughs).

Deal by deal: the dealt hands and the talon, every action with its seat,
each trick with its winner, the deal result and the totals. Built only from
the engine's public API (observations of every seat, `deals` records), so a
change in any rule's outcome shows up as a reviewable diff.
"""

from __future__ import annotations

import random
from typing import Any

from arena.game import new_game
from arena.game.actions import Play, Redeal
from arena.game.cards import DECK

from ..helpers import random_choice, rules

PRESETS = ("standard", "estonian", "lithuanian", "czech", "finnish", "swedish")
SEEDS = {"standard": 11, "estonian": 12, "lithuanian": 13, "czech": 14, "finnish": 15, "swedish": 16}
# The games start from these totals and stop after at most MAX_DEALS deals, so
# each transcript is a whole game (usually ended by reaching the target, with
# the barrels in play) short enough to review as a diff.
START = [600, 650, 700]
MAX_DEALS = 25


def _cards(cs: Any) -> str:
    return " ".join(cs) if cs else "-"


def _deal_header(g: Any, out: list[str]) -> None:
    seats = len(g.totals)
    views = [g.observation(s).to_dict() for s in range(seats)]
    v0 = views[0]
    out.append("")
    out.append(f"== deal {v0['deal_number']}  dealer {v0['dealer']}  totals {list(g.totals)}")
    seen: set[str] = set()
    for s, v in enumerate(views):
        seen.update(v["hand"])
        if s in v["active_seats"] or v["hand"]:
            out.append(f"   hand {s}: {_cards(v['hand'])}")
    rest = sorted((c for c in DECK if str(c) not in seen), key=lambda c: c.index)
    out.append(f"   talon/rest: {_cards([str(c) for c in rest])}")


def transcript(preset: str, seed: int | None = None) -> str:
    seed = SEEDS[preset] if seed is None else seed
    r = rules(preset, max_deals=MAX_DEALS)
    rng = random.Random(seed)
    g = new_game(r, seed=seed, totals=START)
    out = [(f"# golden playthrough: preset {preset} (max_deals {MAX_DEALS}), seed {seed}, "
            f"start totals {START}, policy random_choice of tests/game/helpers.py")]
    _deal_header(g, out)
    fresh = False
    while not g.is_over:
        seat = g.to_act
        action = random_choice(g, rng)
        before = g.observation(seat).to_dict()
        nxt = g.apply(action)
        out.append(f"   {seat}: {action}")
        if isinstance(action, Play) and len(nxt.deals) == len(g.deals):
            after = nxt.observation(seat).to_dict()
            if len(after["tricks"]) > len(before["tricks"]):
                t = after["tricks"][-1]
                cards = " ".join(c["card"] for c in t["cards"])
                out.append(f"      trick {len(after['tricks'])}: {cards} -> seat {t['winner']}"
                           f"  (trump {after['trump'] or '-'})")
        if not before["talon"] and nxt.to_act is not None:
            shown = nxt.observation(nxt.to_act).to_dict()["talon"]
            if shown and len(nxt.deals) == len(g.deals):
                out.append(f"      talon seen by seat {nxt.to_act}: {_cards(shown)}")
        if len(nxt.deals) > len(g.deals):
            for d in nxt.deals[len(g.deals):]:  # a played deal, maybe then a redeal penalty
                out.append(
                    f"   result: deal {d.deal_number} declarer {d.declarer} bid {d.bid} "
                    f"contract {d.contract} made {d.made} scores {list(d.deal_scores)} "
                    f"changes {list(d.changes)} totals {list(d.totals)} redeals {d.redeals} "
                    f"notes {list(d.notes)}"
                )
            fresh = True
        elif isinstance(action, Redeal):
            fresh = True
        g = nxt
        if fresh and not g.is_over:
            _deal_header(g, out)
            fresh = False
    out.append("")
    out.append(f"== game over after {len(g.deals)} deals: totals {list(g.totals)} "
               f"finish {[list(p) for p in g.finish]}")
    return "\n".join(out) + "\n"
