"""From the end of the auction to the first lead: talon (or bank), the
exchange, the Swedish four-9s abandonment, the contract and conceding
(docs/rules.md#core Talon and exchange; #options exchange options; #option-details bombs; #table-sizes banks)."""

from __future__ import annotations

from itertools import combinations

from arena.game import scoring
from arena.game.actions import Action, Concede, Contract, Discard, Give, Take
from arena.game.core import (
    BANK,
    CONCEDE,
    CONTRACT,
    EXCHANGE,
    PLAY,
    Core,
    contract_action,
    give_action,
    hand_marriage_value,
    next_active,
    put,
    sort_hand,
    take_action,
)
from arena.game.dealing import four_nines
from arena.game.offers import MAX_REDEALS, offer_post_exchange


def after_auction(c: Core) -> None:
    d = c.bidder
    assert d is not None
    c.declarer = d
    c.to_act = d
    c.looked = put(c.looked, d, True)
    if c.n == 2:
        c.phase = BANK
        c.stage = ""
        return
    take_talon(c, d)


def _opening_only(c: Core) -> bool:
    """Everyone passed over the opening 100 (docs/rules.md#options hidden_talon_on_100)."""
    return c.bid == 100 and all(a == "pass" for _, a in c.auction[1:])


def take_talon(c: Core, d: int) -> None:
    blind = c.blind_seat == d
    hidden = blind or (c.rules.hidden_talon_on_100 and _opening_only(c))
    _take(c, d, c.talon, hidden)
    c.talon = ()


def _take(c: Core, d: int, cards: tuple, hidden: bool) -> None:  # type: ignore[type-arg]
    c.talon_public = not hidden
    c.talon_seen = tuple(True for _ in range(c.n)) if not hidden else put(c.talon_seen, d, True)
    c.dealt_talon = tuple(cards)
    c.hands = put(c.hands, d, sort_hand(c.hands[d] + tuple(cards)))
    c.looked = put(c.looked, d, True)  # the declarer plays with its cards in view
    # docs/rules.md#option-details: after a blind bid the given cards travel face down.
    c.given_public = c.rules.exchange_visible and c.blind_seat != d
    c.phase = EXCHANGE
    c.stage = ""
    c.to_act = d


def legal_bank(c: Core) -> tuple[Action, ...]:
    return tuple(take_action(i) for i, b in enumerate(c.banks) if b)


def apply_bank(c: Core, action: Action) -> None:
    assert isinstance(action, Take) and c.declarer is not None
    d = c.declarer
    cards = c.banks[action.bank]
    c.banks = put(c.banks, action.bank, ())
    _take(c, d, cards, hidden=c.blind_seat == d)


def _receivers(c: Core) -> tuple[int, ...]:
    d = c.declarer
    assert d is not None
    left = next_active(c, d)
    return (left, left) if c.n == 2 else (left, next_active(c, left))


def legal_exchange(c: Core) -> tuple[Action, ...]:
    d = c.declarer
    assert d is not None
    hand = c.hands[d]
    if c.rules.exchange == "discard" and c.n != 2:
        return tuple(Discard(combo) for combo in combinations(hand, 3))
    to = _receivers(c)[len(c.given)]
    return tuple(give_action(card, to) for card in hand)


def apply_exchange(c: Core, action: Action) -> None:
    d = c.declarer
    assert d is not None
    if isinstance(action, Discard):
        c.hands = put(c.hands, d, tuple(x for x in c.hands[d] if x not in action.cards))
        c.discarded = sort_hand(action.cards)
        after_exchange(c)
        return
    assert isinstance(action, Give)
    c.hands = put(c.hands, d, tuple(x for x in c.hands[d] if x is not action.card))
    c.hands = put(c.hands, action.to, sort_hand(c.hands[action.to] + (action.card,)))
    c.given = c.given + ((d, action.to, action.card),)
    if len(c.given) == 2:
        after_exchange(c)


def after_exchange(c: Core) -> None:
    if "four_nines_after_exchange" in c.rules.redeal and not c.horse_left:
        # docs/rules.md#option-details Swedish: a hand with four 9s after the exchange may abandon the deal.
        seats = tuple(s for s in c.active if four_nines(c.hands[s]))
        if seats and c.redeals < MAX_REDEALS:
            offer_post_exchange(c, seats)
            return
    to_contract(c)


def to_contract(c: Core) -> None:
    c.phase = CONTRACT
    c.stage = ""
    c.to_act = c.declarer


def _fixed_contract(c: Core) -> bool:
    """Czech blind and golden horse commit to exactly 120 (docs/rules.md#option-details)."""
    return c.blind_seat == c.declarer and (c.rules.blind == "czech" or c.horse_left > 0)


def can_concede(c: Core) -> bool:
    d = c.declarer
    assert d is not None
    r = c.rules
    if c.blind_seat == d:
        return True
    if r.bomb == "czech":
        return True
    if r.bomb == "finnish":
        if r.bomb_limit and c.bombs_used[d] >= r.bomb_limit:
            return False
        # docs/rules.md#option-details Pommi: none while at or above 800 (a bomb rule, not a barrel one).
        return c.totals[d] < r.bomb_ceiling
    return False


def legal_contract(c: Core) -> tuple[Action, ...]:
    d = c.declarer
    assert d is not None and c.bid is not None
    if _fixed_contract(c) or (c.n == 2 and c.rules.two_player_form == "stock"):
        out: tuple[Action, ...] = (contract_action(c.bid),)
    else:
        cap = max(c.bid, 120 + hand_marriage_value(c.hands[d]))
        out = tuple(contract_action(x) for x in range(c.bid, cap + 1, c.rules.bid_step))
    if can_concede(c):
        out = out + (CONCEDE,)
    return out


def apply_contract(c: Core, action: Action) -> None:
    if isinstance(action, Concede):
        scoring.concede(c)
        return
    assert isinstance(action, Contract)
    c.contract = action.amount
    c.phase = PLAY
    c.stage = ""
    c.leader = c.to_act = c.declarer
