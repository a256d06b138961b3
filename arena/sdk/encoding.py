"""A fixed-size numpy encoding of one seat's observation, and a fixed action space.

    from arena.sdk.encoding import encode, action_index, legal_mask, SIZE, ACTIONS

    vec = encode(obs)                       # float32[SIZE], from the observation only
    mask = legal_mask(legal_actions)        # int8[ACTIONS], 1 where legal
    action = action_at(i)                   # the engine Action of index i

`obs` is the seat's observation as plain data: the engine's
`Observation.as_mapping()` / `to_dict()` or the SDK's `obs.data` (either
name of the talon count). Nothing else is read, so the vector is a function
of what the seat may know (RULES.md §6) and identical, byte for byte, for
every deal of the hidden cards that leaves the observation the same.
docs/learning.md lists every slot; `LAYOUT` gives them by name.

Seats are relative: slot 0 is the observing seat, then clockwise (1 = the
seat on its left), 4 slots whatever the number of players. Amounts are
scaled to about [-1, 1] (totals by 1000, bids by 400, card points by 120).
Only numpy and the card table are imported: a bot can use it without the
rules engine, the learning libraries or the referee.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.game.actions import (
    Action,
    Bid,
    Blind,
    Concede,
    Contract,
    Declare,
    Discard,
    Give,
    Guess,
    Lottery,
    Pass,
    Pick,
    Play,
    Redeal,
    Take,
)
from arena.game.cards import DECK, Card

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

# ---------------------------------------------------------------- the action space
# Bids, blind bids and contracts: 100..400 in steps of 5 (the cap is 120 plus
# every marriage, 400; a blind bid is at most 120; a bid step is 5 or 10).
AMOUNTS: tuple[int, ...] = tuple(range(100, 401, 5))
_DECLARES: tuple[Declare, ...] = ("", "marriage", "aces")
_DISCARDS: tuple[tuple[Card, ...], ...] = tuple(combinations(DECK, 3))

_space: list[Action] = []
_space += [Play(c, d) for c in DECK for d in _DECLARES]           # 72: card x declaration
_space += [Bid(a) for a in AMOUNTS]                               # 61
_space += [Blind(None)] + [Blind(a) for a in AMOUNTS]             # 62
_space += [Contract(a) for a in AMOUNTS]                          # 61
_space += [Pass(), Redeal(), Concede(), Lottery()]                # 4
_space += [Give(c, to) for c in DECK for to in range(4)]          # 96: card x absolute seat
_space += [Guess("red"), Guess("black")]                          # 2
_space += [Pick(c) for c in DECK]                                 # 24
_space += [Take(0), Take(1)]                                      # 2
_space += [Discard(combo) for combo in _DISCARDS]                 # 2024: 3 cards, deck order
SPACE: tuple[Action, ...] = tuple(_space)
ACTIONS = len(SPACE)
# Actions are frozen values (equal and hashed by their fields), so the engine's
# interned ones find their index here directly.
_INDEX: dict[Action, int] = {a: i for i, a in enumerate(SPACE)}
del _space


def action_index(action: Action) -> int:
    """The index of `action` in the fixed action space (KeyError if it has none)."""
    return _INDEX[action]


def action_at(index: int) -> Action:
    """The action at `index` of the fixed action space."""
    return SPACE[index]


def legal_mask(legal: Iterable[Action]) -> Mask:
    """int8[ACTIONS]: 1 at the index of each legal action."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    mask[[_INDEX[a] for a in legal]] = 1
    return mask


# ---------------------------------------------------------------- the observation
PHASES: tuple[str, ...] = ("lottery", "redeal", "blind", "bidding", "bank", "exchange",
                           "contract", "play", "game_over")
_PHASE = {p: i for i, p in enumerate(PHASES)}
_SUIT_SLOT = {"": 0, "C": 1, "D": 2, "H": 3, "S": 4}
_CARD: dict[str, int] = {str(c): c.index for c in DECK}

# (name, size) in order; offsets follow. Per-seat blocks have 4 relative slots.
LAYOUT_SIZES: tuple[tuple[str, int], ...] = (
    ("players", 3),            # one-hot 2, 3, 4 players
    ("phase", len(PHASES)),    # one-hot
    ("hand", 24),              # own cards (empty until it looked)
    ("talon", 24),             # the talon as dealt, once this seat has seen it
    ("given_to", 4 * 24),      # per relative recipient: the given cards this seat may see
    ("given_count", 4),        # per relative recipient: cards given to it (seen or not)
    ("discarded", 24),         # the declarer's own discards
    ("played_by", 4 * 24),     # per relative seat: cards it played in completed tricks
    ("trick", 4 * 24),         # per relative seat: its card in the current trick
    ("trick_number", 24),      # per card played in a completed trick: (trick number) / 12
    ("marriages", 4 * 4),      # per relative seat x suit C, D, H, S: declared
    ("trump", 5),              # one-hot none, C, D, H, S
    ("to_act", 5),             # one-hot relative seat, or nobody
    ("dealer", 4),             # one-hot relative seat
    ("leader", 5),             # one-hot relative seat, or none
    ("bidder", 5),             # the auction's high bidder, or none
    ("declarer", 5),           # or none
    ("forced_seat", 5),        # the seat made to play (golden horse, bolts), or none
    ("active", 4),             # relative seats playing this deal
    ("bid", 1),                # the high bid / 400 (0: none)
    ("contract", 1),           # / 400 (0: none)
    ("last_bid", 4),           # per relative seat: its last bid in this auction / 400
    ("passed", 4),             # per relative seat: passed in this auction
    ("totals", 4),             # per relative seat: game total / 1000
    ("hand_sizes", 4),         # / 10
    ("tricks_won", 4),         # / 8
    ("points_won", 4),         # card points in tricks / 120
    ("bolts", 4),              # / 3
    ("bombs_used", 4),         # / 3
    ("on_barrel", 4),
    ("barrel_deals", 4),       # / 3
    ("blind", 4),
    ("looked", 4),
    ("sizes", 5),              # talon, stock, bank 0, bank 1 (/ 12) and deal number / 100
    ("lottery", 5 + 8 + 24),   # organiser one-hot (or none), guesses (seat x red/black), picked
)
LAYOUT: dict[str, slice] = {}
_at = 0
for _name, _size in LAYOUT_SIZES:
    LAYOUT[_name] = slice(_at, _at + _size)
    _at += _size
SIZE = _at
_O = {name: s.start for name, s in LAYOUT.items()}
_PLAYERS_SLOT = {2: 0, 3: 1, 4: 2}


def encode(obs: Mapping[str, Any], out: Vector | None = None) -> Vector:
    """float32[SIZE] for one seat's observation (see LAYOUT, docs/learning.md).
    `out`, if given, is filled in place (it is zeroed first) and returned."""
    v = np.zeros(SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        v.fill(0.0)
    me = int(obs["seat"])
    n = int(obs["players"])
    card = _CARD
    o = _O

    def rel(seat: int) -> int:
        return (seat - me) % n

    def seat_or_none(name: str, value: Any) -> None:
        v[o[name] + (4 if value is None else rel(int(value)))] = 1.0

    v[o["players"] + _PLAYERS_SLOT[n]] = 1.0
    v[o["phase"] + _PHASE[obs["phase"]]] = 1.0
    base = o["hand"]
    for x in obs["hand"]:
        v[base + card[x]] = 1.0
    base = o["talon"]
    for x in obs["talon"]:
        v[base + card[x]] = 1.0
    for g in obs["given"]:
        to = rel(int(g["to_seat"]))
        v[o["given_count"] + to] += 1.0
        if g["card"]:
            v[o["given_to"] + 24 * to + card[g["card"]]] = 1.0
    base = o["discarded"]
    for x in obs["discarded"]:
        v[base + card[x]] = 1.0
    played, number = o["played_by"], o["trick_number"]
    for k, t in enumerate(obs["tricks"], 1):
        for tc in t["cards"]:
            i = card[tc["card"]]
            v[played + 24 * rel(int(tc["seat"])) + i] = 1.0
            v[number + i] = k / 12.0
    base = o["trick"]
    for tc in obs["trick"]:
        v[base + 24 * rel(int(tc["seat"])) + card[tc["card"]]] = 1.0
    base = o["marriages"]
    for m in obs["marriages"]:
        v[base + 4 * rel(int(m["seat"])) + _SUIT_SLOT[m["suit"]] - 1] = 1.0
    v[o["trump"] + _SUIT_SLOT[obs["trump"]]] = 1.0
    seat_or_none("to_act", obs["to_act"])
    v[o["dealer"] + rel(int(obs["dealer"]))] = 1.0
    seat_or_none("leader", obs["leader"])
    seat_or_none("bidder", obs["bidder"])
    seat_or_none("declarer", obs["declarer"])
    seat_or_none("forced_seat", obs["forced_seat"])
    base = o["active"]
    for s in obs["active_seats"]:
        v[base + rel(int(s))] = 1.0
    if obs["bid"] is not None:
        v[o["bid"]] = obs["bid"] / 400.0
    if obs["contract"] is not None:
        v[o["contract"]] = obs["contract"] / 400.0
    last, passed = o["last_bid"], o["passed"]
    for a in obs["auction"]:
        r = rel(int(a["seat"]))
        words = a["action"].split()
        if words[0] in ("bid", "blind") and len(words) == 2:
            v[last + r] = int(words[1]) / 400.0
        elif words[0] == "pass":
            v[passed + r] = 1.0
    for name, scale in (("totals", 1000.0), ("hand_sizes", 10.0), ("tricks_won", 8.0),
                        ("points_won", 120.0)):
        base = o[name]
        for s, x in enumerate(obs[name]):
            v[base + rel(s)] = x / scale
    for st in obs["seat_states"]:
        r = rel(int(st["seat"]))
        v[o["bolts"] + r] = st["bolts"] / 3.0
        v[o["bombs_used"] + r] = st["bombs_used"] / 3.0
        v[o["on_barrel"] + r] = float(st["on_barrel"])
        v[o["barrel_deals"] + r] = st["barrel_deals"] / 3.0
        v[o["blind"] + r] = float(st["blind"])
        v[o["looked"] + r] = float(st["looked"])
    base = o["sizes"]
    talon = obs["talon_size"] if "talon_size" in obs else obs["talon_count"]
    banks = [*obs["bank_sizes"], 0, 0]
    v[base] = talon / 12.0
    v[base + 1] = obs["stock_size"] / 12.0
    v[base + 2] = banks[0] / 12.0
    v[base + 3] = banks[1] / 12.0
    v[base + 4] = obs["deal_number"] / 100.0
    lottery = obs["lottery"]
    if lottery:
        base = o["lottery"]
        v[base + rel(int(lottery["organiser"]))] = 1.0
        for gs in lottery["guesses"]:
            v[base + 5 + 2 * rel(int(gs["seat"])) + (0 if gs["color"] == "red" else 1)] = 1.0
        if lottery["picked"]:
            v[base + 13 + card[lottery["picked"]]] = 1.0
    else:
        v[o["lottery"] + 4] = 1.0
    return v


def legal_texts_mask(texts: Sequence[str]) -> Mask:
    """`legal_mask` for legal actions given as text (the SDK's `obs.legal_texts`)."""
    from arena.game.actions import parse_action

    return legal_mask(parse_action(t) for t in texts)
