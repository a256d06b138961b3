"""Bolts (docs/rules.md#options bolts, Czech): an opponent that wins no trick gets a
bolt; each third bolt costs 120. Counted here independently from the
tricks of random Czech games and compared with the engine's changes."""

from __future__ import annotations

import random

from arena.game.actions import Play
from arena.game.cards import Card

from .helpers import random_choice, rules
from .oracle import round_five_nearest, trick_winner


def test_every_third_bolt_costs_120() -> None:
    from arena.game import new_game
    penalties = 0
    for seed in range(6):
        r = rules("czech", max_deals=30)
        g = new_game(r, seed=seed)
        rng = random.Random(seed)
        bolts = [0, 0, 0]
        while not g.is_over:
            a = random_choice(g, rng)
            pre = g
            g = g.apply(a)
            if len(g.deals) == len(pre.deals):
                continue
            d = g.deals[-1]
            if not isinstance(a, Play) or d.declarer is None:
                continue  # a concession or redeal: nobody played tricks
            o = pre.observation(pre.to_act)
            trick = [(int(t["seat"]), Card.parse(t["card"])) for t in o.trick] + [(pre.to_act, a.card)]
            won = list(o.tricks_won)
            won[trick_winner(trick, o.trump)] += 1
            for s in range(3):
                if s == d.declarer or won[s] > 0:
                    continue
                bolts[s] += 1
                before = d.totals[s] - d.changes[s]
                if (max(before, d.totals[s]) >= 700
                        or (d.notes and any("barrel" in n for n in d.notes))):
                    continue  # keep the sud barrel out of the arithmetic
                want = round_five_nearest(d.deal_scores[s]) - (120 if bolts[s] % 3 == 0 else 0)
                assert d.changes[s] == want, (seed, d, bolts)
                penalties += bolts[s] % 3 == 0
        states = g.observation(0).seat_states
        assert [st["bolts"] for st in states] == bolts
    assert penalties >= 2


def test_no_bolts_where_the_option_is_off() -> None:
    from .helpers import random_game
    g, _ = random_game(rules("lithuanian", max_deals=30), 4)
    assert all(st["bolts"] == 0 for st in g.observation(0).seat_states)
    assert not any(n.startswith("bolt") for d in g.deals for n in d.notes)
