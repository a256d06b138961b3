"""A fixed-size numpy encoding of one seat's observation, and a fixed action space.

    from arena.env.encoding import encode, action_index, legal_mask, SIZE, ACTIONS

    vec = encode(obs)                       # float32[SIZE], from the observation only
    mask = legal_mask(legal_actions)        # int8[ACTIONS], 1 where legal
    action = action_at(i)                   # the engine Action of index i

`obs` is the seat's observation as plain data: the engine's
`Observation.as_mapping()` / `to_dict()` or the SDK's `obs.data` (either
name of the talon count). Nothing else is read, so the vector is a function
of what the seat may know (docs/rules.md#hidden-information) and identical, byte for byte, for
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


def _interned() -> dict[int, tuple[Action, int]]:
    """The engine's interned actions (the ones legal_actions() hands out)
    by identity: a frozen dataclass hashes its fields on every lookup, an
    id() is a pointer. Each entry keeps its action, so no id is reused."""
    from arena.game import core

    out: dict[int, tuple[Action, int]] = {}
    values: list[Action] = [*core.PLAYS, *core.PLAY_MARRIAGE, *core.PLAY_ACES, core.PASS,
                            core.REDEAL_ACTION, core.CONCEDE, core.LOTTERY_ACTION, *core.GUESSES,
                            core.BLIND_FIXED]
    for amount in AMOUNTS:
        values += [core.bid_action(amount), core.contract_action(amount), core.blind_action(amount)]
    for c in DECK:
        values += [core.give_action(c, to) for to in range(4)]
    for a in values:
        out[id(a)] = (a, _INDEX[a])
    return out


_BY_ID = _interned()


def legal_mask(legal: Iterable[Action]) -> Mask:
    """int8[ACTIONS]: 1 at the index of each legal action."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    by_id = _BY_ID
    index = _INDEX
    at = []
    for a in legal:
        hit = by_id.get(id(a))
        at.append(hit[1] if hit is not None and hit[0] is a else index[a])
    mask[at] = 1
    return mask


# ---------------------------------------------------------------- the observation
PHASES: tuple[str, ...] = ("lottery", "redeal", "blind", "bidding", "bank", "exchange",
                           "contract", "play", "game_over")
_PHASE = {p: i for i, p in enumerate(PHASES)}
_SUIT_SLOT = {"": 0, "C": 1, "D": 2, "H": 3, "S": 4}
# A declared marriage's suit; "A" is the ace marriage (docs/rules.md#options ace_marriage).
_MARRIAGE_SLOT = {"C": 0, "D": 1, "H": 2, "S": 3, "A": 4}
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
    ("marriages", 4 * 5),      # per relative seat x C, D, H, S, A (the ace marriage): declared
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
# _REL[n][me][seat]: the relative slot of `seat` seen from `me` in an n-player game.
_REL = {n: [[(s - me) % n for s in range(n)] for me in range(n)] for n in (2, 3, 4)}
_SCALED = (("totals", 1000.0), ("hand_sizes", 10.0), ("tricks_won", 8.0), ("points_won", 120.0))


def encode(obs: Mapping[str, Any], out: Vector | None = None) -> Vector:
    """float32[SIZE] for one seat's observation (see LAYOUT, docs/learning.md).
    `out`, if given, is filled in place (it is zeroed first) and returned."""
    # Hot path of every environment step: the slots are gathered in two
    # plain lists (ones, and scaled values) and written with two numpy
    # calls; a numpy item assignment per slot cost about twice as much.
    me = int(obs["seat"])
    n = int(obs["players"])
    card = _CARD
    o = _O
    rel = _REL[n][me]
    ones: list[int] = [o["players"] + _PLAYERS_SLOT[n], o["phase"] + _PHASE[obs["phase"]]]
    put = ones.append
    at: list[int] = []
    val: list[float] = []
    base = o["hand"]
    ones += [base + card[x] for x in obs["hand"]]
    base = o["talon"]
    ones += [base + card[x] for x in obs["talon"]]
    given = obs["given"]
    if given:
        counts = [0, 0, 0, 0]
        for g in given:
            to = rel[g["to_seat"]]
            counts[to] += 1
            if g["card"]:
                put(o["given_to"] + 24 * to + card[g["card"]])
        base = o["given_count"]
        for r, k in enumerate(counts):
            if k:
                at.append(base + r)
                val.append(float(k))
    base = o["discarded"]
    ones += [base + card[x] for x in obs["discarded"]]
    played, number = o["played_by"], o["trick_number"]
    for k, t in enumerate(obs["tricks"], 1):
        scaled = k / 12.0
        for tc in t["cards"]:
            i = card[tc["card"]]
            put(played + 24 * rel[tc["seat"]] + i)
            at.append(number + i)
            val.append(scaled)
    base = o["trick"]
    ones += [base + 24 * rel[tc["seat"]] + card[tc["card"]] for tc in obs["trick"]]
    base = o["marriages"]
    ones += [base + 5 * rel[m["seat"]] + _MARRIAGE_SLOT[m["suit"]] for m in obs["marriages"]]
    put(o["trump"] + _SUIT_SLOT[obs["trump"]])
    for name in ("to_act", "leader", "bidder", "declarer", "forced_seat"):
        value = obs[name]
        put(o[name] + (4 if value is None else rel[value]))
    put(o["dealer"] + rel[obs["dealer"]])
    base = o["active"]
    ones += [base + rel[x] for x in obs["active_seats"]]
    if obs["bid"] is not None:
        at.append(o["bid"])
        val.append(obs["bid"] / 400.0)
    if obs["contract"] is not None:
        at.append(o["contract"])
        val.append(obs["contract"] / 400.0)
    last, passed = o["last_bid"], o["passed"]
    for a in obs["auction"]:
        r = rel[a["seat"]]
        text = a["action"]
        if text == "pass":
            put(passed + r)
        elif text.startswith(("bid ", "blind ")):
            at.append(last + r)
            val.append(int(text.rsplit(" ", 1)[1]) / 400.0)
    for name, scale in _SCALED:
        base = o[name]
        for x, r in zip(obs[name], rel, strict=False):
            if x:
                at.append(base + r)
                val.append(x / scale)
    for st in obs["seat_states"]:
        r = rel[st["seat"]]
        if st["bolts"]:
            at.append(o["bolts"] + r)
            val.append(st["bolts"] / 3.0)
        if st["bombs_used"]:
            at.append(o["bombs_used"] + r)
            val.append(st["bombs_used"] / 3.0)
        if st["on_barrel"]:
            put(o["on_barrel"] + r)
            at.append(o["barrel_deals"] + r)
            val.append(st["barrel_deals"] / 3.0)
        if st["blind"]:
            put(o["blind"] + r)
        if st["looked"]:
            put(o["looked"] + r)
    base = o["sizes"]
    talon = obs["talon_size"] if "talon_size" in obs else obs["talon_count"]
    banks = [*obs["bank_sizes"], 0, 0]
    at += [base, base + 1, base + 2, base + 3, base + 4]
    val += [talon / 12.0, obs["stock_size"] / 12.0, banks[0] / 12.0, banks[1] / 12.0,
            obs["deal_number"] / 100.0]
    lottery = obs["lottery"]
    base = o["lottery"]
    if lottery:
        put(base + rel[lottery["organiser"]])
        for gs in lottery["guesses"]:
            put(base + 5 + 2 * rel[gs["seat"]] + (0 if gs["color"] == "red" else 1))
        if lottery["picked"]:
            put(base + 13 + card[lottery["picked"]])
    else:
        put(base + 4)
    v = np.zeros(SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        v.fill(0.0)
    v[ones] = 1.0
    v[at] = val
    return v


def legal_texts_mask(texts: Sequence[str]) -> Mask:
    """`legal_mask` for legal actions given as text (the SDK's `obs.legal_texts`)."""
    from arena.game.actions import parse_action

    return legal_mask(parse_action(t) for t in texts)
