"""Redeal offers: the seat whose hand allows a redeal is asked, one seat at
a time (docs/rules.md#option-details, docs/rules.md#hidden-information: the offer is private to its holder).

Shared by the deal's start (flow.py: offers before the auction) and the
exchange (exchange.py: the Swedish four 9s after it), so that neither
phase calls into the other's module.
"""

from __future__ import annotations

from arena.game.core import REDEAL, Core, put

# A safety valve: after this many redeals of one deal no more are offered
# (redeal conditions are chance events, but a bot could ask forever).
MAX_REDEALS = 50


def offer_redeal(c: Core) -> None:
    """Ask the first seat of `c.pending` whether it wants a redeal."""
    seat = c.pending[0]
    c.pending = c.pending[1:]
    c.phase = REDEAL
    c.to_act = seat
    # The holder sees its hand to decide; publicly nothing happened (docs/rules.md#hidden-information).
    c.peeked = put(c.peeked, seat, True)


def offer_post_exchange(c: Core, seats: tuple[int, ...]) -> None:
    """The seats holding four 9s after the exchange are asked in turn (the
    Swedish abandonment); flow.apply_redeal resumes with the contract."""
    c.pending = seats
    c.stage = "post"
    offer_redeal(c)
