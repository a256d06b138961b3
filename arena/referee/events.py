"""Per-seat `Event` messages, derived only from what that seat may know.

Hidden information is sacred (docs/rules.md#hidden-information): an event for seat s is built
from the acting seat's public action, seat s's own observation before and
after the action, and nothing else. Where the action itself carries a card
s may not see (a card given in the exchange, the declarer's discard), the
card comes from s's observation, which has "" there when s may not know it.

Event kinds (see protocol/arena/v1/arena.proto):
  action  a seat acted (bid/pass/play/...); `action` set, possibly redacted
          (another seat's face-down give, discard or lottery guess)
  trick   a trick completed: `seat` won it, `cards` in play order
  talon   talon cards became known to this seat: `cards`
  deal    a new deal started: `seat` is the dealer
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.game.actions import Action, Discard, Give, Guess, Play
from arena.game.cards import Card
from arena.wire import codec
from arena.wire.codec import pb

Obs = Mapping[str, Any]


def action_event(actor: int, action: Action, viewer: int, after: Obs, deal_number: int) -> pb.Event:
    """The `action` event of `actor`'s action as `viewer` may see it."""
    shown: pb.Action
    text = f"seat {actor}: {action}"
    if viewer != actor and isinstance(action, Give):
        card = ""
        for g in reversed(after.get("given") or ()):
            if g.get("from_seat", 0) == actor and g.get("to_seat", 0) == action.to:
                card = g.get("card", "")
                break
        shown = pb.Action(kind="give", card=card, seat=action.to)
        if not card:
            text = f"seat {actor}: give a card face down to seat {action.to}"
    elif viewer != actor and isinstance(action, Discard):
        shown = pb.Action(kind="discard")
        text = f"seat {actor}: discard {len(action.cards)} cards face down"
    elif viewer != actor and isinstance(action, Guess):
        # A guess is laid face down (docs/rules.md#table-sizes, docs/rules.md#decisions 21): the
        # others learn only that it was made, and its colour from their
        # observation's lottery once the organiser has picked.
        shown = pb.Action(kind="guess")
        text = f"seat {actor}: guess face down"
    else:
        shown = codec.action_to_pb(action)
    ev = pb.Event(deal_number=deal_number, seat=actor, kind="action", text=text)
    ev.action.CopyFrom(shown)
    return ev


def trick_winner(cards: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat that wins a complete trick (docs/rules.md#core Play): the highest
    trump, else the highest card of the led suit."""
    best_seat, best = cards[0]
    for seat, card in cards[1:]:
        trumps_it = str(card.suit) == trump and str(best.suit) != trump
        beats_it = card.suit == best.suit and card.rank.strength > best.rank.strength
        if trumps_it or beats_it:
            best_seat, best = seat, card
    return best_seat


def completed_trick(before: Obs, actor: int, action: Action) -> tuple[list[tuple[int, Card]], int] | None:
    """If `action` completes the trick in progress in `before`, its cards and winner."""
    if not isinstance(action, Play):
        return None
    trick = before.get("trick") or ()
    playing = len(before.get("active_seats") or ()) or int(before.get("players", 3))
    if len(trick) + 1 < playing:  # checked before parsing any card: most plays complete nothing
        return None
    in_play = [(int(t.get("seat", 0)), Card.parse(t["card"])) for t in trick]
    in_play.append((actor, action.card))
    return in_play, trick_winner(in_play, before.get("trump") or "")


def trick_event(cards: Sequence[tuple[int, Card]], winner: int, deal_number: int) -> pb.Event:
    text = "trick " + " ".join(f"{s}:{c}" for s, c in cards) + f" -> seat {winner}"
    return pb.Event(deal_number=deal_number, seat=winner, kind="trick",
                    cards=[str(c) for _, c in cards], text=text)


def talon_event(before: Obs, after: Obs) -> pb.Event | None:
    """Talon cards this seat sees now and did not see before (same deal)."""
    new = list(after.get("talon") or ())
    if not new:
        return None
    if before.get("deal_number") == after.get("deal_number") and list(before.get("talon") or ()) == new:
        return None
    return pb.Event(deal_number=int(after.get("deal_number", 0)), kind="talon", cards=new,
                    text="talon " + " ".join(new))


def deal_event(after: Obs) -> pb.Event:
    d, dealer = int(after.get("deal_number", 0)), int(after.get("dealer", 0))
    return pb.Event(deal_number=d, seat=dealer, kind="deal", text=f"deal {d}, dealer seat {dealer}")


def seat_events(before: Obs, after: Obs, viewer: int, actor: int, action: Action,
                trick: tuple[list[tuple[int, Card]], int] | None) -> list[pb.Event]:
    """Everything `viewer` is told about `actor` playing `action` (in order)."""
    deal_number = int(before.get("deal_number", 0))
    out = [action_event(actor, action, viewer, after, deal_number)]
    if trick is not None:
        out.append(trick_event(trick[0], trick[1], deal_number))
    return out


def public_events(actor: int, action: Action, deal_number: int,
                  trick: tuple[list[tuple[int, Card]], int] | None) -> list[pb.Event] | None:
    """The events of `action` when every seat sees the same ones (all actions
    but a give, a discard or a lottery guess); None when each viewer needs
    its own. The messages may be shared between seats (they are never
    mutated)."""
    if isinstance(action, (Give, Discard, Guess)):
        return None
    out = [action_event(actor, action, actor, {}, deal_number)]
    if trick is not None:
        out.append(trick_event(trick[0], trick[1], deal_number))
    return out


def after_events(before: Obs, after: Obs) -> list[pb.Event]:
    """Events that follow a deal result: a new deal, a talon now seen."""
    out: list[pb.Event] = []
    if after.get("deal_number") != before.get("deal_number"):
        out.append(deal_event(after))
    tal = talon_event(before, after)
    if tal is not None:
        out.append(tal)
    return out
