"""Hidden information (docs/rules.md#hidden-information, issue 2).

For random states of every preset (and the variants that hide more: blind
bids, hidden talon), for every seat: re-deal the cards that seat cannot know
among the places it cannot see (other hands, unrevealed talon, face-down
given cards), replay the same actions on that counterfactual first deal and
check that `json.dumps(observation(seat).to_dict(), sort_keys=True)` is byte
for byte the same. Private offers (a redeal or lottery offer made because of
a hand) are invisible to the other seats, so the replay for a seat drops the
other seats' declined offers and declines any offer the counterfactual makes
to another seat. A counterfactual whose replay is illegal (or that moves
who acts) is inconsistent with what the seat saw and is skipped; the test
asserts enough counterfactuals were really compared. Separately, no
observation may show a card of another seat's hand or an unrevealed talon
card.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.game import IllegalActionError, new_game
from arena.game.actions import Discard, Give, Pick, Play
from arena.game.cards import DECK, Card
from arena.game.core import PASS

from .helpers import random_choice, rules

CASES: dict[str, tuple[str, dict[str, object]]] = {
    "standard": ("standard", {}),
    "estonian": ("estonian", {}),
    "lithuanian": ("lithuanian", {}),
    "czech": ("czech", {}),
    "finnish": ("finnish", {}),
    "swedish": ("swedish", {}),
    "czech-blind": ("czech", {"blind": "czech"}),
    "czech-golden-horse": ("czech", {"golden_horse": True}),
    "finnish-blind": ("finnish", {"blind": "finnish"}),
    "finnish-discard": ("finnish", {"exchange": "discard"}),
    "standard-visible": ("standard", {"exchange_visible": True}),
}
GAMES = 8
TRIES = 4

CARD_FIELDS = ("hand", "talon", "discarded")


def dump(g: Any, seat: int) -> str:
    return json.dumps(g.observation(seat).to_dict(), sort_keys=True)


def cards_in(o: dict[str, Any]) -> dict[str, set[str]]:
    """Every card text in an observation, by top-level field."""
    out: dict[str, set[str]] = {}

    def walk(field: str, v: Any) -> None:
        if isinstance(v, str):
            if len(v) == 2 and v[0] in "ATKQJ9" and v[1] in "CDHS":
                out.setdefault(field, set()).add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(field, x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(field, x)

    for k, v in o.items():
        walk(k, v)
    return out


def known_cards(o: dict[str, Any]) -> set[Card]:
    return {Card.parse(c) for cs in cards_in(o).values() for c in cs}


def map_action(a: Any, m: dict[Card, Card]) -> Any:
    if isinstance(a, Play):
        return Play(m.get(a.card, a.card), a.declare)
    if isinstance(a, Give):
        return Give(m.get(a.card, a.card), a.to)
    if isinstance(a, Discard):
        return Discard(tuple(m.get(c, c) for c in a.cards))
    if isinstance(a, Pick):
        return Pick(m.get(a.card, a.card))
    return a


def first_deal_intact(g: Any, hands: list[list[Card]], talon: list[Card]) -> bool:
    """No redeal yet: every visible hand is made of its own dealt cards, the
    talon and the declarer's cards (the exchange)."""
    if g.deals:
        return False
    for s in range(len(hands)):
        o = g.observation(s).to_dict()
        allowed = set(hands[s]) | set(talon)
        if o.get("declarer") is not None:
            allowed |= set(hands[o["declarer"]])
        if not {Card.parse(c) for c in o["hand"]} <= allowed:
            return False
    return True


def permutation(unknown: list[Card], rng: random.Random, by_suit: bool) -> dict[Card, Card]:
    if by_suit:
        m: dict[Card, Card] = {}
        for suit in "CDHS":
            group = [c for c in unknown if c.suit.value == suit]
            shuffled = group[:]
            rng.shuffle(shuffled)
            m.update(zip(group, shuffled, strict=True))
        return m
    shuffled = unknown[:]
    rng.shuffle(shuffled)
    return dict(zip(unknown, shuffled, strict=True))


def private_offer(g: Any) -> bool:
    """A redeal or lottery offer (made because of the hand) is pending."""
    return g.phase == "redeal" or (g.phase == "lottery" and any(
        str(a) == "lottery" for a in g.legal_actions()))


def counterfactual(r: Any, seed: int, dealer: int, hands: list[list[Card]], talon: list[Card],
                   actions: list[Any], actors: list[tuple[int, str]], m: dict[Card, Card],
                   viewer: int, private: list[bool]) -> Any | None:
    hands2 = [[m.get(c, c) for c in h] for h in hands]
    talon2 = [m.get(c, c) for c in talon]
    g = new_game(r, seed=seed, dealer=dealer, hands=[[str(c) for c in h] for h in hands2],
                 talon=[str(c) for c in talon2])
    for a, (actor, phase), declined in zip(actions, actors, private, strict=True):
        if declined and actor != viewer:
            continue  # another seat's declined offer: the viewer never saw it
        while (private_offer(g) and g.to_act != viewer
               and not (g.to_act == actor and g.phase == phase)):
            g = g.apply(PASS)  # an offer the original did not make: declined unseen
        # the same seat must act in the same (public) phase, else the replay
        # tells a different public story (e.g. a redeal offer, not a bid)
        if g.to_act != actor or g.observation(actor).phase != phase:
            return None
        try:
            g = g.apply(map_action(a, m))
        except IllegalActionError:
            return None
    if not first_deal_intact(g, hands2, talon2):
        return None
    return g


def check_no_leak(g: Any, seats: int, talon: list[Card], visible_exchange: bool) -> None:
    views = [g.observation(s).to_dict() for s in range(seats)]
    hands = [set(v["hand"]) for v in views]
    public_talon = set.intersection(*(set(v["talon"]) for v in views))
    for s, v in enumerate(views):
        found = cards_in(v)
        if v.get("declarer") is None:
            assert not v["talon"], f"seat {s} sees the talon {v['talon']} before it is taken"
        for c in v["talon"]:
            assert v.get("declarer") == s or c in public_talon, (
                f"seat {s} sees talon card {c} that is not public"
            )
        for t in range(seats):
            if t == s:
                continue
            for field, cs in found.items():
                leaked = cs & hands[t]
                if not leaked:
                    continue
                assert field in ("talon", "given"), (
                    f"seat {s}'s observation shows {sorted(leaked)} of seat {t}'s hand in {field!r}"
                )
                if field == "given":
                    for e in v["given"]:
                        if e["card"] in leaked:
                            assert visible_exchange or s in (e["from_seat"], e["to_seat"]), (
                                f"seat {s} sees card {e['card']} given face down from "
                                f"{e['from_seat']} to {e['to_seat']}"
                            )


@pytest.mark.parametrize("case", sorted(CASES))
def test_observation_depends_only_on_what_the_seat_may_know(case: str) -> None:
    preset, options = CASES[case]
    r = rules(preset, **options)
    visible = bool(getattr(r, "exchange_visible", False))
    compared = 0
    for game in range(GAMES):
        seed = 300 + game
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
        while not g.is_over and first_deal_intact(g, hands, talon):
            check_no_leak(g, 3, talon, visible)
            if actions and rng.random() < 0.35:
                compared += compare_all_seats(r, seed, dealer, hands, talon, g, actions, actors,
                                              private, rng)
            a = random_choice(g, rng)
            private.append(private_offer(g) and a == PASS)
            actors.append((g.to_act, g.observation(g.to_act).phase))
            actions.append(a)
            g = g.apply(a)
    assert compared >= GAMES * 3, f"only {compared} counterfactual observations compared"


def compare_all_seats(r: Any, seed: int, dealer: int, hands: list[list[Card]], talon: list[Card],
                      g: Any, actions: list[Any], actors: list[tuple[int, str]],
                      private: list[bool], rng: random.Random) -> int:
    compared = 0
    for seat in range(3):
        mine = dump(g, seat)
        unknown = sorted(set(DECK) - known_cards(g.observation(seat).to_dict()), key=lambda c: c.index)
        if len(unknown) < 2:
            continue
        for attempt in range(TRIES):
            m = permutation(unknown, rng, by_suit=attempt % 2 == 0)
            if all(k is v for k, v in m.items()):
                continue
            other = counterfactual(r, seed, dealer, hands, talon, actions, actors, m, seat, private)
            if other is None:
                continue
            theirs = dump(other, seat)
            assert theirs == mine, (
                f"seat {seat}'s observation changed when only unknown cards moved "
                f"({len(actions)} actions in; moved {[(str(k), str(v)) for k, v in m.items() if k is not v]})\n"
                f"original:       {mine}\ncounterfactual: {theirs}"
            )
            compared += 1
    return compared


# The other table sizes (docs/rules.md#table-sizes): two players with a stock (drawn
# after each trick) or two banks, four with a sitting dealer and the
# lottery. The same comparison, on the first deal as dealt (a redeal deals
# from the seed, so a counterfactual that redeals where the game did not,
# or the other way round, tells another public story and is skipped).
OTHER_SIZES: dict[str, tuple[str, dict[str, object]]] = {
    "2-stock": ("finnish", {"players": 2}),
    "2-banks": ("finnish", {"players": 2, "two_player_form": "banks"}),
    "4-finnish": ("finnish", {"players": 4}),
    "4-swedish": ("swedish", {"players": 4}),
}


def first_deal(players: int, form: str, rng: random.Random, dealer: int) -> tuple[list[list[Card]], list[Card]]:
    """Hands and the rest (talon, stock or both banks) of a shuffled deck."""
    deck = list(DECK)
    rng.shuffle(deck)
    if players == 2:
        size = 6 if form == "stock" else 8
        return [deck[:size], deck[size:2 * size]], deck[2 * size:]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, seat in enumerate(s for s in range(players) if s != dealer):
        hands[seat] = deck[i * 7:(i + 1) * 7]
    return hands, deck[21:]


def replayed(r: Any, seed: int, dealer: int, hands: list[list[Card]], rest: list[Card],
             history: list[tuple[Any, tuple[int, str], bool]], m: dict[Card, Card],
             viewer: int) -> Any | None:
    g = new_game(r, seed=seed, dealer=dealer, hands=[[str(m.get(c, c)) for c in h] for h in hands],
                 talon=[str(m.get(c, c)) for c in rest])
    for a, (actor, phase), declined in history:
        if declined and actor != viewer:
            continue
        while private_offer(g) and g.to_act != viewer and not (g.to_act == actor and g.phase == phase):
            g = g.apply(PASS)
        if g.to_act != actor or g.observation(actor).phase != phase:
            return None
        try:
            g = g.apply(map_action(a, m))
        except IllegalActionError:
            return None
    return None if g.deals else g


@pytest.mark.parametrize("case", sorted(OTHER_SIZES))
def test_other_table_sizes_show_a_seat_only_what_it_may_know(case: str) -> None:
    preset, options = OTHER_SIZES[case]
    r = rules(preset, **options)
    form = str(getattr(r, "two_player_form", ""))
    compared = 0
    for game in range(12):
        seed = 500 + game
        rng = random.Random(seed)
        dealer = rng.randrange(r.players)
        hands, rest = first_deal(r.players, form, rng, dealer)
        g = new_game(r, seed=seed, dealer=dealer, hands=[[str(c) for c in h] for h in hands],
                     talon=[str(c) for c in rest])
        history: list[tuple[Any, tuple[int, str], bool]] = []
        while not g.is_over and not g.deals:
            for seat in range(r.players) if history and rng.random() < 0.5 else ():
                mine = dump(g, seat)
                own = g.observation(seat).to_dict()["hand"]
                unknown = sorted(set(DECK) - known_cards(g.observation(seat).to_dict()),
                                 key=lambda c: c.index)
                for attempt in range(TRIES if len(unknown) >= 2 else 0):
                    m = permutation(unknown, rng, by_suit=attempt % 2 == 0)
                    other = replayed(r, seed, dealer, hands, rest, history, m, seat)
                    if other is None or other.observation(seat).to_dict()["hand"] != own:
                        continue  # inconsistent with what the seat saw, or redealt
                    assert dump(other, seat) == mine, (
                        f"{case}: seat {seat}'s observation changed when only unknown cards "
                        f"moved ({len(history)} actions in)")
                    compared += 1
            a = random_choice(g, rng)
            history.append((a, (g.to_act, g.observation(g.to_act).phase), private_offer(g) and a == PASS))
            g = g.apply(a)
    assert compared >= 200, f"only {compared} counterfactual observations compared"
