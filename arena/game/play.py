"""Trick play (docs/rules.md#core Play, Marriages; #options must_trump, must_beat,
auto_declare, ace_marriage; §4 2-player stock)."""

from __future__ import annotations

from arena.game import scoring
from arena.game.actions import Action, Play
from arena.game.cards import Card, Rank, Suit
from arena.game.core import (
    PARTNER,
    PLAY_ACES,
    PLAY_MARRIAGE,
    PLAYS,
    Core,
    TrickCards,
    put,
    sort_hand,
)

_KQ = (Rank.KING, Rank.QUEEN)


def legal_play(c: Core) -> tuple[Action, ...]:
    seat = c.to_act
    assert seat is not None
    hand = c.hands[seat]
    trick = c.trick
    if not trick:
        return _leads(c, hand)
    led = trick[0][1].suit
    follow = [x for x in hand if x.suit is led]
    rules = c.rules
    trump = c.trump
    if follow:
        if rules.must_beat != "none":
            # docs/rules.md#options must_beat: beat the highest card of the led suit,
            # unless a trump already fell on a lead of another suit.
            trumped = trump is not None and led is not trump and any(
                x.suit is trump for _, x in trick)
            if not trumped:
                top = max(x.strength for _, x in trick if x.suit is led)
                higher = [x for x in follow if x.strength > top]
                if higher:
                    follow = higher
        return tuple(PLAYS[x.index] for x in follow)
    if rules.must_trump and trump is not None:
        trumps = [x for x in hand if x.suit is trump]
        if trumps:
            if rules.must_beat == "suit_and_trump":
                tops = [x.strength for _, x in trick if x.suit is trump]
                if tops:
                    top = max(tops)
                    higher = [x for x in trumps if x.strength > top]
                    if higher:
                        trumps = higher
            return tuple(PLAYS[x.index] for x in trumps)
    return tuple(PLAYS[x.index] for x in hand)


def _leads(c: Core, hand: tuple[Card, ...]) -> tuple[Action, ...]:
    if not c.tricks:
        # docs/rules.md#core: no declaration when leading the first trick.
        return tuple(PLAYS[x.index] for x in hand)
    auto = c.rules.auto_declare
    aces = c.rules.ace_marriage > 0 and sum(1 for x in hand if x.rank is Rank.ACE) == 4
    out: list[Action] = []
    for x in hand:
        if x.rank in _KQ and PARTNER[x.index] in hand:
            if not auto:
                out.append(PLAYS[x.index])
            out.append(PLAY_MARRIAGE[x.index])
        elif aces and x.rank is Rank.ACE:
            if not auto:
                out.append(PLAYS[x.index])
            out.append(PLAY_ACES[x.index])
        else:
            out.append(PLAYS[x.index])
    return tuple(out)


def trick_winner(trick: TrickCards, trump: Suit | None) -> int:
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.suit is best.suit:
            if card.strength > best.strength:
                best_seat, best = seat, card
        elif card.suit is trump:
            best_seat, best = seat, card
    return best_seat


def apply_play(c: Core, action: Action) -> None:
    assert isinstance(action, Play)
    seat = c.to_act
    assert seat is not None
    card = action.card
    hands = c.hands
    hand = hands[seat]
    i = hand.index(card)
    c.hands = hands[:seat] + (hand[:i] + hand[i + 1:],) + hands[seat + 1:]
    if action.declare:
        _declare(c, seat, action)
    trick = c.trick + ((seat, card),)
    if len(trick) < len(c.active):
        c.trick = trick
        c.to_act = c.nxt[seat]
        return
    winner = trick_winner(trick, c.trump)
    c.tricks = c.tricks + ((c.leader if c.leader is not None else trick[0][0], trick, winner),)
    c.trick = ()
    c.tricks_won = put(c.tricks_won, winner, c.tricks_won[winner] + 1)
    points = 0
    for _, x in trick:
        points += x.points
    c.points_won = put(c.points_won, winner, c.points_won[winner] + points)
    c.leader = c.to_act = winner
    if c.stock:
        _draw(c, winner)
    if not c.hands[winner]:
        scoring.end_of_play(c)


def _declare(c: Core, seat: int, action: Play) -> None:
    if action.declare == "marriage":
        suit = action.card.suit
        value = suit.marriage_value
        c.trump = suit  # docs/rules.md#core: trump from this trick on
        c.marriages = c.marriages + ((seat, suit.value, value),)
    else:
        value = c.rules.ace_marriage  # docs/rules.md#options: sets no trump
        c.marriages = c.marriages + ((seat, "A", value),)
    c.bonus = put(c.bonus, seat, c.bonus[seat] + value)


def _draw(c: Core, winner: int) -> None:
    """docs/rules.md#table-sizes (a): after each trick the winner, then the other, draws one card."""
    other = c.active[0] if c.active[1] == winner else c.active[1]
    stock = c.stock
    c.hands = put(c.hands, winner, sort_hand(c.hands[winner] + (stock[0],)))
    c.hands = put(c.hands, other, sort_hand(c.hands[other] + (stock[1],)))
    c.stock = stock[2:]
