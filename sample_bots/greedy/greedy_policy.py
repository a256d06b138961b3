"""The greedy bot's policy: a pure function of what one seat may see.

    choose(observation, legal_texts) -> one of legal_texts

`observation` is the seat's observation as plain data (the keys of
`arena.game`'s `Observation.to_dict()`, which are also the field names of the
protocol's `Observation` message); `legal_texts` are the legal actions in
RULES.md §7 notation. Nothing else is used: no rules object, no memory, no
randomness. Rule variants (must-beat, trumping, bid steps, caps, bombs...)
are respected because only legal actions are ever chosen, so one policy
serves every preset.

The heuristic, phase by phase:
- bidding: estimate the points the hand can make as declarer (sure tricks,
  aces and tens, marriages, the talon's expected help) and bid up to it;
- exchange: give away the cards worth least to keep (9s, jacks, lone low
  cards), never a card of its own marriage, never an ace if it can help it;
- contract: raise only when the 8-card hand clearly makes more; concede
  (bomb) when the hand clearly cannot make the contract;
- play: declare marriages as soon as it leads (after winning a trick), cash
  sure winners, otherwise lead low; when following, win with the cheapest
  card that wins, smear points onto the partner opponent's winning trick,
  and throw the cheapest card when it cannot win.
It uses only the standard library so the bot needs nothing but `arena.sdk`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Obs = Mapping[str, Any]

RANKS = "ATKQJ9"                    # trick order, high to low (RULES.md §1)
SUITS = "CDHS"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
STRENGTH = {r: 5 - i for i, r in enumerate(RANKS)}
MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}
DECK = tuple(r + s for s in SUITS for r in RANKS)

# Points two opponents add, on average, to a trick the declarer wins: they
# follow suit with what they hold (tuned by play against random bots).
_OPPONENT_TRICK_POINTS = 7
# What the 3 talon cards add to a 7-card hand before the exchange, on average.
_TALON_HELP = 12
# Safety margins: bid only up to the estimate minus _BID_MARGIN, raise the
# contract only to the 8-card estimate minus _RAISE_MARGIN (a failed contract
# costs its full value).
_BID_MARGIN = 20
_RAISE_MARGIN = 40


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def points(card: str) -> int:
    return POINTS[card[0]]


def strength(card: str) -> int:
    return STRENGTH[card[0]]


# ---------------------------------------------------------------- hand value


def marriages_in(hand: Iterable[str]) -> list[str]:
    """Suits in which `hand` holds both K and Q, most valuable first."""
    cards = set(hand)
    held = [s for s in SUITS if "K" + s in cards and "Q" + s in cards]
    return sorted(held, key=lambda s: -MARRIAGE[s])


def estimate(hand: Sequence[str], with_talon: bool) -> int:
    """Points this hand should make as declarer, before any card is played.

    Sure tricks are counted per suit from the top (A, then T behind it...);
    each brings its own points plus what the opponents drop on it. Marriages
    count fully when an ace gives the lead to declare them (RULES.md §1:
    declared only when leading trick 2 or later), else in part. Cards that
    are not sure winners still bring part of their points."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in hand:
        by_suit[suit(c)].append(c)
    total = 0.0
    aces = 0
    for cards in by_suit.values():
        cards.sort(key=strength, reverse=True)
        top = 0
        for i, c in enumerate(cards):
            if rank(c) == RANKS[i]:
                top += 1
            else:
                break
        for c in cards[:top]:
            total += points(c) + _OPPONENT_TRICK_POINTS
        for c in cards[top:]:
            total += points(c) * 0.4
        if cards and rank(cards[0]) == "A":
            aces += 1
        # A long suit wins late tricks once the others are out of it.
        if len(cards) >= 4:
            total += 6 * (len(cards) - 3)
    held = marriages_in(hand)
    for s in held:
        value = MARRIAGE[s]
        total += value if aces or len(held) > 1 else value * 0.6
        # The marriage suit becomes trump: its K and Q then win tricks.
        total += 4
    if with_talon:
        total += _TALON_HELP
        cards = set(hand)
        # A lone K or Q may find its partner among the 3 unseen of 17 cards.
        for s in SUITS:
            if ("K" + s in cards) != ("Q" + s in cards):
                total += MARRIAGE[s] * 3 / 17 * 0.8
    return int(total)


def keep_value(card: str, hand: Sequence[str]) -> float:
    """How much the declarer wants to keep `card` (higher = keep)."""
    cards = set(hand)
    s, r = suit(card), rank(card)
    if r in "KQ" and "K" + s in cards and "Q" + s in cards:
        return 100 + MARRIAGE[s] / 10            # never split its own marriage
    if r == "A":
        return 60
    if r == "T":
        return 45 if "A" + s in cards else 20     # a ten behind its ace is a winner
    mates = sum(1 for c in hand if suit(c) == s)
    # Low cards of a long suit are worth more: they win when others are void.
    return points(card) + strength(card) * 0.5 + (3 if mates >= 4 else 0)


# ---------------------------------------------------------------- card tracking


class View:
    """Derived facts about the play phase, from the observation only."""

    def __init__(self, obs: Obs) -> None:
        self.obs = obs
        self.me: int = int(obs["seat"])
        self.hand: list[str] = list(obs.get("hand") or [])
        self.trump: str = obs.get("trump") or ""
        if self.trump and self.trump not in SUITS:
            self.trump = ""
        self.trick: list[tuple[int, str]] = [
            (int(tc["seat"]), str(tc["card"])) for tc in obs.get("trick") or []
        ]
        active = obs.get("active_seats") or list(range(int(obs.get("players") or 3)))
        self.active: list[int] = [int(a) for a in active]
        declarer = obs.get("declarer")
        self.declarer: int | None = None if declarer is None else int(declarer)
        seen: set[str] = set(self.hand)
        self.voids: dict[int, set[str]] = {a: set() for a in self.active}
        for trick in obs.get("tricks") or []:
            played = [(int(tc["seat"]), str(tc["card"])) for tc in trick.get("cards") or []]
            self._note_voids(played)
            seen.update(c for _, c in played)
        self._note_voids(self.trick)
        seen.update(c for _, c in self.trick)
        for d in obs.get("discarded") or []:
            seen.add(str(d))
        # Cards this seat gave away are in a known hand, not "unseen", but they
        # may still beat ours: keep them among the outstanding cards.
        self.outstanding: set[str] = set(DECK) - seen

    def _note_voids(self, played: list[tuple[int, str]]) -> None:
        if not played:
            return
        led = suit(played[0][1])
        for seat, card in played[1:]:
            if suit(card) != led and seat in self.voids:
                self.voids[seat].add(led)

    # --- who plays when

    def players_after_me(self) -> list[int]:
        """Seats still to play in this trick after this seat, in order."""
        n = len(self.active)
        if not self.trick:
            start = self.active.index(self.me) if self.me in self.active else 0
        else:
            start = self.active.index(self.trick[0][0]) if self.trick[0][0] in self.active else 0
        order = [self.active[(start + i) % n] for i in range(n)]
        pos = order.index(self.me) if self.me in order else len(self.trick)
        return order[pos + 1:]

    def is_partner(self, seat: int) -> bool:
        """Opponents of the declarer play together (RULES.md: declarer vs the rest)."""
        if seat == self.me:
            return True
        if self.declarer is None:
            return False
        return self.me != self.declarer and seat != self.declarer

    # --- trick arithmetic

    def beats(self, card: str, best: str, led: str) -> bool:
        """Would `card` beat the currently winning `best` in a trick led in `led`?"""
        if suit(card) == suit(best):
            return strength(card) > strength(best)
        return bool(self.trump and suit(card) == self.trump)

    def winning(self) -> tuple[int, str] | None:
        if not self.trick:
            return None
        led = suit(self.trick[0][1])
        seat, best = self.trick[0]
        for s, c in self.trick[1:]:
            if self.beats(c, best, led):
                seat, best = s, c
        return seat, best

    def trick_points(self) -> int:
        return sum(points(c) for _, c in self.trick)

    def could_be_beaten(self, card: str, led: str, by: list[int]) -> bool:
        """Might any of the seats `by` (playing later) beat `card`?"""
        enemies = [s for s in by if not self.is_partner(s)]
        if not enemies:
            return False
        higher_same = any(
            suit(c) == suit(card) and strength(c) > strength(card) for c in self.outstanding
        )
        if higher_same and not all(suit(card) in self.voids.get(e, set()) for e in enemies):
            return True
        if self.trump and suit(card) != self.trump:
            trumps_out = any(suit(c) == self.trump for c in self.outstanding)
            # A seat void in the led suit may trump (must_trump makes it likely).
            if trumps_out and any(
                led in self.voids.get(e, set()) or suit(card) in self.voids.get(e, set())
                for e in enemies
            ):
                return True
        return False

    def is_sure_lead(self, card: str) -> bool:
        """A lead that no later seat can beat, as far as this seat can tell."""
        return not self.could_be_beaten(card, suit(card), self.players_after_me())


# ---------------------------------------------------------------- phases


def _amount(text: str) -> int:
    return int(text.split()[1])


def _card_of(text: str) -> str:
    return text.split()[1].upper()


def choose_bid(obs: Obs, legal: Sequence[str]) -> str:
    bids = sorted((t for t in legal if t.startswith("bid ")), key=_amount)
    hand = list(obs.get("hand") or [])
    if not bids:
        return "pass" if "pass" in legal else legal[0]
    if "pass" not in legal:                        # the compulsory opening
        return bids[0]
    if not hand:
        return "pass"                              # blind phases: do not gamble
    value = estimate(hand, with_talon=len(hand) < 8)
    affordable = [t for t in bids if _amount(t) <= value - _BID_MARGIN]
    return affordable[0] if affordable else "pass"


def choose_give(obs: Obs, legal: Sequence[str]) -> str:
    hand = list(obs.get("hand") or [])
    gives = [t for t in legal if t.startswith("give ")]
    # Same card may go to either opponent; give the least valuable card.
    # The card itself is gone either way, so prefer fewer points for them.
    return min(gives, key=lambda t: (keep_value(_card_of(t), hand), points(_card_of(t)), t))


def choose_discard(obs: Obs, legal: Sequence[str]) -> str:
    hand = list(obs.get("hand") or [])
    discards = [t for t in legal if t.startswith("discard ")]

    # Discarded cards count for the declarer (RULES.md §2 exchange=discard):
    # shed cards that would not win a trick, points included.
    def cost(t: str) -> float:
        return sum(keep_value(c.upper(), hand) - points(c.upper()) * 0.5 for c in t.split()[1:])

    return min(discards, key=lambda t: (cost(t), t))


def choose_contract(obs: Obs, legal: Sequence[str]) -> str:
    hand = list(obs.get("hand") or [])
    contracts = sorted((t for t in legal if t.startswith("contract ")), key=_amount)
    value = estimate(hand, with_talon=False)
    if "concede" in legal and contracts and value < _amount(contracts[0]) - 30:
        return "concede"
    if not contracts:
        return "concede" if "concede" in legal and value < 80 else legal[0]
    # Raise only with a clear margin: a failed contract costs its full value.
    fitting = [t for t in contracts if _amount(t) <= value - _RAISE_MARGIN]
    return fitting[-1] if fitting else contracts[0]


def _lead(view: View, plays: list[str]) -> str:
    declaring = [t for t in plays if t.endswith((" marriage", " aces"))]
    if declaring:
        hand = set(view.hand)

        def marriage_key(t: str) -> tuple[int, int]:
            c = _card_of(t)
            value = 200 if t.endswith(" aces") else MARRIAGE[suit(c)]
            # Lead the king when the ace and ten of that suit guard it, else the queen.
            guarded = "A" + suit(c) in hand and "T" + suit(c) in hand
            prefer = 1 if (rank(c) == "K") == guarded else 0
            return (value, prefer)

        return max(declaring, key=marriage_key)
    plain = [t for t in plays if len(t.split()) == 2]
    candidates = plain or plays
    cards = {t: _card_of(t) for t in candidates}
    marriage_suits = set(marriages_in(view.hand))
    sure = [t for t in candidates if view.is_sure_lead(cards[t])
            and not (rank(cards[t]) in "KQ" and suit(cards[t]) in marriage_suits)]
    if sure:
        # Cash the richest sure winner; trumps last, they guard the other suits.
        return max(sure, key=lambda t: (suit(cards[t]) != view.trump, points(cards[t]), t))

    def lead_cost(t: str) -> tuple[int, int, int, str]:
        c = cards[t]
        in_marriage = rank(c) in "KQ" and suit(c) in marriage_suits
        return (int(in_marriage), int(suit(c) == view.trump), points(c) * 10 + strength(c), t)

    return min(candidates, key=lead_cost)


def _follow(view: View, plays: list[str]) -> str:
    plain = [t for t in plays if len(t.split()) == 2] or plays
    cards = {t: _card_of(t) for t in plain}
    led = suit(view.trick[0][1])
    win = view.winning()
    assert win is not None
    win_seat, best = win
    after = view.players_after_me()
    marriage_suits = set(marriages_in(view.hand))

    def cheap(t: str) -> tuple[int, int, int, str]:
        c = cards[t]
        in_marriage = rank(c) in "KQ" and suit(c) in marriage_suits
        return (int(in_marriage), points(c), strength(c), t)

    partner_winning = win_seat != view.me and view.is_partner(win_seat)
    if partner_winning:
        safe = not view.could_be_beaten(best, led, after)
        if safe:
            # Smear: load the partner's trick with points, a ten before an ace
            # (an ace may still win a trick of its own), never a marriage card.
            def smear(t: str) -> tuple[int, float, str]:
                c = cards[t]
                in_marriage = rank(c) in "KQ" and suit(c) in marriage_suits
                value = 9.5 if rank(c) == "A" and view.is_sure_lead(c) else points(c)
                return (-int(in_marriage), value, t)

            return max(plain, key=smear)
        return min(plain, key=cheap)

    winners = [t for t in plain if view.beats(cards[t], best, led)]
    if winners:
        safe = [t for t in winners if not view.could_be_beaten(cards[t], led, after)]
        if safe:
            # The cheapest card that still takes the trick for sure.
            return min(safe, key=lambda t: (strength(cards[t]), points(cards[t]), t))
        at_stake = view.trick_points() + max(points(cards[t]) for t in winners)
        if at_stake >= 10:
            return max(winners, key=lambda t: (strength(cards[t]), t))
    return min(plain, key=cheap)


def choose_play(obs: Obs, legal: Sequence[str]) -> str:
    plays = [t for t in legal if t.startswith("play ")]
    if not plays:
        return legal[0]
    view = View(obs)
    return _lead(view, plays) if not view.trick else _follow(view, plays)


def choose_offer(obs: Obs, legal: Sequence[str]) -> str:
    """Redeal, blind, lottery, bank and other side decisions."""
    hand = list(obs.get("hand") or [])
    if "redeal" in legal:
        # Offered only for a poor hand (RULES.md §3); take it unless it can bid.
        return "redeal" if estimate(hand, with_talon=True) < 110 else "pass"
    if "lottery" in legal:
        return "lottery"
    guesses = [t for t in legal if t.startswith("guess ")]
    if guesses:
        lottery = obs.get("lottery") or {}
        taken = {str(g.get("color")) for g in lottery.get("guesses") or []}
        # Guess the colour nobody took: then one of the guessers is sure to win.
        fresh = [t for t in guesses if t.split()[1] not in taken]
        return (fresh or guesses)[0]
    picks = [t for t in legal if t.startswith("pick ")]
    if picks:
        lottery = obs.get("lottery") or {}
        taken = {str(g.get("color")) for g in lottery.get("guesses") or []}

        def colour(t: str) -> str:
            return "red" if suit(_card_of(t)) in "DH" else "black"

        unguessed = [t for t in picks if colour(t) not in taken]
        return (unguessed or picks)[0]
    if "pass" in legal:
        return "pass"
    return legal[0]


def choose(observation: Obs, legal_texts: Sequence[str]) -> str:
    """One legal action, in RULES.md §7 notation, for this observation."""
    legal = list(legal_texts)
    if not legal:
        raise ValueError("choose: no legal actions given")
    if len(legal) == 1:
        return legal[0]
    heads = {t.split()[0] for t in legal}
    if heads & {"give"}:
        return choose_give(observation, legal)
    if heads & {"discard"}:
        return choose_discard(observation, legal)
    if heads & {"contract"} or ("concede" in heads and "play" not in heads):
        return choose_contract(observation, legal)
    if heads & {"play"}:
        if "concede" in legal:
            hand = list(observation.get("hand") or [])
            contract = observation.get("contract")
            if contract is not None and estimate(hand, with_talon=False) < int(contract) - 30:
                return "concede"
        return choose_play(observation, [t for t in legal if t != "concede"])
    if heads & {"bid"}:
        return choose_bid(observation, legal)
    return choose_offer(observation, legal)
