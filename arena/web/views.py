"""Table views: the JSON the browser draws a table from, built by the engine.

A *view* is one moment of a match as one viewer may know it. For a seat it
is that seat's `GameState.observation(seat)` (docs/rules.md#hidden-information), reshaped and
nothing added; for the all-cards view (`viewer` None: the replay player's
"all cards", never a live seat) it is the whole truth, taken from every
seat's observation plus the state's own hands and talon; for a watcher of
a live table (`viewer` "public": the lobby's spectators) it is the engine's
public view (`GameState.public_observation()`), reshaped, with every hand
face down. JavaScript draws a
view and never decides what a seat may see or which cards are legal
(docs/people.md).

The view object (every key always present; cards as docs/rules.md#core text such as
"AS", "TH"; "" is a face-down card):

    viewer        int | None | "public"  the seat whose knowledge this is; None = all
                                cards; "public" = what anyone watching may know
    players       int           2, 3 or 4 seats
    phase         str           lottery | redeal | blind | bidding | bank | exchange
                                | contract | play | game_over
    to_act        int | None    the seat to act (as this viewer may know it)
    deal_number   int           1-based
    dealer        int
    active_seats  [int]         the seats playing this deal (4 players: not the dealer)
    hands         [[str] | None]  per seat: its cards, or None where the viewer cannot
                                see them (draw `hand_sizes[s]` backs); a seat's own
                                hand is [] while it has not looked (blind)
    hand_sizes    [int]         per seat
    totals        [int]         match totals per seat
    auction       [{seat, action}]  this deal's bids and passes, in order
    bid, bidder, declarer, contract   int | None
    talon         [str]         talon cards this viewer knows ([] if none)
    talon_size    int           cards still face down in the talon
    talon_face_down  bool       all-cards view only: `talon` is shown to the viewer of the
                                replay but no seat has seen it yet (False in seat views)
    given         [{from_seat, to_seat, card}]  the exchange; card "" = face down
    discarded     [str]         the declarer's discard (Finnish `exchange = discard`)
    trump         str           "C" | "D" | "H" | "S" | "" (none yet)
    marriages     [{seat, suit, value}]  declared this deal (suit "A" = the aces)
    trick         [{seat, card}]  the trick on the table, in play order
    leader        int | None
    tricks        [{leader, cards: [{seat, card}], winner}]  this deal's completed tricks
    tricks_won, points_won  [int]  per seat, this deal
    seat_states   [{seat, bolts, bombs_used, on_barrel, barrel_deals, blind, looked}]
    lottery       {organiser, guesses: [{seat, color}], picked} | None
    stock_size    int           2 players, form (a): cards left in the stock
    bank_sizes    [int]         2 players, form (b): the two banks
    forced_seat   int | None    the seat that must make 100 (2 players, form a)
    locked        [bool]        per seat: barrel `lock` (docs/rules.md#option-details), its total at or above
                                `lock_threshold`: it gains only as a declarer that makes its
                                contract (the engine's `scoring.locked`; public: totals and rules)
    lock_threshold  int | None  the lock's threshold (None: no lock in these rules)

Seat names and the legal actions are not part of a view: the page that
draws it knows the names, and a live seat gets its legal actions from the
referee beside the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.game import GameState, Rules
from arena.game.scoring import locked

View = dict[str, Any]

# The observation's keys that a view passes on unchanged.
_PUBLIC_KEYS = (
    "players", "phase", "to_act", "deal_number", "dealer", "active_seats", "hand_sizes",
    "totals", "auction", "bid", "bidder", "declarer", "contract", "talon", "talon_size",
    "given", "discarded", "trump", "marriages", "trick", "leader", "tricks", "tricks_won",
    "points_won", "seat_states", "lottery", "stock_size", "bank_sizes", "forced_seat",
)


def seat_view(observation: Mapping[str, Any], rules: Rules | None = None) -> View:
    """The view of one seat from its engine observation (`Observation.to_dict()`
    or `as_mapping()`): the same facts, with the hand placed among the seats,
    and which seats the rules' barrel lock holds (`rules`; none if not given)."""
    seat = int(observation["seat"])
    n = int(observation["players"])
    view: View = {"viewer": seat}
    for key in _PUBLIC_KEYS:
        view[key] = observation[key]
    hands: list[list[str] | None] = [None] * n
    hands[seat] = list(observation["hand"])
    view["hands"] = hands
    view["talon_face_down"] = False
    lock = rules if rules is not None and rules.barrel == "lock" else None
    view["locked"] = [lock is not None and locked(lock, int(t)) for t in observation["totals"]]
    view["lock_threshold"] = lock.threshold if lock is not None else None
    return view


def public_view(observation: Mapping[str, Any], rules: Rules | None = None) -> View:
    """The view of a watcher of the table from the engine's public view
    (`GameState.public_observation()`): every hand None (face down)."""
    if observation["seat"] is not None:
        raise ValueError(f"public_view: given seat {observation['seat']}'s observation, "
                         "not the public view (GameState.public_observation())")
    view = seat_view({**observation, "seat": 0, "hand": []}, rules)
    view["viewer"] = "public"
    view["hands"] = [None] * int(observation["players"])
    return view


def all_cards_view(state: GameState) -> View:
    """Every card of the position: what the replay player shows with "all
    cards". Each fact comes from the engine: the public ones from the
    observations, the hands and the face-down talon from the state itself,
    a face-down given card or lottery guess from the seat that knows it."""
    n = state.players
    # Read-only mappings, not copies: a view is serialised, never changed.
    obs = [state.observation(s).as_mapping() for s in range(n)]
    view = seat_view(obs[0], state.rules)
    view["viewer"] = None
    # A private offer (docs/rules.md#hidden-information) is hidden from the other seats' to_act.
    view["to_act"] = state.to_act
    view["phase"] = state.phase if not state.is_over else obs[0]["phase"]
    view["hands"] = [[str(c) for c in state.hand(s)] for s in range(n)]
    view["hand_sizes"] = [len(state.hand(s)) for s in range(n)]
    known_talon = next((list(o["talon"]) for o in obs if o["talon"]), [])
    face_down = [str(c) for c in state.talon]
    view["talon"] = known_talon or face_down
    view["talon_face_down"] = not known_talon and bool(face_down)
    given = []
    for i, g in enumerate(obs[0]["given"]):
        card = next((o["given"][i]["card"] for o in obs if o["given"][i]["card"]), "")
        given.append({**g, "card": card})
    view["given"] = given
    view["discarded"] = next((list(o["discarded"]) for o in obs if o["discarded"]), [])
    lotteries = [o["lottery"] for o in obs if o["lottery"] is not None]
    if lotteries:
        guesses: dict[int, str] = {}
        for lot in lotteries:
            for g in lot["guesses"]:
                guesses[int(g["seat"])] = g["color"]
        view["lottery"] = {**lotteries[0],
                           "guesses": [{"seat": s, "color": c} for s, c in sorted(guesses.items())]}
    return view


def table_view(state: GameState, viewer: int | None) -> View:
    """The view of `state` for seat `viewer`, or all cards when it is None."""
    if viewer is None:
        return all_cards_view(state)
    return seat_view(state.observation(viewer).as_mapping(), state.rules)
