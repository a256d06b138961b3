"""The greedy bot's decisions in hand-made positions (no engine, no process)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest


@pytest.fixture(scope="module")
def policy(load_script: Callable[[str, str], ModuleType]) -> ModuleType:
    return load_script("sample_bots/greedy/greedy_policy.py", "greedy_policy_under_test")


def obs(**fields: Any) -> dict[str, Any]:
    """A 3-player observation with sensible defaults, keyed as the SDK's
    `obs.data` (the proto's field names); override what matters."""
    base: dict[str, Any] = {
        "seat": 0, "players": 3, "phase": "play", "to_act": 0, "deal_number": 1, "dealer": 2,
        "active_seats": [0, 1, 2], "hand": [], "hand_sizes": [8, 8, 8], "totals": [0, 0, 0],
        "auction": [], "bid": 100, "bidder": 0, "declarer": 0, "contract": 100,
        "talon": [], "talon_count": 0, "given": [], "discarded": [], "trump": "",
        "marriages": [], "trick": [], "leader": 0, "tricks": [], "tricks_won": [0, 0, 0],
        "points_won": [0, 0, 0], "seat_states": [],
    }
    base.update(fields)
    return base


def trick(*plays: tuple[int, str]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": c} for s, c in plays]


def test_estimate_ranks_hands_by_strength(policy: ModuleType) -> None:
    weak = ["9C", "JC", "9D", "JD", "9H", "QS", "JS"]
    aces = ["AC", "TC", "AD", "AH", "9H", "JS", "9S"]
    marriage = ["AH", "KH", "QH", "AC", "TC", "9D", "JS"]
    assert policy.estimate(weak, with_talon=True) < 100
    assert policy.estimate(aces, with_talon=True) > policy.estimate(weak, with_talon=True)
    # The hearts marriage with an ace to win the lead is worth its 100 (docs/rules.md#core).
    assert policy.estimate(marriage, with_talon=True) >= 150


def test_bids_up_to_its_estimate_and_passes_weak_hands(policy: ModuleType) -> None:
    legal = ["bid 110", "bid 120", "bid 130", "bid 140", "bid 150", "bid 160", "bid 170",
             "bid 180", "bid 190", "bid 200", "bid 210", "bid 220", "pass"]
    weak = obs(phase="bidding", hand=["9C", "JC", "9D", "JD", "9H", "QS", "JS"])
    assert policy.choose(weak, legal) == "pass"
    strong = obs(phase="bidding", hand=["AH", "KH", "QH", "AC", "TC", "9D", "JS"])
    choice = policy.choose(strong, legal)
    assert choice.startswith("bid ")
    # A bid is one raise (the lowest affordable), never a jump to the estimate.
    assert choice == "bid 110"


def test_compulsory_opening_is_made(policy: ModuleType) -> None:
    assert policy.choose(obs(phase="bidding", hand=["9C"] * 7), ["bid 100", "bid 110"]) == "bid 100"


def test_exchange_gives_nines_and_jacks_never_its_marriage(policy: ModuleType) -> None:
    hand = ["AC", "KH", "QH", "9D", "JS", "AS", "TS", "KD", "9C", "JD"]
    legal = [f"give {c} 1" for c in hand]
    first = policy.choose(obs(phase="exchange", hand=hand), legal)
    assert first.split()[1] in ("9D", "9C")
    # Whatever it gives, over the whole ordering: marriage cards and aces come last.
    order = sorted(hand, key=lambda c: policy.keep_value(c, hand))
    assert set(order[-4:]) == {"KH", "QH", "AC", "AS"}


def test_declares_the_richest_marriage_when_leading(policy: ModuleType) -> None:
    hand = ["KH", "QH", "KS", "QS", "9C", "AD"]
    legal = ["play 9C", "play AD", "play KH", "play KH marriage", "play QH", "play QH marriage",
             "play KS", "play KS marriage", "play QS", "play QS marriage"]
    done = [{"leader": 0, "cards": trick((0, "AC"), (1, "9D"), (2, "JD")), "winner": 0}]
    choice = policy.choose(obs(hand=hand, tricks=done), legal)
    assert choice.endswith(" marriage") and choice.split()[1][1] == "H"


def test_leads_a_sure_winner_and_not_a_marriage_card(policy: ModuleType) -> None:
    hand = ["AD", "KH", "QH", "9C"]
    legal = ["play AD", "play KH", "play QH", "play 9C"]
    assert policy.choose(obs(hand=hand), legal) == "play AD"


def test_wins_with_the_cheapest_sure_card(policy: ModuleType) -> None:
    # This seat (2) is the declarer and plays last, over the KC and QC.
    hand = ["AC", "TC", "9D"]
    view = obs(seat=2, to_act=2, declarer=2, hand=hand, trick=trick((0, "KC"), (1, "QC")))
    assert policy.choose(view, ["play AC", "play TC"]) == "play TC"


def test_smears_points_on_the_partners_sure_trick(policy: ModuleType) -> None:
    # Declarer is seat 1. Partner seat 0 led the AC, declarer followed; this
    # seat (2) plays last and cannot follow clubs: it loads the trick.
    hand = ["TD", "9H", "JS", "KS"]
    view = obs(seat=2, to_act=2, declarer=1, hand=hand, trick=trick((0, "AC"), (1, "9C")))
    assert policy.choose(view, [f"play {c}" for c in hand]) == "play TD"


def test_throws_its_cheapest_card_when_it_cannot_win(policy: ModuleType) -> None:
    # Declarer seat 0 leads the AC; this seat (1) follows with clubs it cannot win with.
    hand = ["TC", "JC", "AH"]
    view = obs(seat=1, to_act=1, declarer=0, hand=hand, trick=trick((0, "AC")))
    assert policy.choose(view, ["play TC", "play JC"]) == "play JC"


def test_does_not_smear_when_the_declarer_still_can_overtake(policy: ModuleType) -> None:
    # Partner (seat 2) led the KD; declarer (seat 1) plays after this seat and
    # the AD and TD are still out: no gift of the ten.
    hand = ["TS", "9S", "JC"]
    view = obs(seat=0, to_act=0, declarer=1, leader=2, hand=hand, trick=trick((2, "KD")))
    assert policy.choose(view, ["play TS", "play 9S", "play JC"]) == "play 9S"


def test_contract_raises_only_with_a_margin(policy: ModuleType) -> None:
    hand = ["AH", "TH", "KH", "QH", "AC", "TC", "AD", "AS"]
    legal = [f"contract {a}" for a in range(110, 230, 10)]
    chosen = int(policy.choose(obs(phase="contract", hand=hand, bid=110), legal).split()[1])
    assert 110 < chosen <= policy.estimate(hand, with_talon=False) - policy._RAISE_MARGIN


def test_always_answers_with_a_legal_text(policy: ModuleType) -> None:
    legal = ["redeal", "pass"]
    assert policy.choose(obs(phase="redeal", hand=["9C", "9D", "9H", "9S", "JC", "JD", "JH"]),
                         legal) == "redeal"
    assert policy.choose(obs(phase="lottery"), ["lottery", "pass"]) == "lottery"
    guess = obs(phase="lottery", lottery={"organiser": 2, "guesses": [{"seat": 0, "color": "red"}]})
    assert policy.choose(guess, ["guess red", "guess black"]) == "guess black"
    with pytest.raises(ValueError):
        policy.choose(obs(), [])
