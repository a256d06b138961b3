"""The engine state of a sampled deal (arena.sdk.belief): the public
history of the observation with the deal's hidden cards in it, re-played
through the engine from the deal as dealt to the observed point. What a
`Sampler` draws is checked by this: a deal that does not fit the
observation fails to re-play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.game.actions import (
    Action,
    Bid,
    Blind,
    Contract,
    Discard,
    Give,
    Guess,
    Lottery,
    Pass,
    Pick,
    Play,
)
from arena.game.cards import Card
from arena.game.rules import Rules
from arena.game.state import GameState, game_at_deal
from arena.sdk.deal import Deal
from arena.sdk.history import PlayRecord


def history(rules: Rules, obs: Mapping[str, Any], declarer: int | None,
            plays: Sequence[PlayRecord], deal: Deal) -> list[Action]:
    """The deal's public actions, in order, with the sampled hidden cards."""
    out: list[Action] = []
    lottery = obs.get("lottery")
    if lottery and lottery["picked"]:
        # Before the auction: the offer taken, the guesses in turn, the pick.
        out.append(Lottery())
        for g in lottery["guesses"]:
            out.append(Guess(g["color"]))
        out.append(Pick(Card.parse(lottery["picked"])))
    auction = list(obs["auction"] or [])
    forced = obs.get("forced_seat") is not None
    for i, entry in enumerate(auction):
        text = str(entry["action"])
        if i == 0 and (text == "bid 100" or forced):
            continue  # recorded by the engine itself (docs/rules.md#core opening, #option-details horse)
        if text == "blind":
            out.append(Blind())
        elif text.startswith("blind "):
            out.append(Blind(int(text.split()[1])))
        elif text.startswith("bid "):
            out.append(Bid(int(text.split()[1])))
        else:
            out.append(Pass())
    if deal.discarded and rules.exchange == "discard" and declarer is not None:
        out.append(Discard(deal.discarded))
    for _, to, card in deal.given:
        out.append(Give(card, to))
    if obs["contract"] is not None:
        out.append(Contract(int(obs["contract"])))
    for p in plays:
        out.append(Play(p.card, p.declare))  # type: ignore[arg-type]
    return out


def state(rules: Rules, obs: Mapping[str, Any], me: int, dealt_hands: list[list[Card]],
          dealt_talon: Sequence[Card], todo: Sequence[Action], seed: int) -> GameState:
    """The engine's state at the observed point of seat `me`: the deal as
    dealt (`dealt_hands`, `dealt_talon`) re-played with `todo` (its public
    history), private offers declined as the observation shows them. `seed`
    deals the deals after this one."""
    states = obs["seat_states"] or []
    barrel = next((int(s["seat"]) for s in states if s["on_barrel"]), None)
    r = rules
    horse = obs.get("forced_seat") is not None and r.golden_horse
    g = game_at_deal(
        r, seed, deal_number=int(obs["deal_number"]), dealer=int(obs["dealer"]),
        totals=[int(t) for t in obs["totals"]], hands=dealt_hands, talon=dealt_talon,
        bolts=[int(s["bolts"]) for s in states] or None,
        bombs_used=[int(s["bombs_used"]) for s in states] or None,
        barrel_seat=barrel,
        barrel_deals=next((int(s["barrel_deals"]) for s in states if s["on_barrel"]), 0),
        horse_left=max(0, 4 - int(obs["deal_number"])) if horse else 0,
        horse_made=horse and any(int(t) > 0 for t in obs["totals"]),
    )
    i = 0
    while True:
        done = i == len(todo)
        if g.private_offer:
            nxt = todo[i] if not done else None
            if g.to_act == me and done and g.phase == obs["phase"]:
                return g
            if isinstance(nxt, Lottery) and g.phase == "lottery":
                g = g.apply(nxt)
                i += 1
            else:
                g = g.apply(Pass())  # other private offers were declined
            continue
        at_obs = (g.phase, g.to_act) == (obs["phase"], obs["to_act"])
        if done and not (g.phase == "blind" and not at_obs):
            return g
        nxt = todo[i] if not done else Pass()
        if g.phase == "blind" and not isinstance(nxt, Blind):
            g = g.apply(Pass())  # the blind offer declined: it looked at its cards
            continue
        g = g.apply(nxt)
        i += 1
