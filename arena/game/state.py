"""`GameState`: an immutable game position; `apply` returns the next one."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from arena.game import bidding, exchange, flow, play
from arena.game.actions import Action
from arena.game.cards import DECK, Card
from arena.game.core import (
    BANK,
    BIDDING,
    BLIND,
    CONTRACT,
    EXCHANGE,
    LOTTERY,
    PLAY,
    REDEAL,
    Core,
)
from arena.game.dealing import active_seats, expected_sizes
from arena.game.errors import IllegalActionError, SetupError
from arena.game.observation import Observation, observe
from arena.game.records import DealRecord
from arena.game.rng import derive
from arena.game.rules import Rules

_LEGAL: dict[str, Callable[[Core], tuple[Action, ...]]] = {
    LOTTERY: flow.legal_lottery,
    REDEAL: flow.legal_redeal,
    BLIND: flow.legal_blind,
    BIDDING: bidding.legal_bidding,
    BANK: exchange.legal_bank,
    EXCHANGE: exchange.legal_exchange,
    CONTRACT: exchange.legal_contract,
    PLAY: play.legal_play,
}
_APPLY: dict[str, Callable[[Core, Action], None]] = {
    LOTTERY: flow.apply_lottery,
    REDEAL: flow.apply_redeal,
    BLIND: flow.apply_blind,
    BIDDING: bidding.apply_bidding,
    BANK: exchange.apply_bank,
    EXCHANGE: exchange.apply_exchange,
    CONTRACT: exchange.apply_contract,
    PLAY: play.apply_play,
}


class GameState:
    """A whole game at one moment. Immutable: `apply` returns a new state."""

    __slots__ = ("_c", "_legal", "_obs")

    def __init__(self, core: Core) -> None:
        self._c = core
        self._legal: tuple[Action, ...] | None = None
        self._obs: dict[int | None, Observation] | None = None

    # ------------------------------------------------------------ public view

    @property
    def rules(self) -> Rules:
        return self._c.rules

    @property
    def seed(self) -> int:
        return self._c.seed

    @property
    def players(self) -> int:
        return self._c.n

    @property
    def to_act(self) -> int | None:
        return self._c.to_act

    @property
    def phase(self) -> str:
        return self._c.phase

    @property
    def is_over(self) -> bool:
        return self._c.over

    @property
    def private_offer(self) -> bool:
        """True while `to_act` decides an offer made because of its hidden
        hand (a redeal offer, the Swedish four-9s abandonment, the Finnish
        lottery offer). Other seats must not learn of it: their observations
        already hide it, and declining (`pass`) must not be announced to them
        (docs/rules.md#private-offers). Accepting is public."""
        return not self._c.over and flow.private_offer(self._c)

    @property
    def totals(self) -> tuple[int, ...]:
        return self._c.totals

    @property
    def finish(self) -> tuple[tuple[int, ...], ...]:
        """Places, best first; seats that tie share a tuple. Empty until the end."""
        return self._c.finish

    @property
    def places(self) -> tuple[int, ...]:
        """Place per seat (1 = first; ties share a place, the next place skips)."""
        out = [0] * self._c.n
        place = 1
        for group in self._c.finish:
            for s in group:
                out[s] = place
            place += len(group)
        return tuple(out)

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        return self._c.deals

    @property
    def deal_number(self) -> int:
        return self._c.deal_number

    @property
    def dealer(self) -> int:
        return self._c.dealer

    @property
    def declarer(self) -> int | None:
        return self._c.declarer

    @property
    def trump(self) -> str:
        t = self._c.trump
        return t.value if t is not None else ""

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The whole truth: any seat's cards (for referees and tests, not bots)."""
        return self._c.hands[seat]

    @property
    def talon(self) -> tuple[Card, ...]:
        """Cards still face down in the talon (the whole truth)."""
        return self._c.talon

    # ------------------------------------------------------------ moves

    def legal_actions(self) -> tuple[Action, ...]:
        """The acting seat's legal actions in the fixed order of `actions.sort_key`."""
        legal = self._legal
        if legal is None:
            c = self._c
            legal = () if c.over or c.to_act is None else _LEGAL[c.phase](c)
            self._legal = legal
        return legal

    def apply(self, action: Action) -> GameState:
        c = self._c
        if c.over:
            raise IllegalActionError(f"illegal action {action}: the game is over")
        for legal in self._legal or self.legal_actions():
            if legal is action:  # interned actions: the usual, fast case
                break
        else:
            # Equal is not enough: Bid(110.0) == Bid(110) and Give(c, True) ==
            # Give(c, 1), and a float or bool kept in the state breaks it later.
            # The action must also read as a legal one; the legal one is applied.
            match = next((a for a in self.legal_actions() if a == action), None)
            if match is not None and str(match) == str(action):
                action = match
            else:
                raise IllegalActionError(
                    f"illegal action {action} for seat {c.to_act} in phase {c.phase!r} "
                    f"(deal {c.deal_number}); legal: {', '.join(map(str, self.legal_actions()))}"
                )
        new = c.clone()
        _APPLY[c.phase](new, action)
        if new.next_deal:
            new.next_deal = False
            flow.start_next_deal(new)
        return GameState(new)

    def observation(self, seat: int) -> Observation:
        """What `seat` may know now (docs/rules.md#hidden-information); cached per state and seat."""
        cache = self._obs
        if cache is None:
            cache = self._obs = {}
        obs = cache.get(seat)
        if obs is None:
            obs = cache[seat] = observe(self._c, seat)
        return obs

    def public_observation(self) -> Observation:
        """What anyone watching the table may know now (`observe(c, None)`:
        no seat's hand, discard or private offer); cached per state."""
        cache = self._obs
        if cache is None:
            cache = self._obs = {}
        obs = cache.get(None)
        if obs is None:
            obs = cache[None] = observe(self._c, None)
        return obs

    def __repr__(self) -> str:
        c = self._c
        return (f"<GameState {c.rules.preset_name} deal {c.deal_number} phase {c.phase} "
                f"to_act {c.to_act} totals {list(c.totals)}>")


def new_game(
    rules: Rules,
    seed: int,
    *,
    dealer: int | None = None,
    totals: Sequence[int] | None = None,
    hands: Sequence[Iterable[str | Card]] | None = None,
    talon: Iterable[str | Card] | None = None,
) -> GameState:
    """A new game. `dealer`/`totals` set the start; `hands` + `talon` fix the
    FIRST deal (4 players: the dealer's hand is empty; 2 players: `talon` is
    the stock or both banks, 4 + 4); later deals come from `seed`."""
    c = _core(rules, seed, dealer, totals)
    c.fixed = _fixed_deal(rules, c.dealer, hands, talon) if hands is not None or talon is not None else None
    flow.begin_deal(c)
    return GameState(c)


def game_at_deal(
    rules: Rules,
    seed: int,
    *,
    deal_number: int,
    dealer: int,
    totals: Sequence[int],
    hands: Sequence[Iterable[str | Card]],
    talon: Iterable[str | Card],
    bolts: Sequence[int] | None = None,
    bombs_used: Sequence[int] | None = None,
    barrel_seat: int | None = None,
    barrel_deals: int = 0,
    horse_left: int = 0,
    horse_made: bool = False,
) -> GameState:
    """A game at the start of deal `deal_number`, as if the deals before had
    left these facts (totals, bolts, bombs, the barrel, the golden horse),
    with this deal's cards fixed (as dealt, before any redeal: `new_game`'s
    form); later deals come from `seed`. For bots that simulate: a deal
    sampled from an observation, re-played from here, reaches the observed
    point with the real rules (arena.sdk.belief). SetupError if the fixed
    cards would be redealt by themselves (docs/rules.md#option-details talon conditions):
    such a deal cannot be the one being played."""
    if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number < 1:
        raise SetupError(f"game_at_deal: deal_number must be a whole number >= 1, got {deal_number!r}")
    c = _core(rules, seed, dealer, totals)
    n = c.n
    c.deal_number = deal_number
    c.bolts = _per_seat("bolts", bolts, n)
    c.bombs_used = _per_seat("bombs_used", bombs_used, n)
    if barrel_seat is not None and not (isinstance(barrel_seat, int) and 0 <= barrel_seat < n):
        raise SetupError(f"game_at_deal: barrel_seat must be a seat 0..{n - 1} or None, got {barrel_seat!r}")
    if not isinstance(barrel_deals, int) or not 0 <= barrel_deals < 3:
        raise SetupError(f"game_at_deal: barrel_deals must be 0, 1 or 2, got {barrel_deals!r}")
    c.barrel_seat = barrel_seat
    c.barrel_deals = barrel_deals if barrel_seat is not None else 0
    if not isinstance(horse_left, int) or not 0 <= horse_left <= (3 if rules.golden_horse else 0):
        raise SetupError(f"game_at_deal: horse_left must be 0..{3 if rules.golden_horse else 0}, "
                         f"got {horse_left!r}")
    c.horse_left = horse_left
    c.horse_made = bool(horse_made)
    c.fixed = _fixed_deal(rules, dealer, hands, talon)
    c.fixed_deal = deal_number
    flow.begin_deal(c)
    if c.deal_number != deal_number or c.redeals:
        raise SetupError("game_at_deal: these cards would be redealt (docs/rules.md#option-details talon "
                         "conditions), so they cannot be the deal being played")
    return GameState(c)


def _per_seat(name: str, values: Sequence[int] | None, n: int) -> tuple[int, ...]:
    if values is None:
        return (0,) * n
    if len(values) != n or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                   for v in values):
        raise SetupError(f"game_at_deal: {name} must be {n} whole numbers >= 0, got {list(values)!r}")
    return tuple(values)


def _core(rules: Rules, seed: int, dealer: int | None, totals: Sequence[int] | None) -> Core:
    """A Core at the start of a game, before its first deal is dealt."""
    if not isinstance(rules, Rules):
        raise SetupError(f"new_game: rules must be a Rules, got {type(rules).__name__}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"new_game: seed must be an int, got {seed!r}")
    n = rules.players
    c = Core()
    c.rules = rules
    c.seed = seed
    c.n = n
    if dealer is None:
        dealer = derive(seed, "first-dealer").below(n)  # docs/rules.md#core: first dealer drawn from the seed
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise SetupError(f"new_game: dealer must be a seat 0..{n - 1}, got {dealer!r}")
    c.dealer = dealer
    if totals is None:
        totals = (0,) * n
    if len(totals) != n or not all(isinstance(t, int) for t in totals):
        raise SetupError(f"new_game: totals must be {n} whole numbers, got {list(totals)!r}")
    c.totals = tuple(totals)
    c.deal_number = 1
    c.redeals = 0
    c.bolts = (0,) * n
    c.bombs_used = (0,) * n
    c.barrel_seat = None
    c.barrel_deals = 0
    c.horse_left = 3 if rules.golden_horse else 0
    c.horse_made = False
    c.deals = ()
    c.over = False
    c.finish = ()
    c.hands = ((),) * n
    c.stock = ()
    c.banks = ()
    c.fixed = None
    c.fixed_deal = 1
    return c


def _fixed_deal(
    rules: Rules, dealer: int, hands: Sequence[Iterable[str | Card]] | None,
    talon: Iterable[str | Card] | None,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    if hands is None or talon is None:
        raise SetupError("new_game: a fixed deal needs both hands and talon")
    n = rules.players
    try:
        hs = tuple(tuple(x if isinstance(x, Card) else Card.parse(x) for x in h) for h in hands)
        tl = tuple(x if isinstance(x, Card) else Card.parse(x) for x in talon)
    except ValueError as exc:
        raise SetupError(f"new_game: bad card in the fixed deal: {exc}") from None
    if len(hs) != n:
        raise SetupError(f"new_game: hands must have {n} entries (one per seat), got {len(hs)}")
    size, rest = expected_sizes(n, rules.two_player_form)
    active = active_seats(n, dealer)
    for s in range(n):
        want = size if s in active else 0
        if len(hs[s]) != want:
            raise SetupError(f"new_game: seat {s} must hold {want} cards, got {len(hs[s])}")
    if len(tl) != rest:
        raise SetupError(f"new_game: the talon/stock must have {rest} cards, got {len(tl)}")
    every = [x for h in hs for x in h] + list(tl)
    if sorted(x.index for x in every) != [x.index for x in DECK]:
        dup = sorted({str(x) for x in every if every.count(x) > 1})
        raise SetupError(
            f"new_game: the fixed deal must use each of the 24 cards once (duplicates: {dup})")
    return hs, tl
