"""Belief sampling: deals of the cards a seat cannot see, consistent with
everything its observation shows, and the engine state for such a deal.

    from arena.sdk.belief import Sampler

    rules = rules_from_pb(start.rules)          # in Bot.on_match_start
    sampler = Sampler(rules, obs.data)          # once per decision
    for deal in sampler.deals(40, random.Random(seed)):
        deal.hands[s]                           # every seat's cards now
        state = sampler.state(deal)             # an arena.game GameState here
        ...                                     # simulate with the real rules

What a sampled deal respects (docs/rules.md#core, docs/rules.md#options, docs/rules.md#option-details, docs/rules.md#hidden-information): the seat's own hand,
every card played and by whom, the talon once revealed, the cards it gave
and was given, each seat's card count, and what the rules imply from the
play: a seat that did not follow the led suit holds none of it; under
`must_trump` a seat that neither followed nor trumped holds no trump;
under `must_beat` a seat that followed without beating holds no higher card
of the suit (and, with `suit_and_trump`, one that under-trumped holds no
higher trump); a seat that declared a marriage still holds the other card
of it unless it played it; with `auto_declare` a seat that led a K or Q
without declaring did not hold its partner; every bid above 120 (and the
contract) was within the bidder's marriage cap; a face-down talon would
not have been redealt by itself (the Czech talon conditions). Every
sampled deal re-plays through the engine to this very observation
(`Sampler.state`), which the tests check.

Weighting: uniform over the assignments of the unseen cards to the places
they can be now (other hands, the face-down talon, the discards) that meet
all of the above: exact counting for the per-card constraints, rejection
for the rest. It does not guess from how the others bid or played beyond
what the rules force (a bot may reweight the samples itself).

Only the observation is read: the same observation and the same random
generator give the same deals, whatever the hidden cards really are.
3-seat deals (3 players, or 4 with the dealer sitting out), a Finnish
lottery included once its nine is picked (the organiser was dealt three 9s
and still holds the one it showed); the 2-player forms and a lottery still
being run raise `BeliefError`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.game.actions import Action
from arena.game.cards import DECK, Card, Rank, Suit
from arena.game.dealing import hand_condition
from arena.game.rules import HAND_CONDITIONS, Rules
from arena.game.state import GameState
from arena.sdk import sampled_state
from arena.sdk.deal import Deal
from arena.sdk.history import PlayRecord, field, plays
from arena.sdk.placing import Places as _Places
from arena.sdk.placing import weighted as _weighted


def rules_from_pb(msg: Any) -> Rules:
    """The match's rules from `MatchStart.rules` (Bot.on_match_start), as the
    engine's `Rules` the sampler needs."""
    from arena.wire import codec  # the wire only for bots that read a MatchStart

    options = codec.rules_options_from_pb(msg)
    options.pop("preset", None)
    return Rules.preset(msg.preset).replace(**options)


class BeliefError(ValueError):
    """No deal could be sampled for this observation (or the form is not supported)."""


_PARTNER = {c: Card(c.suit, Rank.QUEEN if c.rank is Rank.KING else Rank.KING)
            for c in DECK if c.rank in (Rank.KING, Rank.QUEEN)}
_TALON, _OUT = -1, -2  # places that are not seats


def marriage_cap(cards: Sequence[Card]) -> int:
    """docs/rules.md#core bid cap: 120 + the marriages held whole."""
    held = set(cards)
    return 120 + sum(c.suit.marriage_value for c in held
                     if c.rank is Rank.KING and _PARTNER[c] in held)


def _talon_redeals(rules: Rules, talon: Sequence[Card]) -> bool:
    """The talon alone would redeal the deal (docs/rules.md#option-details Czech talon conditions)."""
    nines = sum(1 for c in talon if c.rank is Rank.NINE)
    jacks = sum(1 for c in talon if c.rank is Rank.JACK)
    pts = sum(c.points for c in talon)
    conds = rules.redeal
    if not talon:
        return False
    return (("talon_under_6" in conds and pts < 6) or ("talon_two_nines" in conds and nines >= 2)
            or ("talon_three_jacks" in conds and jacks == 3))


class Sampler:
    """Deals consistent with one observation (see the module's docstring).

    `obs` is the observation as plain data: the SDK's `obs.data` or the
    engine's `Observation.to_dict()`. The constraints are worked out once
    here; `sample` and `deals` then draw from them."""

    def __init__(self, rules: Rules, obs: Mapping[str, Any], max_tries: int = 5000) -> None:
        if not isinstance(rules, Rules):
            raise BeliefError(f"Sampler: rules must be an arena.game Rules, got {type(rules).__name__}")
        if rules.players == 2:
            raise BeliefError("Sampler: belief sampling covers 3-seat deals; the 2-player forms "
                              "are not supported")
        lottery = obs.get("lottery")
        if lottery and not lottery["picked"]:
            # Mid-lottery the other guess is face down (docs/rules.md#table-sizes), so the
            # deal cannot be re-played; once the nine is picked it can.
            raise BeliefError("Sampler: a Finnish lottery still being run (docs/rules.md#table-sizes) is "
                              "not supported; deals after its pick are")
        self.lottery: Mapping[str, Any] | None = lottery or None
        self.rules = rules
        self.obs = obs
        self.max_tries = max_tries
        self.me: int = int(obs["seat"])
        self.n: int = int(obs["players"])
        self.declarer: int | None = obs["declarer"]
        self.sizes: list[int] = [int(x) for x in obs["hand_sizes"]]
        self.plays: list[PlayRecord] = plays(obs)
        self._read()

    # ------------------------------------------------------------ constraints

    def _read(self) -> None:
        obs, me, d = self.obs, self.me, self.declarer
        my_hand = [Card.parse(x) for x in obs["hand"] or []]
        self.my_hand = tuple(my_hand)
        played: dict[Card, int] = {p.card: p.seat for p in self.plays}
        self.played_by: dict[int, list[Card]] = {s: [] for s in range(self.n)}
        for p in self.plays:
            self.played_by[p.seat].append(p.card)
        self.revealed = tuple(Card.parse(x) for x in obs["talon"] or [])
        self.talon_down = int(field(obs, "talon_size"))
        self.gives: list[tuple[int, int, Card | None]] = [
            (int(g["from_seat"]), int(g["to_seat"]), Card.parse(g["card"]) if g["card"] else None)
            for g in obs["given"] or []]
        my_discards = tuple(Card.parse(x) for x in obs["discarded"] or [])
        self.my_discards = my_discards
        # Where each card is known to be now (a seat, or _OUT for my own discards).
        known: dict[Card, int] = dict.fromkeys(my_hand, me)
        for c in my_discards:
            known[c] = _OUT
        for _frm, to, card in self.gives:
            if card is not None and card not in played:
                known.setdefault(card, to)
        # The lottery nine the organiser showed is still its own unless played.
        if self.lottery:
            nine = Card.parse(self.lottery["picked"])
            if nine not in played:
                known.setdefault(nine, int(self.lottery["organiser"]))
        # Marriage partners: a declarer of a marriage held both cards (docs/rules.md#core).
        for p in self.plays:
            if p.declare == "marriage":
                other = _PARTNER[p.card]
                if other not in played:
                    known.setdefault(other, p.seat)
            elif p.declare == "aces":
                for c in DECK:
                    if c.rank is Rank.ACE and c not in played:
                        known.setdefault(c, p.seat)
        # Revealed talon cards still held: the declarer's, unless it gave one
        # face down to a seat (below) or discarded it unseen.
        self.hidden_gives = [(frm, to) for frm, to, card in self.gives if card is None]
        talon_rest = [c for c in self.revealed if c not in played and c not in known]
        self.talon_rest = frozenset(talon_rest)
        unseen = [c for c in DECK if c not in played and c not in known]
        self.known = known
        counts: dict[int, int] = {}
        for s in range(self.n):
            if s == me and my_hand:
                continue
            held = sum(1 for c, where in known.items() if where == s)
            if self.sizes[s] - held > 0:
                counts[s] = self.sizes[s] - held
            elif self.sizes[s] - held < 0:
                raise BeliefError(f"Sampler: seat {s} holds {self.sizes[s]} cards, "
                                  f"but {held} are known to be there")
        if self.talon_down:
            counts[_TALON] = self.talon_down
        out = 24 - sum(self.sizes) - self.talon_down - len(played) - len(my_discards)
        if out > 0:
            counts[_OUT] = out
        if sum(counts.values()) != len(unseen):
            raise BeliefError(f"Sampler: {len(unseen)} unseen cards for {sum(counts.values())} "
                              "places in the observation")
        self.places = tuple(sorted(counts))
        self.counts = tuple(counts[p] for p in self.places)
        banned = self._banned()
        allowed: list[tuple[int, ...]] = []
        for c in unseen:
            ok = tuple(i for i, p in enumerate(self.places) if (p, c) not in banned)
            if c in self.talon_rest:
                # A revealed talon card is with the declarer, or with a seat it
                # was given to face down, or among unseen discards.
                hidden_to = {to for _, to in self.hidden_gives}
                ok = tuple(i for i in ok if self.places[i] in ({d, _OUT} | hidden_to))
            allowed.append(ok)
        self.unseen = tuple(unseen)
        self.base = _Places(tuple(allowed), self.counts)
        if self.base.total() == 0:
            raise BeliefError("Sampler: no deal fits the observation's constraints")
        self._variants: dict[frozenset[tuple[int, Card]], _Places] = {}
        self.requirements = self._requirements()

    def _banned(self) -> set[tuple[int, Card]]:
        """(place, card) pairs the play rules out (docs/rules.md#options following rules)."""
        r = self.rules
        banned: set[tuple[int, Card]] = set()

        def none_of(seat: int, suit: Suit, above: int = -1) -> None:
            for c in DECK:
                if c.suit is suit and c.strength > above:
                    banned.add((seat, c))

        for p in self.plays:
            if not p.before:
                if (r.auto_declare and p.trick > 0 and p.card.rank in (Rank.KING, Rank.QUEEN)
                        and not p.declare):
                    # It led a K or Q at trick >= 2 without declaring: no partner then.
                    banned.add((p.seat, _PARTNER[p.card]))
                continue
            led, trump, card = p.led, p.trump, p.card
            if card.suit is not led:
                none_of(p.seat, led)
                if r.must_trump and trump is not None and trump is not led:
                    if card.suit is not trump:
                        none_of(p.seat, trump)
                    elif r.must_beat == "suit_and_trump":
                        tops = [x.strength for x in p.before if x.suit is trump]
                        if tops and card.strength < max(tops):
                            none_of(p.seat, trump, max(tops))
            elif r.must_beat != "none":
                trumped = trump is not None and led is not trump and any(
                    x.suit is trump for x in p.before)
                if not trumped:
                    top = max(x.strength for x in p.before if x.suit is led)
                    if card.strength < top:
                        none_of(p.seat, led, top)
        return banned

    # ------------------------------------------------------------ sampling

    def _requirements(self) -> list[tuple[int, int]]:
        """(seat, marriage value it must hold now or have played): bids above
        120 of seats other than the declarer (their dealt cards are all still
        theirs) and a raised contract (docs/rules.md#core bid cap). The declarer's
        bids are left to rejection: it may have given a marriage card away."""
        need: dict[int, int] = {}
        d = self.declarer
        for entry in self.obs["auction"] or []:
            text = str(entry["action"])
            if (text.startswith("bid ") and int(text.split()[1]) > 120
                    and int(entry["seat"]) != d and int(entry["seat"]) != self.me):
                seat = int(entry["seat"])
                need[seat] = max(need.get(seat, 0), int(text.split()[1]) - 120)
        contract = self.obs["contract"]
        if (d is not None and d != self.me and contract is not None
                and contract > max(120, self.obs["bid"] or 0)):
            need[d] = max(need.get(d, 0), int(contract) - 120)
        return sorted(need.items())

    def _marriage_options(self, seat: int, value: int) -> list[frozenset[tuple[int, Card]]]:
        """Minimal sets of marriages that give `seat` `value`, as pins (seat, card)
        of the cards not already known to be its."""
        index = {c: i for i, c in enumerate(self.unseen)}
        mine = {c for c, where in self.known.items() if where == seat} | set(self.played_by[seat])
        suits = []
        for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES):
            pair = (Card(suit, Rank.KING), Card(suit, Rank.QUEEN))
            pins = []
            ok = True
            for c in pair:
                if c in mine:
                    continue
                k = self.places.index(seat) if seat in self.places else -1
                if c in index and k in self.base.allowed[index[c]]:
                    pins.append((seat, c))
                else:
                    ok = False
            if ok:
                suits.append((suit.marriage_value, frozenset(pins)))
        out: list[frozenset[tuple[int, Card]]] = []
        for mask in range(1, 1 << len(suits)):
            chosen = [suits[i] for i in range(len(suits)) if mask >> i & 1]
            if sum(v for v, _ in chosen) < value:
                continue
            if any(sum(v for v, _ in chosen) - v >= value for v, _ in chosen):
                continue  # not minimal
            out.append(frozenset().union(*(p for _, p in chosen)))
        return out

    def _variant(self, pins: frozenset[tuple[int, Card]]) -> _Places:
        v = self._variants.get(pins)
        if v is None:
            pinned = {c: self.places.index(seat) for seat, c in pins}
            allowed = tuple((pinned[c],) if c in pinned else ok
                            for c, ok in zip(self.unseen, self.base.allowed, strict=True))
            v = self._variants[pins] = _Places(allowed, self.base.counts)
        return v

    def _choose_variant(self, rng: random.Random) -> _Places:
        """Pins for the marriages the auction proves (chosen in proportion to
        the deals each allows), so that rejection rarely has to reject: the
        deals that fit several choices come a little more often."""
        pins: frozenset[tuple[int, Card]] = frozenset()
        for seat, value in self.requirements:
            options = [pins | o for o in self._marriage_options(seat, value)]
            weights = [self._variant(o).total() for o in options]
            if not options or sum(weights) == 0:
                return self.base
            pins = options[_weighted(rng, weights)]
        return self._variant(pins)

    def _draw(self, rng: random.Random, pinned: bool = True) -> dict[int, list[Card]]:
        places = self._choose_variant(rng) if self.requirements and pinned else self.base
        out: dict[int, list[Card]] = {p: [] for p in self.places}
        for card, k in zip(self.unseen, places.draw(rng), strict=True):
            out[self.places[k]].append(card)
        return out

    def sample(self, rng: random.Random) -> Deal:
        """One deal; BeliefError if none is found in `max_tries` draws."""
        for attempt in range(self.max_tries):
            # The pins only speed up the common case: every other draw without them.
            deal = self._complete(self._draw(rng, attempt % 2 == 0), rng)
            if deal is not None:
                return deal
        raise BeliefError(f"Sampler: no consistent deal in {self.max_tries} draws "
                          f"(seat {self.me}, deal {self.obs['deal_number']}, phase {self.obs['phase']})")

    def deals(self, count: int, rng: random.Random) -> Iterator[Deal]:
        for _ in range(count):
            yield self.sample(rng)

    def _complete(self, drawn: dict[int, list[Card]], rng: random.Random) -> Deal | None:
        """The whole deal for one draw, or None if a global constraint fails."""
        n, d = self.n, self.declarer
        hands: list[list[Card]] = [[] for _ in range(n)]
        for c, where in self.known.items():
            if where >= 0:
                hands[where].append(c)
        for p, cards in drawn.items():
            if p >= 0:
                hands[p].extend(cards)
        talon = tuple(drawn.get(_TALON, ()))
        discards = self.my_discards or tuple(drawn.get(_OUT, ()))
        # Which card went face down to each seat whose give this seat did not see.
        given: list[tuple[int, int, Card]] = []
        for frm, to, card in self.gives:
            if card is not None:
                given.append((frm, to, card))
                continue
            from_talon = [c for c in hands[to] + self.played_by[to] if c in self.revealed]
            if len(from_talon) > 1:
                return None
            if from_talon:
                given.append((frm, to, from_talon[0]))
            else:
                pool = [c for c in hands[to] + self.played_by[to]
                        if c not in self.revealed and not self._received_known(to, c)]
                if not pool:
                    return None
                given.append((frm, to, pool[int(rng.random() * len(pool))]))
        dealt_talon: tuple[Card, ...]
        if d is None:
            dealt_talon = talon
        elif self.revealed:
            dealt_talon = self.revealed
        else:
            hidden = self._hidden_talon(hands, given, discards, rng)
            if hidden is None:
                return None
            dealt_talon = hidden
        dealt = self._dealt_hands(hands, given, discards, dealt_talon)
        if dealt is None or not self._bids_fit(dealt, hands, discards):
            return None
        if (not self.revealed or d is None) and _talon_redeals(self.rules, dealt_talon):
            return None
        if self.lottery and sum(1 for c in dealt[int(self.lottery["organiser"])]
                                if c.rank is Rank.NINE) < 3:
            return None  # docs/rules.md#table-sizes: the organiser was dealt three 9s
        if "four_nines_forced" in self.rules.redeal and any(
                sum(1 for c in h if c.rank is Rank.NINE) == 4 for h in dealt):
            return None  # docs/rules.md#option-details Finnish: four 9s are redealt by themselves
        return Deal(tuple(tuple(sorted(h, key=_index)) for h in hands), talon, dealt_talon,
                    tuple(given), tuple(sorted(discards, key=_index)))

    def _received_known(self, seat: int, card: Card) -> bool:
        return any(to == seat and c is card for _, to, c in self.gives if c is not None)

    def _hidden_talon(self, hands: list[list[Card]], given: list[tuple[int, int, Card]],
                      discards: Sequence[Card], rng: random.Random) -> tuple[Card, ...] | None:
        """A talon the declarer took unseen by this seat: 3 of the cards it held."""
        d = self.declarer
        assert d is not None
        had = hands[d] + self.played_by[d] + [c for frm, _, c in given if frm == d] + list(discards)
        had = sorted(set(had), key=_index)
        if len(had) < 3:
            return None
        for _ in range(20):
            pick = sorted(had, key=lambda _c: rng.random())[:3]
            if not _talon_redeals(self.rules, pick):
                return tuple(sorted(pick, key=_index))
        return None

    def _dealt_hands(self, hands: list[list[Card]], given: list[tuple[int, int, Card]],
                     discards: Sequence[Card], talon: Sequence[Card]) -> list[list[Card]] | None:
        d = self.declarer
        out = []
        for s in range(self.n):
            cards = set(hands[s]) | set(self.played_by[s])
            cards -= {c for _, to, c in given if to == s}
            if s == d:
                cards |= {c for frm, _, c in given if frm == s} | set(discards)
                if not set(talon) <= cards:
                    return None
                cards -= set(talon)
            out.append(sorted(cards, key=_index))
        return out

    def _bids_fit(self, dealt: list[list[Card]], hands: list[list[Card]],
                  discards: Sequence[Card]) -> bool:
        offers = tuple(x for x in self.rules.redeal if x in HAND_CONDITIONS)
        auction = self.obs["auction"] or []
        me = self.me
        if (offers and not self.my_hand and self.sizes[me] and auction
                and (int(auction[0]["seat"]), auction[0]["action"]) != (me, "blind")
                and hand_condition(tuple(dealt[me]), offers)):
            return False  # it would have been offered a redeal, and so have seen its hand
        for entry in auction:
            text = str(entry["action"])
            if text.startswith("blind ") and offers and hand_condition(
                    tuple(dealt[int(entry["seat"])]), offers):
                # docs/rules.md#option-details Finnish blind: a hand offered a redeal was seen, and a
                # seat that saw its hand cannot bid blind (docs/rules.md#private-offers).
                return False
            if text.startswith("bid "):
                amount = int(text.split()[1])
                if amount > 120 and marriage_cap(dealt[int(entry["seat"])]) < amount:
                    return False
        d, contract = self.declarer, self.obs["contract"]
        # The contract may always be the bid; a raise must fit the 8 cards' cap.
        if d is not None and contract is not None and contract > max(120, self.obs["bid"] or 0):
            after = set(hands[d]) | set(self.played_by[d])
            if marriage_cap(list(after)) < contract:
                return False
        return True

    # ------------------------------------------------------------ engine state

    def history(self, deal: Deal) -> list[Action]:
        """This deal's public actions, in order, with the sampled hidden cards."""
        return sampled_state.history(self.rules, self.obs, self.declarer, self.plays, deal)

    def state(self, deal: Deal, seed: int = 0) -> GameState:
        """The engine's state for `deal` at the observed point: the deal as
        dealt, re-played through the engine with the public history (private
        offers declined, as the observation shows them). `seed` deals the
        deals after this one. SetupError/IllegalActionError if `deal` does
        not fit the observation."""
        dealt_hands = self._dealt_hands([list(h) for h in deal.hands], list(deal.given),
                                        deal.discarded, deal.dealt_talon)
        if dealt_hands is None:
            raise BeliefError("Sampler.state: the deal's talon is not among the declarer's cards")
        return sampled_state.state(self.rules, self.obs, self.me, dealt_hands, deal.dealt_talon,
                            self.history(deal), seed)


def _index(card: Card) -> int:
    return card.index
