"""Bidding (docs/rules.md#core Bidding, Bid cap; #options bid_step): the compulsory
opening 100, steps of 10 or 5, jumps, final passes, the cap of 120 plus the
marriages held, and the contract after the exchange."""

from __future__ import annotations

import pytest

from arena.game import IllegalActionError, parse_action

from . import deals
from .helpers import bids, contracts, deal, obs, play, texts

HANDS, TALON = deals.MARRIAGES


def start(preset: str = "standard", **options: object):  # type: ignore[no-untyped-def]
    return deal(preset, HANDS, TALON, dealer=2, **options)


@pytest.mark.parametrize("preset", ["standard", "lithuanian", "czech", "finnish", "swedish"])
def test_opener_left_of_dealer_holds_a_compulsory_100(preset: str) -> None:
    g = start(preset)
    o = obs(g, 1)
    assert o["auction"] == [{"seat": 0, "action": "bid 100"}]
    assert (o["bid"], o["bidder"]) == (100, 0)
    assert g.to_act == 1


@pytest.mark.parametrize("preset,step", [("standard", 10), ("lithuanian", 10), ("finnish", 10),
                                         ("czech", 5), ("swedish", 5)])
def test_bid_step_and_cap_without_marriage(preset: str, step: int) -> None:
    # seat 1 holds no marriage: cap 120 (docs/rules.md#core)
    g = start(preset)
    assert bids(g) == list(range(100 + step, 121, step))
    assert "pass" in texts(g)
    with pytest.raises(IllegalActionError):
        g.apply(parse_action("bid 130"))
    with pytest.raises(IllegalActionError):
        g.apply(parse_action(f"bid {100 + step + (1 if step == 5 else 5)}"))


def test_cap_counts_every_marriage_held() -> None:
    g = play(start(), "1: bid 110")
    assert bids(g) == list(range(120, 161, 10))  # seat 2: spades 40 -> 160
    g = play(g, "2: pass")
    assert bids(g) == list(range(120, 281, 10))  # seat 0: hearts 100 + clubs 60 -> 280


def test_jumps_are_allowed() -> None:
    g = play(start(), "1: bid 120", "2: bid 160")
    assert obs(g, 0)["bid"] == 160 and g.to_act == 0
    assert bids(g)[0] == 170


def test_a_pass_is_final_for_the_deal() -> None:
    g = play(start(), "1: pass", "2: bid 110", "0: bid 120")
    assert g.to_act == 2  # seat 1 is skipped
    g = play(g, "2: bid 130", "0: bid 140", "2: pass")
    assert obs(g, 0)["declarer"] == 0 and obs(g, 0)["bid"] == 140


def test_everyone_passing_over_100_makes_the_opener_declarer_at_100() -> None:
    g = play(start(), "1: pass", "2: pass")
    o = obs(g, 0)
    assert (o["declarer"], o["bid"]) == (0, 100)
    assert g.to_act == 0


def test_last_bidder_standing_is_declarer() -> None:
    g = play(start(), "1: bid 110", "2: pass", "0: pass")
    assert obs(g, 1)["declarer"] == 1 and obs(g, 1)["bid"] == 110
    assert g.to_act == 1


def test_contract_may_raise_within_the_cap_of_the_eight_cards_kept() -> None:
    g = play(start(), "1: pass", "2: pass", *deals.MARRIAGES_GIVES)
    assert contracts(g) == list(range(100, 281, 10))


def test_giving_away_a_marriage_card_lowers_the_cap() -> None:
    g = play(start(), "1: pass", "2: pass", "0: give QH 1", "0: give QC 2")
    assert contracts(g) == [100, 110, 120]


def test_declarer_can_always_play_its_bid() -> None:
    g = play(start(), "1: pass", "2: bid 110", "0: bid 200", "2: pass")
    g = play(g, "0: give QH 1", "0: give JD 2")  # hearts gone: cap 180 < 200
    assert contracts(g) == [200]


def test_czech_contract_steps_by_5() -> None:
    g = play(start("czech"), "1: pass", "2: pass", *deals.MARRIAGES_GIVES)
    assert contracts(g)[:3] == [100, 105, 110] and contracts(g)[-1] == 280
