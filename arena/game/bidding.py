"""The auction (docs/rules.md#core Bidding, Bid cap; #option-details Finnish blind)."""

from __future__ import annotations

from arena.game import exchange
from arena.game.actions import Action, Bid, Blind
from arena.game.core import (
    BIDDING,
    BLIND,
    PASS,
    Core,
    bid_action,
    blind_action,
    hand_marriage_value,
    next_active,
    put,
)

# A blind bidder has not seen its hand, so it cannot know its marriage cap:
# blind bids stop at 120 (docs/rules.md#core cap without a marriage).
BLIND_MAX = 120


def open_auction(c: Core) -> None:
    opener = c.active[0]
    if c.bid is None:
        # docs/rules.md#core: the opener's 100 is compulsory, so it is recorded, not asked.
        c.auction = ((opener, "bid 100"),)
        c.bid = 100
        c.bidder = opener
    c.in_auction = tuple(s in c.active for s in range(c.n))
    _turn(c, next_active(c, opener))


def _turn(c: Core, seat: int) -> None:
    c.to_act = seat
    c.stage = ""
    if not c.looked[seat]:
        assert c.bid is not None
        if c.rules.blind == "finnish" and c.bid + c.rules.bid_step <= BLIND_MAX:
            c.phase = BLIND
            c.stage = "finnish_blind"
            return
        c.looked = put(c.looked, seat, True)
    c.phase = BIDDING


def legal_bidding(c: Core) -> tuple[Action, ...]:
    seat = c.to_act
    assert seat is not None and c.bid is not None
    step = c.rules.bid_step
    cap = 120 + hand_marriage_value(c.hands[seat])
    return tuple(bid_action(x) for x in range(c.bid + step, cap + 1, step)) + (PASS,)


def legal_blind_bids(c: Core) -> tuple[Action, ...]:
    assert c.bid is not None and c.to_act is not None
    if c.peeked[c.to_act]:
        # It saw its cards at a declined private offer: asked like any seat
        # that has not looked (so the others learn nothing), it may only look.
        return (PASS,)
    step = c.rules.bid_step
    return tuple(blind_action(x) for x in range(c.bid + step, BLIND_MAX + 1, step)) + (PASS,)


def apply_bidding(c: Core, action: Action) -> None:
    seat = c.to_act
    assert seat is not None
    if isinstance(action, Bid):
        c.auction = c.auction + ((seat, f"bid {action.amount}"),)
        c.bid = action.amount
        c.bidder = seat
        if c.blind_seat is not None and c.rules.blind == "czech":
            # docs/rules.md#option-details vtěmno: overbid, the blind bidder sees its hand.
            c.looked = put(c.looked, c.blind_seat, True)
        c.blind_seat = None
    else:
        c.auction = c.auction + ((seat, "pass"),)
        c.in_auction = put(c.in_auction, seat, False)
    _next(c, seat)


def apply_blind_offer(c: Core, action: Action) -> None:
    """Finnish blind: bid blind, or `pass` = look at the cards and bid normally."""
    seat = c.to_act
    assert seat is not None
    if isinstance(action, Blind):
        assert action.amount is not None
        c.auction = c.auction + ((seat, f"blind {action.amount}"),)
        c.bid = action.amount
        c.bidder = seat
        c.blind_seat = seat
        _next(c, seat)
    else:
        c.looked = put(c.looked, seat, True)
        c.phase = BIDDING
        c.stage = ""


def _next(c: Core, seat: int) -> None:
    if sum(c.in_auction) == 1:
        exchange.after_auction(c)
        return
    nxt = next_active(c, seat)
    while not c.in_auction[nxt]:
        nxt = next_active(c, nxt)
    _turn(c, nxt)
