"""Trick play on bitmasks, for simulating many deals per decision.

The engine (arena.game) is the referee of what is legal; this module is the
search bot's own fast copy of the trick rules (RULES.md §1 Play, Marriages;
§2 must_trump, must_beat, auto_declare, ace_marriage), checked against the
engine move by move in tests/sample_bots/test_search_bot.py. A hand is an
int with bit i set for card i of arena.game's DECK (suits C, D, H, S; in
each suit A, T, K, Q, J, 9: a lower index is a stronger card).

`Play` is one deal's trick phase with every hand known (a sampled deal);
`rollout` plays it to the end with `policy`, a quick heuristic that sees
all hands (double dummy), and `solve` searches the last tricks exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

POINTS = (11, 10, 4, 3, 2, 0) * 4
SUIT = tuple(i // 6 for i in range(24))
RANK = tuple(i % 6 for i in range(24))            # 0 = ace ... 5 = nine
SUIT_MASK = tuple(0b111111 << (6 * s) for s in range(4))
MARRIAGE_VALUE = (60, 80, 100, 40)                 # C, D, H, S (RULES.md §1)
KING, QUEEN = 2, 3
ACES = sum(1 << (6 * s) for s in range(4))
NONE = -1


# The set bits of every 12-bit half of a hand, lowest first: bits() is the
# rollouts' most frequent call, and two look-ups beat a loop over the bits.
_LOW = tuple(tuple(i for i in range(12) if m >> i & 1) for m in range(4096))
_HIGH = tuple(tuple(i + 12 for i in range(12) if m >> i & 1) for m in range(4096))


def bits(mask: int) -> tuple[int, ...]:
    """The card indices of `mask`, lowest first."""
    return _LOW[mask & 4095] + _HIGH[mask >> 12]


def mask_of(indices: Sequence[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def strongest(mask: int) -> int:
    """The strongest card of a one-suit mask (lowest index)."""
    return (mask & -mask).bit_length() - 1


def weakest(mask: int) -> int:
    return mask.bit_length() - 1


class Rules:
    """The trick rules that matter here, from an arena.game Rules."""

    __slots__ = ("ace_marriage", "auto_declare", "must_beat", "must_trump")

    def __init__(self, must_trump: bool, must_beat: str, auto_declare: bool, ace_marriage: int) -> None:
        self.must_trump = must_trump
        self.must_beat = {"none": 0, "suit": 1, "suit_and_trump": 2}[must_beat]
        self.auto_declare = auto_declare
        self.ace_marriage = ace_marriage


class Play:
    """A trick phase in progress with every hand known. Mutable: `copy()` first."""

    __slots__ = ("bonus", "declarer", "hands", "leader", "nxt", "points", "rules", "to_act",
                 "trick", "tricks_done", "tricks_won", "trump")

    def __init__(self, rules: Rules, hands: list[int], nxt: list[int], declarer: int, to_act: int,
                 leader: int, trick: list[tuple[int, int]], trump: int, points: list[int],
                 bonus: list[int], tricks_won: list[int], tricks_done: int) -> None:
        self.rules = rules
        self.hands = hands
        self.nxt = nxt              # per seat, the next active seat clockwise
        self.declarer = declarer
        self.to_act = to_act
        self.leader = leader
        self.trick = trick          # (seat, card) played so far in this trick
        self.trump = trump          # suit number or NONE
        self.points = points        # card points won per seat
        self.bonus = bonus          # marriages declared per seat
        self.tricks_won = tricks_won
        self.tricks_done = tricks_done

    def copy(self) -> Play:
        p = Play.__new__(Play)
        p.rules = self.rules
        p.hands = self.hands[:]
        p.nxt = self.nxt
        p.declarer = self.declarer
        p.to_act = self.to_act
        p.leader = self.leader
        p.trick = self.trick[:]
        p.trump = self.trump
        p.points = self.points[:]
        p.bonus = self.bonus[:]
        p.tricks_won = self.tricks_won[:]
        p.tricks_done = self.tricks_done
        return p

    @property
    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_act]

    def legal(self) -> int:
        """The legal cards of the seat to act, as a mask (RULES.md §2)."""
        hand = self.hands[self.to_act]
        trick = self.trick
        if not trick:
            return hand
        led_card = trick[0][1]
        led = SUIT[led_card]
        follow = hand & SUIT_MASK[led]
        r = self.rules
        trump = self.trump
        if follow:
            if r.must_beat:
                trumped = trump != NONE and led != trump and any(SUIT[c] == trump for _, c in trick)
                if not trumped:
                    top = min(c for _, c in trick if SUIT[c] == led)
                    higher = follow & ((1 << top) - 1)
                    if higher:
                        return higher
            return follow
        if r.must_trump and trump != NONE:
            trumps = hand & SUIT_MASK[trump]
            if trumps:
                if r.must_beat == 2:
                    tops = [c for _, c in trick if SUIT[c] == trump]
                    if tops:
                        higher = trumps & ((1 << min(tops)) - 1)
                        if higher:
                            return higher
                return trumps
        return hand

    def can_declare(self, card: int) -> str:
        """"marriage"/"aces" if leading `card` may declare (RULES.md §1), else ""."""
        if self.trick or not self.tricks_done:
            return ""
        hand = self.hands[self.to_act]
        rank = RANK[card]
        if rank in (KING, QUEEN):
            partner = card + 1 if rank == KING else card - 1
            if hand >> partner & 1:
                return "marriage"
        elif rank == 0 and self.rules.ace_marriage and hand & ACES == ACES:
            return "aces"
        return ""

    def play(self, card: int, declare: str = "") -> None:
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        if declare == "marriage":
            suit = SUIT[card]
            self.trump = suit
            self.bonus[seat] += MARRIAGE_VALUE[suit]
        elif declare == "aces":
            self.bonus[seat] += self.rules.ace_marriage
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < 3:
            self.to_act = self.nxt[seat]
            return
        # winner_of, inlined (once per simulated trick).
        trump = self.trump
        (s0, best), (s1, c1), (s2, c2) = trick
        winner = s0
        if SUIT[c1] == SUIT[best]:
            if c1 < best:
                best, winner = c1, s1
        elif SUIT[c1] == trump:
            best, winner = c1, s1
        if SUIT[c2] == SUIT[best]:
            if c2 < best:
                winner = s2
        elif SUIT[c2] == trump:
            winner = s2
        self.points[winner] += POINTS[trick[0][1]] + POINTS[c1] + POINTS[c2]
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        self.trick = []
        self.leader = self.to_act = winner

    def winning(self) -> tuple[int, int]:
        """(seat, card) winning the trick so far."""
        t = self.trick
        i = winner_index(t, self.trump)
        return t[i]


def winner_index(trick: list[tuple[int, int]], trump: int) -> int:
    best = trick[0][1]
    bi = 0
    for i in range(1, len(trick)):
        c = trick[i][1]
        if SUIT[c] == SUIT[best]:
            if c < best:
                best, bi = c, i
        elif SUIT[c] == trump:
            best, bi = c, i
    return bi


def winner_of(trick: list[tuple[int, int]], trump: int) -> int:
    return trick[winner_index(trick, trump)][0]


def beats(card: int, best: int, trump: int) -> bool:
    if SUIT[card] == SUIT[best]:
        return card < best
    return SUIT[card] == trump


# ---------------------------------------------------------------- default policy


def _team(p: Play, a: int, b: int) -> bool:
    return (a == p.declarer) == (b == p.declarer)


def _sure(p: Play, card: int, seat: int) -> bool:
    """No seat after the one to act, in this trick, that is not on `seat`'s
    side can beat `card` (every hand is known)."""
    nxt = p.nxt
    s = nxt[p.to_act]
    trick = p.trick
    suit = SUIT[card]
    led = SUIT[trick[0][1]] if trick else suit
    trump = p.trump
    mine = seat == p.declarer
    higher = SUIT_MASK[suit] & ((1 << card) - 1)
    led_mask = SUIT_MASK[led]
    for _ in range(2 - len(trick)):
        if (s == p.declarer) != mine:
            hand = p.hands[s]
            if hand & higher and (suit == led or not hand & led_mask):
                return False
            if (trump != NONE and suit != trump and not hand & led_mask
                    and hand & SUIT_MASK[trump]):
                return False
        s = nxt[s]
    return True


# policy()'s sort keys per card (and per trump suit, NONE last), looked up
# rather than built by a lambda for every card of every simulated trick.
_THROW = tuple((POINTS[x], RANK[x] in (KING, QUEEN), -x) for x in range(24))
_SMEAR = tuple((POINTS[x] if RANK[x] not in (KING, QUEEN) else POINTS[x] - 5, -x)
               for x in range(24))
_CHEAP_WIN = tuple(tuple((SUIT[x] == t, POINTS[x], -x) for x in range(24)) for t in (0, 1, 2, 3, NONE))
_CASH = tuple(tuple((SUIT[x] != t, POINTS[x], -x) for x in range(24)) for t in (0, 1, 2, 3, NONE))


def policy(p: Play) -> tuple[int, str]:
    """A quick double-dummy heuristic: declare marriages, cash sure winners,
    win cheaply, smear points on a partner's sure trick, else throw cheap."""
    seat = p.to_act
    legal = p.legal()
    cards = bits(legal)
    if len(cards) == 1:
        c = cards[0]
        return c, (p.can_declare(c) if p.rules.auto_declare else "")
    if not p.trick:
        best_m = NONE
        for c in cards:
            if RANK[c] == QUEEN and p.can_declare(c) and (
                    best_m == NONE or MARRIAGE_VALUE[SUIT[c]] > MARRIAGE_VALUE[SUIT[best_m]]):
                best_m = c
        if best_m != NONE:
            return best_m, "marriage"
        sure = [c for c in cards if _sure(p, c, seat)]
        if sure:
            c = max(sure, key=_CASH[p.trump].__getitem__)
        else:
            c = min(cards, key=lambda x: (SUIT[x] == p.trump, RANK[x] in (KING, QUEEN)
                                          and p.can_declare(x) != "", POINTS[x], -x))
        return c, (p.can_declare(c) if p.rules.auto_declare else "")
    wseat, wcard = p.winning()
    trump = p.trump
    if _team(p, wseat, seat) and (len(p.trick) == 2 or _sure(p, wcard, wseat)):
        # Smear: the most points that do not break a marriage.
        return max(cards, key=_SMEAR.__getitem__), ""
    wsuit = SUIT[wcard]
    winners = [c for c in cards if (c < wcard if SUIT[c] == wsuit else SUIT[c] == trump)]
    if winners:
        if len(p.trick) == 2:
            return min(winners, key=_CHEAP_WIN[trump].__getitem__), ""
        safe = [c for c in winners if _sure(p, c, seat)]
        if safe:
            return min(safe, key=_CHEAP_WIN[trump].__getitem__), ""
    return min(cards, key=_THROW.__getitem__), ""


def rollout(p: Play, pick: Callable[[Play], tuple[int, str]] = policy) -> Play:
    """Play `p` (changed in place) to the end of the deal."""
    while p.trick or p.hands[p.to_act]:
        c, d = pick(p)
        p.play(c, d)
    return p


def moves(p: Play) -> list[tuple[int, str]]:
    """Every legal (card, declare) of the seat to act, as the engine lists them."""
    out = []
    for c in bits(p.legal()):
        d = p.can_declare(c)
        if d:
            if not p.rules.auto_declare:
                out.append((c, ""))
            out.append((c, d))
        else:
            out.append((c, ""))
    return out


def solve(p: Play, value: Callable[[Play], float], me: int, depth_cards: int) -> float:
    """Exact search of the rest of the deal (only when few cards are left):
    seats on `me`'s side maximise `value`, the others minimise it, with
    alpha-beta; `value` scores a finished deal for `me`."""
    del depth_cards

    def search(q: Play, alpha: float, beta: float) -> float:
        if not q.trick and not q.hands[q.to_act]:
            return value(q)
        mine = _team(q, q.to_act, me)
        best = float("-inf") if mine else float("inf")
        for c, d in moves(q):
            r = q.copy()
            r.play(c, d)
            v = search(r, alpha, beta)
            if mine:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    return search(p, float("-inf"), float("inf"))
