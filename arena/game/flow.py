"""The course of a deal before the auction: dealing, redeals, the Czech
blind offer, redeal offers, the Finnish lottery, then the opening bid.

Each step either needs a decision (it sets `phase`/`to_act` and returns
"wait"), redeals by itself ("redeal"), or does nothing (None) and the next
step runs. Offer phases resume the steps after themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.game import bidding, dealing, exchange, scoring
from arena.game.actions import Action, Blind, Guess, Lottery, Pass, Pick, Redeal
from arena.game.cards import Card
from arena.game.core import (
    BLIND,
    BLIND_FIXED,
    GUESSES,
    LOTTERY,
    LOTTERY_ACTION,
    PASS,
    PLAY,
    REDEAL,
    REDEAL_ACTION,
    Core,
    next_table,
    pick_action,
    put,
)
from arena.game.errors import IllegalActionError
from arena.game.offers import MAX_REDEALS, offer_redeal
from arena.game.rules import HAND_CONDITIONS


def reset_deal(c: Core) -> None:
    n = c.n
    c.active = dealing.active_seats(n, c.dealer)
    c.nxt = next_table(n, c.active)
    c.phase = BLIND
    c.to_act = None
    c.talon_public = False
    c.talon_seen = (False,) * n
    c.auction = ()
    c.bid = None
    c.bidder = None
    c.in_auction = (False,) * n
    c.looked = tuple(c.rules.blind != "finnish" for _ in range(n))
    c.peeked = (False,) * n
    c.blind_seat = None
    c.declarer = None
    c.contract = None
    c.given = ()
    c.given_public = False
    c.discarded = ()
    c.trump = None
    c.marriages = ()
    c.trick = ()
    c.leader = None
    c.tricks = ()
    c.tricks_won = (0,) * n
    c.points_won = (0,) * n
    c.bonus = (0,) * n
    c.pending = ()
    c.stage = ""
    c.pre_changes = (0,) * n
    c.notes = ()
    c.lot_organiser = None
    c.lot_guesses = ()
    c.lot_picked = None
    c.forced_seat = None


def begin_deal(c: Core) -> None:
    """Deal the current deal (redealing as the rules say) up to its first decision."""
    while True:
        reset_deal(c)
        dealing.deal_cards(c)
        if _proceed(c, 0) != "redeal":
            return
        if not _count_redeal(c):
            return


def start_next_deal(c: Core) -> None:
    c.dealer = (c.dealer + 1) % c.n
    c.deal_number += 1
    c.redeals = 0
    begin_deal(c)


def redeal(c: Core) -> None:
    """A redeal asked for (or the Swedish abandonment): same dealer, fresh cards."""
    if _count_redeal(c):
        begin_deal(c)


def _count_redeal(c: Core) -> bool:
    """Count one redeal; False if the game ended (Finnish penalty at max_deals)."""
    c.redeals += 1
    penalty = c.rules.redeal_penalty
    if penalty and c.redeals >= 2:
        # docs/rules.md#option-details Finnish: two redeals in a row cost the dealer and pass the deal on.
        scoring.redeal_penalty(c, penalty)
        if c.over:
            return False
        c.dealer = (c.dealer + 1) % c.n
        c.deal_number += 1
        c.redeals = 0
    return True


# ---------------------------------------------------------------- steps

def _step_auto(c: Core) -> str | None:
    if c.horse_left or c.redeals >= MAX_REDEALS or c.n == 2:
        return None
    return "redeal" if dealing.auto_condition(c) else None


def _step_horse(c: Core) -> str | None:
    if not c.horse_left:
        return None
    # docs/rules.md#option-details golden horse: a compulsory blind 120 for the seat left of the dealer.
    d = c.active[0]
    c.forced_seat = d
    c.bid = 120
    c.bidder = d
    c.blind_seat = d
    c.auction = ((d, "blind"),)
    c.declarer = d
    # No auction, so no turn at which a Finnish-blind seat would look: the
    # opponents hold their cards in view (docs/rules.md#hidden-information); the forced seat looks
    # when it takes the talon.
    c.looked = (True,) * c.n
    exchange.take_talon(c, d)
    return "wait"


def _step_czech_blind(c: Core) -> str | None:
    if c.rules.blind != "czech":
        return None
    o = c.active[0]
    # docs/rules.md#option-details vtěmno: only with a positive total and no opponent on the barrel.
    if c.totals[o] <= 0 or (c.barrel_seat is not None and c.barrel_seat != o):
        return None
    c.looked = put(c.looked, o, False)
    c.phase = BLIND
    c.stage = "czech_blind"
    c.to_act = o
    return "wait"


def _step_offers(c: Core) -> str | None:
    conds = tuple(x for x in c.rules.redeal if x in HAND_CONDITIONS)
    if not conds or c.redeals >= MAX_REDEALS or c.n == 2:
        return None
    pending = tuple(
        s for s in c.active
        if s != c.blind_seat and dealing.hand_condition(c.hands[s], conds)
    )
    if not pending:
        return None
    c.pending = pending
    c.stage = "pre"
    offer_redeal(c)
    return "wait"


def _step_lottery(c: Core) -> str | None:
    if not (c.rules.lottery and c.n == 4):
        return None
    for s in c.active:
        if len(dealing.nines(c.hands[s])) >= 3:
            c.phase = LOTTERY
            c.stage = "lottery_offer"
            c.to_act = s
            c.peeked = put(c.peeked, s, True)
            return "wait"
    return None


def _step_open(c: Core) -> str | None:
    if c.n == 2 and c.rules.two_player_form == "stock":
        # docs/rules.md#table-sizes (a): no auction; the seat left of the dealer must make the fixed amount.
        d = c.active[0]
        c.forced_seat = d
        c.declarer = d
        c.bid = c.contract = c.rules.two_player_contract
        c.phase = PLAY
        c.leader = c.to_act = d
        return "wait"
    bidding.open_auction(c)
    return "wait"


_STEPS: tuple[Callable[[Core], str | None], ...] = (
    _step_auto, _step_horse, _step_czech_blind, _step_offers, _step_lottery, _step_open,
)
_AFTER_BLIND, _AFTER_OFFERS, _AFTER_LOTTERY = 3, 4, 5


def _proceed(c: Core, start: int) -> str | None:
    for step in _STEPS[start:]:
        outcome = step(c)
        if outcome is not None:
            return outcome
    return None


# ---------------------------------------------------------------- offer phases

def legal_redeal(c: Core) -> tuple[Action, ...]:
    return (REDEAL_ACTION, PASS)


def apply_redeal(c: Core, action: Action) -> None:
    if isinstance(action, Redeal):
        c.notes = c.notes + ("redeal",)
        redeal(c)
        return
    if c.pending:
        offer_redeal(c)
    elif c.stage == "post":
        exchange.to_contract(c)
    else:
        _proceed(c, _AFTER_OFFERS)


def private_offer(c: Core) -> bool:
    """An offer made because of the holder's hidden hand is pending (a redeal
    offer, the Swedish four-9s abandonment, the Finnish lottery offer)."""
    return c.phase == REDEAL or (c.phase == LOTTERY and c.stage == "lottery_offer")


def without_offers(c: Core, seat: int | None) -> Core:
    """The state as `seat` may know it while other seats' private offers are
    pending: as if each were declined (docs/rules.md#private-offers); for
    `seat=None` (a watcher of the table), every seat's offer.
    Declining draws no randomness, so this is the position the
    game reaches if they are declined. `c` itself is not changed."""
    if c.to_act is None or c.to_act == seat or not private_offer(c):
        return c
    p = c.clone()
    while p.to_act is not None and p.to_act != seat and private_offer(p):
        if p.phase == REDEAL:
            apply_redeal(p, PASS)
        else:
            apply_lottery(p, PASS)
    return p


def legal_blind(c: Core) -> tuple[Action, ...]:
    if c.stage == "czech_blind":
        return (BLIND_FIXED, PASS)
    return bidding.legal_blind_bids(c)


def apply_blind(c: Core, action: Action) -> None:
    if c.stage != "czech_blind":
        bidding.apply_blind_offer(c, action)
        return
    o = c.to_act
    assert o is not None
    if isinstance(action, Blind):
        c.auction = ((o, "blind"),)
        c.bid = 120
        c.bidder = o
        c.blind_seat = o
    else:
        c.looked = put(c.looked, o, True)
    _proceed(c, _AFTER_BLIND)


def legal_lottery(c: Core) -> tuple[Action, ...]:
    if c.stage == "lottery_offer":
        return (LOTTERY_ACTION, PASS)
    if c.stage == "lottery_guess":
        return GUESSES
    assert c.to_act is not None
    return tuple(pick_action(x) for x in dealing.nines(c.hands[c.to_act]))


def apply_lottery(c: Core, action: Action) -> None:
    seat = c.to_act
    assert seat is not None
    if isinstance(action, Pass):
        _proceed(c, _AFTER_LOTTERY)
    elif isinstance(action, Lottery):
        c.lot_organiser = seat
        c.looked = put(c.looked, seat, True)  # accepting is public: it has seen its cards
        others = tuple(s for s in c.active if s != seat)
        # Guess clockwise from the organiser's left.
        i = c.active.index(seat)
        c.pending = tuple(c.active[(i + k) % 3] for k in (1, 2) if c.active[(i + k) % 3] in others)
        c.stage = "lottery_guess"
        c.to_act = c.pending[0]
        c.pending = c.pending[1:]
    elif isinstance(action, Guess):
        c.lot_guesses = c.lot_guesses + ((seat, action.color),)
        if c.pending:
            c.to_act = c.pending[0]
            c.pending = c.pending[1:]
        else:
            c.stage = "lottery_pick"
            c.to_act = c.lot_organiser
    elif isinstance(action, Pick):
        c.lot_picked = action.card
        _score_lottery(c, action.card)
        _proceed(c, _AFTER_LOTTERY)
    else:  # pragma: no cover - filtered by legality
        raise IllegalActionError(f"{action} in lottery")


def _score_lottery(c: Core, nine: Card) -> None:
    colour = "red" if nine.suit.is_red else "black"
    right = [s for s, col in c.lot_guesses if col == colour]
    org = c.lot_organiser
    assert org is not None
    pre = list(c.pre_changes)
    # docs/rules.md#table-sizes lottery: nobody right -> organiser 100; one -> 100; both -> 50 each.
    if not right:
        pre[org] += 100
    elif len(right) == 1:
        pre[right[0]] += 100
    else:
        for s in right:
            pre[s] += 50
    c.pre_changes = tuple(pre)
    c.notes = c.notes + ("lottery",)

