"""The public view (`GameState.public_observation()`, `observe(c, None)`):
what anyone watching the table may know (docs/people.md#watching a game).

For random states of every preset and the variants that hide more (blind
bids, hidden talon, face-down lottery guesses at four), re-deal the cards
the public view does not show among the places nobody watching can see
(every hand, the unrevealed talon, face-down given cards, the discard),
re-play the same public story on that first deal and check that the public
view's JSON is byte for byte the same; the same permutations do change some
seat's own view (so the comparison is of cards that were really moved).
Every declined private offer is dropped from the re-play: a watcher sees
none of them. Separately, the public view never shows a card of a hand but
a talon turned face up or a card given face up.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.game import new_game
from arena.game.cards import DECK, Card

from .helpers import random_choice, rules
from .test_hidden_information import (
    CASES,
    OTHER_SIZES,
    cards_in,
    counterfactual,
    first_deal,
    known_cards,
    permutation,
    private_offer,
    replayed,
)

PUBLIC_CASES = {**CASES, "standard-hidden-100": ("standard", {"hidden_talon_on_100": True})}
GAMES = 8
TRIES = 4


def public(g: Any) -> str:
    return json.dumps(g.public_observation().to_dict(), sort_keys=True)


def seats(g: Any) -> list[str]:
    return [json.dumps(g.observation(s).to_dict(), sort_keys=True) for s in range(g.players)]


def check_no_leak(g: Any) -> None:
    view = g.public_observation().to_dict()
    assert view["seat"] is None and view["hand"] == [] and view["discarded"] == []
    in_hands = {str(c) for s in range(g.players) for c in g.hand(s)}
    for field, cs in cards_in(view).items():
        leaked = cs & in_hands
        assert not leaked or field in ("talon", "given"), (
            f"the public view shows {sorted(leaked)} of a hand in {field!r}")
    views = [g.observation(s).to_dict() for s in range(g.players)]
    # A talon or a given card in the public view is one every seat sees.
    for v in views:
        assert not view["talon"] or v["talon"] == view["talon"], (
            f"the public view shows the talon {view['talon']} that seat {v['seat']} does not see")
        for mine, theirs in zip(view["given"], v["given"], strict=True):
            assert not mine["card"] or theirs["card"] == mine["card"], (
                f"the public view shows the given card {mine['card']} that seat {v['seat']} does not see")
    if view["lottery"] is not None and not view["lottery"]["picked"]:
        assert view["lottery"]["guesses"] == [], "a lottery guess shown before the pick"


def compare(r: Any, seed: int, dealer: int, hands: list[list[Card]], talon: list[Card], g: Any,
            actions: list[Any], actors: list[tuple[int, str]], private: list[bool],
            rng: random.Random) -> tuple[int, int]:
    """(counterfactuals compared, of those where some seat's own view changed)."""
    mine, own = public(g), seats(g)
    unknown = sorted(set(DECK) - known_cards(g.public_observation().to_dict()), key=lambda c: c.index)
    compared = changed = 0
    for attempt in range(TRIES if len(unknown) >= 2 else 0):
        m = permutation(unknown, rng, by_suit=attempt % 2 == 0)
        other = counterfactual(r, seed, dealer, hands, talon, actions, actors, m, None, private)  # type: ignore[arg-type]
        if other is None:
            continue
        assert public(other) == mine, (
            f"the public view changed when only cards nobody watching may know moved "
            f"({len(actions)} actions in)\noriginal:       {mine}\ncounterfactual: {public(other)}")
        compared += 1
        changed += seats(other) != own
    return compared, changed


@pytest.mark.parametrize("case", sorted(PUBLIC_CASES))
def test_public_view_depends_only_on_what_anyone_may_know(case: str) -> None:
    preset, options = PUBLIC_CASES[case]
    r = rules(preset, **options)
    compared = changed = 0
    for game in range(GAMES):
        seed = 700 + game
        rng = random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[0:7], deck[7:14], deck[14:21]]
        talon = deck[21:24]
        dealer = rng.randrange(3)
        g = new_game(r, seed=seed, dealer=dealer, hands=[[str(c) for c in h] for h in hands],
                     talon=[str(c) for c in talon])
        actions: list[Any] = []
        actors: list[tuple[int, str]] = []
        private: list[bool] = []
        while not g.is_over and not g.deals:
            check_no_leak(g)
            if actions and rng.random() < 0.35:
                done, moved = compare(r, seed, dealer, hands, talon, g, actions, actors, private, rng)
                compared += done
                changed += moved
            a = random_choice(g, rng)
            private.append(private_offer(g) and str(a) == "pass")
            actors.append((g.to_act, g.observation(g.to_act).phase))
            actions.append(a)
            g = g.apply(a)
    assert compared >= GAMES * 3, f"only {compared} counterfactual public views compared"
    assert changed >= compared // 2, f"only {changed} of {compared} counterfactuals moved a seat's cards"


@pytest.mark.parametrize("case", sorted(OTHER_SIZES))
def test_public_view_at_other_table_sizes(case: str) -> None:
    preset, options = OTHER_SIZES[case]
    r = rules(preset, **options)
    form = str(getattr(r, "two_player_form", ""))
    compared = 0
    for game in range(12):
        seed = 900 + game
        rng = random.Random(seed)
        dealer = rng.randrange(r.players)
        hands, rest = first_deal(r.players, form, rng, dealer)
        g = new_game(r, seed=seed, dealer=dealer, hands=[[str(c) for c in h] for h in hands],
                     talon=[str(c) for c in rest])
        history: list[tuple[Any, tuple[int, str], bool]] = []
        while not g.is_over and not g.deals:
            check_no_leak(g)
            if history and rng.random() < 0.5:
                mine = public(g)
                unknown = sorted(set(DECK) - known_cards(g.public_observation().to_dict()),
                                 key=lambda c: c.index)
                for attempt in range(TRIES if len(unknown) >= 2 else 0):
                    m = permutation(unknown, rng, by_suit=attempt % 2 == 0)
                    other = replayed(r, seed, dealer, hands, rest, history, m, None)  # type: ignore[arg-type]
                    if other is None:
                        continue
                    assert public(other) == mine, (
                        f"{case}: the public view changed when only unknown cards moved "
                        f"({len(history)} actions in)")
                    compared += 1
            a = random_choice(g, rng)
            history.append((a, (g.to_act, g.observation(g.to_act).phase), private_offer(g) and str(a) == "pass"))
            g = g.apply(a)
    assert compared >= 100, f"only {compared} counterfactual public views compared"


def test_a_seat_view_is_the_public_view_and_that_seat_s_own_cards() -> None:
    """Where no private offer waits, a seat's view differs from the public
    one only in its own fields: its seat, hand, discard, the talon it saw and
    the cards given to or by it."""
    rng = random.Random(5)
    g = new_game(rules("standard"), seed=5)
    own = {"seat", "hand", "discarded", "talon", "given", "lottery"}
    while not g.is_over and not g.deals:
        if not private_offer(g):
            pub = g.public_observation().to_dict()
            for s in range(g.players):
                view = g.observation(s).to_dict()
                assert {k for k in view if view[k] != pub[k]} <= own
        g = g.apply(random_choice(g, rng))


def test_public_view_is_cached_and_refuses_nothing() -> None:
    g = new_game(rules("finnish", players=4), seed=11)
    assert g.public_observation() is g.public_observation()
    with pytest.raises(ValueError, match="seat 4 is not a seat"):
        g.observation(4)
