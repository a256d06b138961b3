"""Hidden information in the bot's-eye view (referee/botseye.py, served by
`arena serve` as /api/t/T/match/ID/SEAT/decision/N.json): the cards seat v
cannot know in a fixed first deal (other hands, the talon) are permuted,
the same actions, times, notes, marks and log re-played, and the bytes of
every decision panel of v are the same; the other seats' panels of the
same moments differ (the comparison can fail)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.game import DECK, Rules, new_game, parse_action
from arena.referee.botseye import decision_view
from arena.referee.marks import Mark, Marks
from arena.referee.replay import Replay
from arena.web.replays import dumps

from .test_views import CARD, _cards_in, _first_deal

pytestmark = pytest.mark.unit

TRIALS = 30


def _panels(r: Rules, start: Any, plays: list[tuple[int, str, float, bool]],
            seat: int) -> list[bytes]:
    """The bytes of every panel of `seat` when `plays` are re-played from `start`."""
    seq: list[tuple[Any, dict[str, Any] | None]] = []
    g = start
    for n, (who, text, spent, faulty) in enumerate(plays):
        seq.append((g, {"type": "action", "n": n, "deal": g.deal_number, "seat": who,
                        "action": text, "time": spent, "cpu": None,
                        "fault": "illegal" if faulty else None,
                        "note": f"decision {n}: holds {' '.join(map(str, g.hand(who)))}"
                        if faulty else ""}))
        g = g.apply(parse_action(text))
    seq.append((g, None))
    header = {"type": "header", "match_id": "m", "seed": start.seed, "rules": r.to_dict(),
              "bots": [{"seat": s, "name": f"b{s}", "version": "1"} for s in range(r.players)],
              "time_control": {"per_move": 1.0, "bank": 10.0}}
    rep = Replay("m.jsonl", header, actions=[rec for _, rec in seq if rec])
    own = [n for n, p in enumerate(plays) if p[0] == seat]
    log = b"".join(b"line of decision %d\n" % k for k in range(len(own)))
    marks = Marks(seat=seat, cap=1000, end=len(log), relayed=False,
                  decisions=tuple(Mark(n=n, seq=k + 1, at=len(b"line of decision 0\n") * k,
                                       limit=11.0, bank=10.0) for k, n in enumerate(own)))
    return [dumps(decision_view(rep, seat, n, marks, log, states=seq)) for n in own]


def test_hidden_cards_change_no_byte_of_a_seats_decision_panels() -> None:
    r = Rules.preset("standard").replace(max_deals=2)
    n = r.players
    compared = differ = 0
    for trial in range(TRIALS):
        rng = random.Random(500 + trial)
        base = new_game(r, seed=trial + 1)
        hands = [[str(c) for c in base.hand(s)] for s in range(n)]
        held = {c for h in hands for c in h}
        talon = [str(c) for c in DECK if str(c) not in held]
        viewer = (base.dealer + 1 + trial) % n
        a = new_game(r, seed=trial + 1, dealer=base.dealer, hands=hands, talon=talon)
        plays = _first_deal(r, a, rng)
        first_play = next((i for i, p in enumerate(plays) if p[1].startswith("play ")), len(plays))
        plays = plays[:first_play + n * (trial % 3)]
        seen: set[str] = set()
        g = a
        for _seat, text, _t, _f in plays:
            seen |= _cards_in(g.observation(viewer).to_dict())
            if text.startswith("play "):
                seen.add(text.split()[1])
            g = g.apply(parse_action(text))
        seen |= _cards_in(g.observation(viewer).to_dict())
        hidden = [str(c) for c in DECK if str(c) not in seen]
        if len(hidden) < 2:
            continue
        moved = hidden[:]
        random.Random(trial).shuffle(moved)
        pi = dict(zip(hidden, moved, strict=True))

        def swap(text: str, pi: dict[str, str] = pi) -> str:
            return CARD.sub(lambda m: pi.get(m.group(0), m.group(0)), text)

        b = new_game(r, seed=trial + 1, dealer=base.dealer,
                     hands=[[swap(c) for c in h] for h in hands], talon=[swap(c) for c in talon])
        plays_b = [(seat, swap(text), t, f) for seat, text, t, f in plays]
        same, ga, gb = 0, a, b
        for (seat, text, _t, _f), (_s, text_b, _tb, _fb) in zip(plays, plays_b, strict=True):
            try:
                if gb.to_act != seat:
                    break
                ga2, gb2 = ga.apply(parse_action(text)), gb.apply(parse_action(text_b))
            except ValueError:
                break
            if ga2.observation(viewer).to_dict() != gb2.observation(viewer).to_dict():
                break
            ga, gb, same = ga2, gb2, same + 1
        panels_a = _panels(r, a, plays[:same], viewer)
        panels_b = _panels(r, b, plays_b[:same], viewer)
        assert panels_a == panels_b, f"trial {trial}: seat {viewer}'s panels differ"
        compared += len(panels_a)
        for other in range(n):
            if other != viewer:
                differ += _panels(r, a, plays[:same], other) != _panels(r, b, plays_b[:same], other)
    assert compared >= 60, f"only {compared} panels compared"
    assert differ >= TRIALS // 2
