"""What a seat may see, checked on the bytes it received: every card named
in its messages known to it by then (cards_in, check_seat against the
engine's states of the replay), and the byte-identity of two matches whose
unknown cards were permuted (permuted, fixed_first_deal,
assert_same_bytes_until_a_new_card). Shared by the wire, stdio-bridge and
browser secrecy tests."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

import arena.referee.loop as referee_loop
from arena.game import Play, Rules, new_game, parse_action
from arena.referee.replay import read_replay
from arena.wire import codec
from arena.wire.codec import pb


def cards_in(value: Any) -> set[str]:
    """Cards named in a message or in a plain observation dict."""
    if isinstance(value, Message):
        return _cards_of(strings_of(value))
    texts: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, str):
            texts.append(v)
    return _cards_of(texts)


def _cards_of(texts: Iterable[str]) -> set[str]:
    # One search over all the strings, joined by a character that is no
    # card's neighbour (the pattern's lookarounds then see each string's own
    # ends): a whole match's checks make ~66k calls, one search per string
    # was half of the check's time.
    return {m.replace("10", "T") for m in CARD.findall("\n".join(texts))}


def engine_states(replay_path: Path) -> tuple[list[Any], list[Any]]:
    """The engine's states of the recorded match (before any action, then after
    each) and the actions between them."""
    rep = read_replay(replay_path)
    game = new_game(Rules.from_dict(rep.header["rules"]), seed=int(rep.header["seed"]))
    states = [game]
    actions = []
    for record in rep.actions:
        action = parse_action(record["action"])
        game = game.apply(action)
        actions.append(action)
        states.append(game)
    return states, actions


def check_seat(seat: int, messages: list[bytes], states: list[Any], actions: list[Any]) -> int:
    """Check one seat's recording against the engine; returns decisions matched.

    A card may be named between the decisions at states p and q when the
    seat's observation shows it in some state from p to q, or when it was
    played (a public fact, docs/rules.md#hidden-information) by an action between them: the last
    trick of a deal is played and scored in one step, so its cards show in
    no observation."""
    played = [{str(a.card)} if isinstance(a, Play) else set() for a in actions]
    views = _Views(seat, states)
    obs_cards = [cards_in(o) for o in views.dicts]

    def obs_bytes(q: int) -> bytes | None:
        # A decision is asked only where this seat is to act: skip the rest.
        if states[q].to_act != seat:
            return None
        return views.encoded(q)

    p = 0
    pending: set[str] = set()
    matched = 0
    for i, data in enumerate(messages):
        msg = pb.RefereeMessage.FromString(data)
        if msg.WhichOneof("body") == "decision":
            want = msg.decision.observation.SerializeToString(deterministic=True)
            q = p
            while q < len(states) and obs_bytes(q) != want:
                q += 1
            assert q < len(states), (
                f"seat {seat} message {i}: the observation sent is no engine observation "
                f"of this seat at or after state {p}"
            )
            matched += 1
            pending |= _cards_of(t for ev in msg.decision.events for t in strings_of(ev))
            assert cards_in(msg.decision.observation) <= obs_cards[q]
            # Legal actions name the seat's own cards (docs/rules.md#hidden-information: it may know
            # them), even where its observation shows no hand (a blind seat
            # that has not looked yet must still choose cards to give).
            named = {c for t in msg.decision.legal_texts for c in cards_in(t)}
            mine = {str(c) for c in states[q].hand(seat)}
            assert named <= obs_cards[q] | mine, f"seat {seat} message {i}: legal actions " \
                f"name cards it cannot know: {sorted(named - obs_cards[q] - mine)}"
            known = set().union(*obs_cards[p:q + 1], *played[p:q])
            leaked = pending - known
            assert not leaked, f"seat {seat} message {i}: cards it cannot know: {sorted(leaked)}"
            pending.clear()
            p = q
        elif msg.WhichOneof("body") == "turn":
            # What it names is known at the turn's state or before (as for a
            # decision): the window starts again there.
            q = _turn_state(seat, msg.turn, views, p, i)
            pending |= cards_in(msg)
            leaked = pending - set().union(*obs_cards[p:q + 1], *played[p:q])
            assert not leaked, f"seat {seat} message {i}: cards it cannot know: {sorted(leaked)}"
            pending.clear()
            p = q
        else:
            pending |= cards_in(msg)
    known = set().union(*obs_cards[p:], *played[p:])
    assert not pending - known, f"seat {seat}: cards it cannot know after its last decision: " \
        f"{sorted(pending - known)}"
    return matched


def fixed_first_deal(monkeypatch: pytest.MonkeyPatch, deal: dict[str, Any]) -> None:
    """Make the referee's game start from `deal` (later deals from the seed)."""

    def patched(rules: Rules, seed: int, **kw: Any) -> Any:
        return new_game(rules, seed=seed, **deal)   # the engine's own, never a patch

    monkeypatch.setattr(referee_loop, "new_game", patched)  # the game loop starts the game


def permuted(deal: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same deal with every card `seat` cannot see shuffled among the others' places."""
    hidden_places = [(s, i) for s, h in enumerate(deal["hands"]) if s != seat for i in range(len(h))]
    hidden = [deal["hands"][s][i] for s, i in hidden_places] + list(deal["talon"])
    rng.shuffle(hidden)
    hands = [list(h) for h in deal["hands"]]
    # `hidden` also holds the talon's cards: the places take the first of them.
    for (s, i), card in zip(hidden_places, hidden, strict=False):
        hands[s][i] = card
    return {**deal, "hands": hands, "talon": hidden[len(hidden_places):]}


def assert_same_bytes_until_a_new_card(
    a: list[bytes], b: list[bytes], own: set[str], seat: int
) -> tuple[int, int]:
    """Two recordings of what `seat` received, in matches that differ only in
    cards it cannot know, are equal up to the first thing that shows it a card
    it did not hold. Whole messages first (at least the match start and the
    auction up to its first bid), then finer, event by event (events ride
    with the next decision request: a face-down give, the talon taken unseen).
    Returns (messages compared, pieces compared)."""

    def first_new_card(items: list[bytes], parse: Any) -> int:
        for i, data in enumerate(items):
            if cards_in(parse(data)) - own:
                return i
        return len(items)

    cut = first_new_card(a, pb.RefereeMessage.FromString)
    assert cut == first_new_card(b, pb.RefereeMessage.FromString)
    assert cut >= 2, f"seat {seat} saw a new card already in message {cut}"
    assert a[:cut] == b[:cut]
    pieces_a, pieces_b = pieces(a), pieces(b)
    fine = first_new_card(pieces_a, pb.Event.FromString)
    assert fine == first_new_card(pieces_b, pb.Event.FromString)
    assert pieces_a[:fine] == pieces_b[:fine]
    return cut, fine


CARD = re.compile(r"(?<![A-Za-z0-9])(?:[AKQJT9]|10)[CDHS](?![A-Za-z0-9])")


def strings_of(msg: Message) -> Iterator[str]:
    """Every string value anywhere in a protobuf message (maps and repeats too)."""
    for _field, value in msg.ListFields():
        yield from _strings(value)


class _Views:
    """The engine's observations of one seat at every state, as dicts, and
    their wire encodings on demand (each made once: the checks of decisions
    and of Turn notices look at the same states)."""

    def __init__(self, seat: int, states: list[Any]) -> None:
        self.states = states
        self.dicts = [st.observation(seat).to_dict() for st in states]
        self._encoded: dict[int, bytes] = {}

    def encoded(self, q: int) -> bytes:
        if q not in self._encoded:
            self._encoded[q] = codec.observation_to_pb(self.dicts[q]).SerializeToString(
                deterministic=True)
        return self._encoded[q]


def _turn_state(seat: int, turn: pb.Turn, views: _Views, p: int, i: int) -> int:
    """The first engine state from `p` on that the Turn notice tells of:
    another seat to act, the observation sent byte-identical to the engine's
    for `seat` there, the seat it names the one that observation shows to act
    (while a private offer is pending, the seat that acts if it is declined:
    the engine's view of `seat` hides the offer), the phase and deal its."""
    assert turn.seat != seat, f"seat {seat} message {i}: a Turn notice of its own decision"
    want = turn.observation.SerializeToString(deterministic=True)
    states = views.states
    q = p
    while q < len(states) and not (states[q].to_act != seat and views.encoded(q) == want):
        q += 1
    assert q < len(states), f"seat {seat} message {i}: Turn {turn} is no engine state after {p}"
    assert turn.observation.to_act == turn.seat and turn.observation.phase == turn.phase
    assert turn.observation.deal_number == turn.deal_number and turn.per_move_s > 0
    return q


def pieces(messages: list[bytes]) -> list[bytes]:
    """Each message split into its events and the rest, each serialized as an
    `Event` (the rest wrapped in an event's text) so one parser reads them all."""
    out: list[bytes] = []
    for data in messages:
        msg = pb.RefereeMessage.FromString(data)
        body = msg.WhichOneof("body")
        if body in ("decision", "turn"):
            part = getattr(msg, body)
            for ev in part.events:
                out.append(ev.SerializeToString(deterministic=True))
            del part.events[:]
        rest = pb.Event(kind="message", text=str(msg))
        out.append(rest.SerializeToString(deterministic=True))
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Message):
        yield from strings_of(value)
    elif isinstance(value, (bytes, bool, int, float)):
        return
    elif hasattr(value, "items"):                       # map fields
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    else:                                               # repeated fields
        for item in value:
            yield from _strings(item)


