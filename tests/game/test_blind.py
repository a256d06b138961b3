"""Blind bidding and the golden horse (docs/rules.md#option-details): Czech vtěmno (opener
with a positive total, 120 unseen, +-240, opponents' card points double,
talon and given cards unseen, overbid with 125+), Finnish sokea (any
bidder, double gains and losses, talon face down), golden horse (three
compulsory blind deals, reset if nobody makes 120)."""

from __future__ import annotations

import random
from typing import Any

from . import deals
from .helpers import deal, obs, play, rules, texts
from .scoring_examples import TRICKS, TRICKS_NO_MARRIAGE

HANDS, TALON = deals.EXAMPLE_001


def czech_blind(totals: list[int], **options: object) -> Any:
    return deal("czech", HANDS, TALON, dealer=2, totals=totals, blind="czech", **options)


def test_czech_blind_is_offered_to_the_opener_before_it_sees_its_cards() -> None:
    g = czech_blind([50, 0, 0])
    assert g.to_act == 0 and obs(g, 0)["phase"] == "blind"
    assert set(texts(g)) == {"blind", "pass"}
    assert obs(g, 0)["hand"] == []  # not looked yet
    g = play(g, "0: pass")
    assert len(obs(g, 0)["hand"]) == 7


def test_czech_blind_needs_a_positive_total() -> None:
    g = czech_blind([0, 50, 50])
    assert obs(g, 0)["phase"] != "blind" and g.to_act == 1


def test_czech_blind_made_wins_240_opponents_card_points_double() -> None:
    g = play(czech_blind([50, 0, 0]), "0: blind", "1: pass", "2: pass")
    assert obs(g, 1)["talon"] == []  # taken unseen by the others
    g = play(g, *deals.EXAMPLE_001_GIVES)
    given = obs(g, 2)["given"]
    assert [e["card"] for e in given if e["to_seat"] == 1] == [""]  # passed face down
    g = play(g, *[t for t in texts(g) if t.startswith("contract")][:1])
    g = play(g, *TRICKS)
    d = g.deals[0]
    assert d.made and d.changes[0] == 240
    assert list(d.changes[1:]) == [50, 35]  # 24*2 = 48 -> 50, 18*2 = 36 -> 35


def test_czech_blind_failed_loses_240() -> None:
    g = play(czech_blind([50, 0, 0]), "0: blind", "1: pass", "2: pass", *deals.EXAMPLE_001_GIVES)
    g = play(g, *[t for t in texts(g) if t.startswith("contract")][:1])
    g = play(g, *TRICKS_NO_MARRIAGE)
    d = g.deals[0]
    assert not d.made and d.changes[0] == -240
    assert list(d.changes[1:]) == [55, 115]  # 27*2 -> 55, 57*2 -> 115


def test_czech_blind_overbid_with_125_lets_the_blind_bidder_look() -> None:
    hands, talon = deals.MARRIAGES  # seat 2 holds spades: cap 160
    g = deal("czech", hands, talon, dealer=2, totals=[50, 0, 0], blind="czech")
    g = play(g, "0: blind")
    assert texts(g) == ["pass"]  # seat 1 has no marriage: cannot reach 125
    g = play(g, "1: pass")
    assert min(int(t.split()[1]) for t in texts(g) if t.startswith("bid")) == 125
    g = play(g, "2: bid 125")
    assert len(obs(g, 0)["hand"]) == 7 and g.to_act == 0


def test_finnish_blind_any_bidder_double_gain() -> None:
    g = deal("finnish", HANDS, TALON, dealer=2, blind="finnish")
    assert obs(g, 1)["phase"] == "blind" and "blind 120" in texts(g)
    g = play(g, "1: pass", "1: bid 110", "2: pass", "2: pass", "0: blind 120", "1: pass")
    assert obs(g, 1)["talon"] == []
    g = play(g, *deals.EXAMPLE_001_GIVES)
    g = play(g, *[t for t in texts(g) if t.startswith("contract")][:1], *TRICKS)
    d = g.deals[0]
    assert d.made and d.changes[0] == 240


def test_finnish_blind_declarer_refusing_gives_each_opponent_120() -> None:
    g = deal("finnish", HANDS, TALON, dealer=2, blind="finnish")
    g = play(g, "1: pass", "1: bid 110", "2: pass", "2: pass", "0: blind 120", "1: pass",
             *deals.EXAMPLE_001_GIVES)
    assert "concede" in texts(g)
    d = play(g, "0: concede").deals[0]
    assert list(d.changes[1:]) == [120, 120]


def test_golden_horse_three_compulsory_blind_deals() -> None:
    g = deal("czech", HANDS, TALON, dealer=2, golden_horse=True)
    assert obs(g, 1)["forced_seat"] == 0 and obs(g, 1)["declarer"] == 0
    assert obs(g, 1)["talon"] == []  # the talon is taken closed
    g = play(g, *deals.EXAMPLE_001_GIVES)
    g = play(g, *[t for t in texts(g) if t.startswith("contract")][:1], *TRICKS)
    d = g.deals[0]
    assert d.made and list(d.changes) == [240, 50, 35]
    assert obs(g, 1)["forced_seat"] == 1  # the next seat in turn


def test_golden_horse_with_finnish_blind_opponents_see_their_cards() -> None:
    # A horse deal has no auction, so no turn at which a Finnish-blind seat
    # would look: every seat holds its cards in view all deal (docs/rules.md#hidden-information).
    g = deal("finnish", HANDS, TALON, dealer=2, golden_horse=True, blind="finnish")
    assert obs(g, 0)["forced_seat"] == 0 and g.phase == "exchange"
    steps = 0
    while len(g.deals) < 3:
        for s in range(3):
            o = obs(g, s)
            assert o["hand"] == [str(c) for c in g.hand(s)], (g.phase, s)
            assert all(st["looked"] for st in o["seat_states"]), (g.phase, s)
        g = g.apply(g.legal_actions()[0])
        steps += 1
    assert steps > 3 * 8


def test_golden_horse_concede_costs_240_and_gives_120_each() -> None:
    g = deal("czech", HANDS, TALON, dealer=2, golden_horse=True)
    g = play(g, *deals.EXAMPLE_001_GIVES)
    assert "concede" in texts(g)
    assert list(play(g, "0: concede").deals[0].changes) == [-240, 120, 120]


def test_golden_horse_resets_totals_when_nobody_makes_120() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        from arena.game import new_game
        g = new_game(rules("czech", golden_horse=True), seed=seed)
        forced = []
        while len(g.deals) < 3:
            if not g.deals or len(forced) < len(g.deals) + 1:
                forced.append(obs(g, 0)["forced_seat"])
            legal = g.legal_actions()
            g = g.apply(next((a for a in legal if type(a).__name__ != "Concede"), legal[0])
                        if rng.random() < 0.9 else rng.choice(legal))
        if not any(d.made for d in g.deals[:3]):
            assert list(g.deals[2].totals) == [0, 0, 0] and list(g.totals) == [0, 0, 0]
            assert "golden_horse_reset" in g.deals[2].notes
            first = g.deals[0].dealer
            assert [d.declarer for d in g.deals[:3]] == [(first + k + 1) % 3 for k in range(3)]
            return
    raise AssertionError("no seed with three failed golden-horse deals")


def test_golden_horse_reset_leaves_nobody_on_the_barrel() -> None:
    # Only from non-zero starting totals (a resumed game): seat 0 concedes the
    # first horse deal (1000 -> 760), gains 120 when seat 1 concedes the second
    # (sits at 880, sud), and the third ends in a reset to 0. The normal game
    # then starts afresh: a seat at 0 does not sit on the barrel.
    from arena.game import new_game, parse_action

    g = new_game(rules("czech", golden_horse=True), seed=5, dealer=2, totals=[1000, 0, 0])
    for deal_no in range(3):
        while g.phase == "exchange" and "concede" not in texts(g):
            g = g.apply(g.legal_actions()[0])
        g = g.apply(parse_action("concede"))
        if deal_no == 1:
            assert g.totals[0] == 880 and obs(g, 0)["seat_states"][0]["on_barrel"]
    assert "golden_horse_reset" in g.deals[2].notes and list(g.totals) == [0, 0, 0]
    assert not any(st["on_barrel"] or st["barrel_deals"] for st in obs(g, 1)["seat_states"])


def test_czech_blind_not_offered_while_an_opponent_sits_on_the_barrel() -> None:
    g = play(czech_blind([800, 0, 50]), "0: pass", "1: bid 110", "2: pass", "0: bid 120", "1: pass",
             *deals.EXAMPLE_001_GIVES, "0: contract 120", *TRICKS)
    assert g.totals[0] == 880  # seat 0 sits on the barrel (sud)
    o = obs(g, 1)
    assert o["dealer"] == 0 and g.totals[1] > 0  # seat 1 opens with a positive total ...
    assert o["phase"] != "blind" and "blind" not in texts(g)  # ... but may not bid blind


def test_czech_blind_offered_to_a_positive_opener_without_a_sitter() -> None:
    g = play(czech_blind([300, 0, 50]), "0: pass", "1: bid 110", "2: pass", "0: bid 120", "1: pass",
             *deals.EXAMPLE_001_GIVES, "0: contract 120", *TRICKS)
    assert g.to_act == 1 and obs(g, 1)["phase"] == "blind"


def test_finnish_blind_failure_loses_double() -> None:
    g = deal("finnish", HANDS, TALON, dealer=2, blind="finnish")
    g = play(g, "1: pass", "1: bid 110", "2: pass", "2: pass", "0: blind 120", "1: pass",
             *deals.EXAMPLE_001_GIVES)
    g = play(g, *[t for t in texts(g) if t.startswith("contract")][:1], *TRICKS_NO_MARRIAGE)
    d = g.deals[0]
    assert not d.made and list(d.changes) == [-240, 30, 60]  # opponents score as usual


def test_golden_horse_declarer_sees_the_cards_it_gives() -> None:
    # Reported on seed 23: the blind seat's view had `hand: []`, `looked:
    # False` while its legal actions named its 10 cards. Rule reading
    # (docs/rules.md): it sees its hand once it takes the talon.
    from arena.game import new_game

    g = new_game(rules("czech", golden_horse=True), seed=23)
    exchanges = 0
    while not g.is_over and len(g.deals) < 3:
        seat = g.to_act
        o = g.observation(seat).to_dict()
        named = {str(c) for a in g.legal_actions() for c in _cards_of(a)}
        assert named <= set(o["hand"]), (g.phase, seat, sorted(named - set(o["hand"])))
        if g.phase == "exchange":
            exchanges += 1
            assert len(o["hand"]) == 10 - len(o["given"]) and o["seat_states"][seat]["looked"]
            assert o["seat_states"][seat]["blind"]
        g = g.apply(g.legal_actions()[0])
    assert exchanges >= 3 * 2  # two gives in each of the three horse deals


def _cards_of(action: object) -> tuple[object, ...]:
    from arena.game.actions import Discard, Give, Play

    if isinstance(action, (Give, Play)):
        return (action.card,)
    if isinstance(action, Discard):
        return action.cards
    return ()
