"""Shuffling, dealing and the redeal conditions (docs/rules.md#core Deal, #option-details, #table-sizes)."""

from __future__ import annotations

from arena.game.cards import DECK, Card, Rank
from arena.game.core import Core, hand_marriage_value, sort_hand
from arena.game.rng import derive


def active_seats(n: int, dealer: int) -> tuple[int, ...]:
    """Seats playing a deal, clockwise from the dealer's left (docs/rules.md#core, docs/rules.md#table-sizes:
    with 4 players the dealer sits out; with 2 both play)."""
    k = 2 if n == 2 else 3
    return tuple((dealer + 1 + i) % n for i in range(k))


def shuffled_deck(seed: int, deal_number: int, redeals: int) -> list[Card]:
    """The deck of one deal (and redeal) in dealing order: a one-way function
    of the seed (arena.game.rng), so no deal tells anything of another."""
    return derive(seed, "deal", deal_number, redeals).shuffled(DECK)


def deal_cards(c: Core) -> None:
    """Fill hands, talon, stock and banks for the current deal."""
    n = c.n
    hands: list[tuple[Card, ...]] = [() for _ in range(n)]
    c.stock = ()
    c.banks = ()
    if c.fixed is not None and c.deal_number == c.fixed_deal and c.redeals == 0:
        fixed_hands, talon = c.fixed
        hands = [sort_hand(h) for h in fixed_hands]
        rest = talon
    else:
        deck = shuffled_deck(c.seed, c.deal_number, c.redeals)
        size = hand_size(c)
        for i, seat in enumerate(c.active):
            hands[seat] = sort_hand(deck[i * size:(i + 1) * size])
        rest = tuple(deck[len(c.active) * size:])
    if n == 2 and c.rules.two_player_form == "stock":
        c.talon = ()
        c.stock = tuple(rest)
    elif n == 2:
        c.talon = ()
        c.banks = (tuple(rest[:4]), tuple(rest[4:8]))
    else:
        c.talon = tuple(rest)
    c.dealt_talon = c.talon
    c.hands = tuple(hands)


def hand_size(c: Core) -> int:
    if c.n == 2:
        return 6 if c.rules.two_player_form == "stock" else 8
    return 7


def expected_sizes(rules_players: int, form: str) -> tuple[int, int]:
    """(cards per hand, cards not in hands) of a fresh deal."""
    if rules_players == 2:
        return (6, 12) if form == "stock" else (8, 8)
    return (7, 3)


# ---------------------------------------------------------------- redeal conditions

def _count(cards: tuple[Card, ...], rank: Rank) -> int:
    return sum(1 for x in cards if x.rank is rank)


def _points(cards: tuple[Card, ...]) -> int:
    return sum(x.points for x in cards)


def hand_condition(hand: tuple[Card, ...], conditions: tuple[str, ...]) -> bool:
    """True if a hand lets its holder ask for a redeal (docs/rules.md#option-details)."""
    for cond in conditions:
        if cond == "four_nines" and _count(hand, Rank.NINE) == 4:
            return True
        if cond == "under_10_no_marriage" and _points(hand) < 10 and hand_marriage_value(hand) == 0:
            return True
        if cond == "at_most_17" and _points(hand) <= 17:
            return True
        if cond == "under_13" and _points(hand) < 13:
            return True
        if cond == "four_jacks" and _count(hand, Rank.JACK) == 4:
            return True
    return False


def auto_condition(c: Core) -> bool:
    """True if the deal is redealt by itself (talon conditions, Finnish four 9s)."""
    conds = c.rules.redeal
    talon = c.talon
    for cond in conds:
        if cond == "four_nines_forced":
            if any(_count(c.hands[s], Rank.NINE) == 4 for s in c.active):
                return True
        elif talon and (
            (cond == "talon_under_6" and _points(talon) < 6)
            or (cond == "talon_two_nines" and _count(talon, Rank.NINE) >= 2)
            or (cond == "talon_three_jacks" and _count(talon, Rank.JACK) == 3)
        ):
            return True
    return False


def four_nines(hand: tuple[Card, ...]) -> bool:
    return _count(hand, Rank.NINE) == 4


def nines(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(x for x in hand if x.rank is Rank.NINE)
