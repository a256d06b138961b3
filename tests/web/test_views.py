"""The table views and the player's data are the engine's observations.

1. A seat's view is its `observation(seat)` with nothing added: every key
   equal, the hand placed among the seats, every other hand None.
2. The all-cards view shows each seat's real hand and the real talon.
3. Hidden information on the data the browser receives (docs/rules.md#hidden-information): the
   first deal is fixed and every card seat v cannot know (other hands,
   talon) is permuted; the same recorded actions, times and fault notes are
   re-played; seat v's player data (the exact bytes served) is identical up
   to the first moment the engine's observation of v differs. Fault notes
   name the faulty seat's legal actions (as the referee's do), so a leak of
   another seat's note, hand, the seed or a face-down card would show.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.game import DECK, Rules, new_game, parse_action
from arena.game.scoring import locked
from arena.referee.replay import Replay, read_replay
from arena.web.player import build_steps, player_data
from arena.web.replays import dumps
from arena.web.views import all_cards_view, seat_view, table_view

from .stored import random_choice, write_replay

TRIALS = 30
CASES: dict[str, tuple[str, dict[str, object]]] = {
    "standard": ("standard", {}),
    "czech": ("czech", {}),
    "finnish": ("finnish", {}),
    "swedish": ("swedish", {}),
    "lithuanian": ("lithuanian", {}),
    "czech-blind": ("czech", {"blind": "czech"}),
    "finnish-hidden-talon-discard": ("finnish", {"exchange": "discard"}),
    "finnish-4": ("finnish", {"players": 4}),
    "finnish-2": ("finnish", {"players": 2}),
    "standard-visible": ("standard", {"exchange_visible": True}),
}


def rules_of(case: str) -> Rules:
    preset, options = CASES[case]
    r = Rules.preset(preset)
    return r.replace(max_deals=4, **options) if options else r.replace(max_deals=4)


def states(r: Rules, seed: int) -> Iterator[Any]:
    rng = random.Random(seed)
    g = new_game(r, seed=seed)
    while not g.is_over:
        yield g
        g = g.apply(random_choice(g, rng))
    yield g


@pytest.mark.parametrize("case", sorted(CASES))
def test_seat_view_is_the_observation(case: str) -> None:
    r = rules_of(case)
    checked = 0
    for g in states(r, 3):
        for seat in range(r.players):
            obs = g.observation(seat).to_dict()
            view = seat_view(obs, r)
            assert view == table_view(g, seat)
            assert view["viewer"] == seat
            assert view["hands"][seat] == obs["hand"]
            assert all(h is None for s, h in enumerate(view["hands"]) if s != seat)
            added = ("viewer", "hands", "talon_face_down", "locked", "lock_threshold")
            assert {k: v for k, v in view.items() if k not in added} \
                == {k: v for k, v in obs.items() if k not in ("seat", "hand")}
            # The lock mark is the engine's rule on the public totals.
            assert view["locked"] == [locked(r, t) for t in obs["totals"]]
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("case", sorted(CASES))
def test_all_cards_view_shows_the_truth(case: str) -> None:
    r = rules_of(case)
    for g in states(r, 5):
        view = all_cards_view(g)
        assert view["viewer"] is None
        assert view["hands"] == [[str(c) for c in g.hand(s)] for s in range(r.players)]
        if g.talon:
            assert sorted(view["talon"]) == sorted(str(c) for c in g.talon)
        for s in range(r.players):
            seen = g.observation(s).to_dict()
            for i, given in enumerate(seen["given"]):
                if given["card"]:
                    assert view["given"][i]["card"] == given["card"]
        # Every card in the view is one of the 24 and none is shown twice in the hands.
        held = [c for h in view["hands"] for c in h]
        assert len(held) == len(set(held))


def test_player_steps_match_the_engine(tmp_path: Path) -> None:
    # No redeal conditions: no private offers, so one step per action whatever the deals.
    r = Rules.preset("standard").replace(max_deals=3, redeal="none")
    path = tmp_path / "m.jsonl"
    write_replay(path, r, seed=21, faults={1: "illegal"})
    rep = read_replay(path)
    for viewer in (None, 0, 1, 2):
        data = player_data(rep, viewer)
        views: list[dict[str, Any]] = []
        current: dict[str, Any] = {}
        for step in data["steps"]:
            current = {**current, **step["v"]}
            views.append(current)
        g = new_game(r, seed=21)
        expected = [table_view(g, viewer)]
        for rec in rep.actions:
            g = g.apply(parse_action(rec["action"]))
            expected.append(table_view(g, viewer))
        assert views == expected
        assert "seed" not in data["match"] and "21" not in json.dumps(data["match"])
        notes = [s["a"]["note"] for s in data["steps"] if s["a"] and s["a"]["fault"]]
        assert notes == (["decision 1: no reply within 1.000s"] if viewer in (None, 1) else [None])
        log = data["result"]["fault_log"]
        assert bool(log[1]) == (viewer in (None, 1))


# ------------------------------------------------------------ the byte test

CARD = re.compile(r"(?<![A-Za-z0-9])[AKQJT9][CDHS](?![A-Za-z0-9])")


def _cards_in(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _first_deal(r: Rules, g: Any, rng: random.Random) -> list[tuple[int, str, float, bool]]:
    """(seat, action, time, faulty) of the first deal, up to its end or a
    redeal (after which the cards come from the seed, the same in both games)."""
    out = []
    while not g.is_over:
        action = random_choice(g, rng)
        out.append((g.to_act, str(action), round(rng.random() / 100, 6), rng.random() < 0.2))
        nxt = g.apply(action)
        if len(nxt.deals) > len(g.deals) or type(action).__name__ == "Redeal":
            break
        g = nxt
    return out


def _payload(r: Rules, start: Any, plays: list[tuple[int, str, float, bool]], viewer: int | None,
             bots: list[dict[str, Any]]) -> tuple[bytes, int]:
    """The bytes served for `viewer` when `plays` are re-played from `start`,
    and how many applied. A faulty decision's note names the seat's hand, as
    a referee's note names its legal actions."""
    seq: list[tuple[Any, dict[str, Any] | None]] = []
    g = start
    for n, (seat, text, spent, faulty) in enumerate(plays):
        try:
            if g.to_act != seat:
                break
            nxt = g.apply(parse_action(text))
        except ValueError:
            break
        hand = " ".join(str(c) for c in g.hand(seat))
        seq.append((g, {"type": "action", "n": n, "deal": g.deal_number, "seat": seat,
                        "action": text, "time": spent, "fault": "illegal" if faulty else None,
                        "note": f"decision {n}: holds {hand}" if faulty else ""}))
        g = nxt
    applied = len(seq)
    seq.append((g, None))
    header = {"type": "header", "match_id": "m", "seed": start.seed, "rules": r.to_dict(),
              "bots": bots}
    deals = [{"type": "deal", **d.to_dict()} for d in g.deals]
    rep = Replay("m.jsonl", header, actions=[rec for _, rec in seq if rec], deals=deals)
    # A long match is served in parts (chunks.py), each built by the same
    # build_steps from a deal's start: a part from mid-way is checked too.
    part = dumps(build_steps(seq[applied // 2:], viewer, include_start=False))
    return dumps(player_data(rep, viewer, states=seq)) + b"\n" + part, applied


@pytest.mark.parametrize("case", sorted(CASES))
def test_hidden_cards_change_no_byte_the_browser_receives(case: str) -> None:
    """Game A is a fixed first deal; the cards seat v never sees in A's first
    deal (other hands, the talon, face-down gives) are permuted to make game
    B, and the other seats' actions are mapped by the same permutation (a
    card v never sees may be given face down). Every byte v is served must
    be the same, as long as both games play the same actions legally."""
    r = rules_of(case)
    n = r.players
    bots = [{"seat": s, "name": f"b{s}", "version": "1"} for s in range(n)]
    compared = changed_hidden = 0
    for trial in range(TRIALS):
        rng = random.Random(1000 + trial)
        base = new_game(r, seed=trial + 1)
        dealer = base.dealer
        hands = [[str(c) for c in base.hand(s)] for s in range(n)]
        viewer = (dealer + 1 + trial) % n
        held = {c for h in hands for c in h}
        talon = [str(c) for c in DECK if str(c) not in held]
        a = new_game(r, seed=trial + 1, dealer=dealer, hands=hands, talon=talon)
        plays = _first_deal(r, a, rng)
        # Up to a few tricks into the play: by the deal's end every card is seen.
        first_play = next((i for i, p in enumerate(plays) if p[1].startswith("play ")), len(plays))
        plays = plays[:first_play + n * (trial % 4)]
        # What v sees in A: every card of its observations, and every card played.
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

        b = new_game(r, seed=trial + 1, dealer=dealer, hands=[[swap(c) for c in h] for h in hands],
                     talon=[swap(c) for c in talon])
        plays_b = [(seat, swap(text), t, f) for seat, text, t, f in plays]
        # The prefix both games play alike as far as v can know: the same
        # observations of v before and after each action (a counterfactual
        # that, say, turns another seat's private redeal decline into a
        # public pass is not one v could not tell apart).
        assert a.observation(viewer).to_dict() == b.observation(viewer).to_dict()
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
        bytes_a, applied_a = _payload(r, a, plays[:same], viewer, bots)
        bytes_b, applied_b = _payload(r, b, plays_b[:same], viewer, bots)
        assert applied_a == applied_b == same
        assert bytes_a == bytes_b, f"{case} trial {trial}: seat {viewer}'s data differ"
        assert json.loads(bytes_a.split(b"\n")[0])["match"]["viewer"] == viewer
        # The all-cards data of the same moments differ: the comparison can fail.
        all_a, _ = _payload(r, a, plays[:same], None, bots)
        all_b, _ = _payload(r, b, plays_b[:same], None, bots)
        changed_hidden += all_a != all_b
        compared += same
    assert compared >= 80, f"{case}: only {compared} steps compared"
    assert changed_hidden >= TRIALS // 2
