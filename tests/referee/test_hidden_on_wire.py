"""Hidden information on the wire (docs/rules.md#hidden-information, issue 3).

Three recording bots (tests/bots/recorder) play whole matches through the
real referee and save every message they receive, byte for byte. Then:

1. **Nothing unknowable arrives.** The match is re-played through the
   engine from its replay file. Every decision request's observation must be
   byte-identical to the engine's `observation(seat)` at some state reached
   in order, and every card named anywhere in any message (events, texts,
   deal results, ...) must be one the seat's engine observation shows between
   the previous decision and the next one. So no card of another seat's
   hidden hand, no unrevealed talon card, no face-down given or discarded
   card ever reaches it, in every preset and the hidden-talon, hidden
   exchange, blind, 4- and 2-player variants.
2. **Hidden cards do not change a byte.** The first deal is fixed and every
   card that seat 0 cannot know (other hands and talon) is permuted; the
   bytes seat 0 receives are identical in both matches up to the first
   message that shows it a card it did not hold (the moment its view may
   legitimately differ).

The recorders ask for Turn notices (Hello.turn_notices), so every check also
covers them: the events they carry, and that the observation each carries is
the engine's for the seat at a state in order where that observation shows
the seat it names to act (while another seat's private offer is pending, the
seat that acts if it is declined: the notice goes out before the offer is
put, never telling of it, by its content or by when it comes).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.game import Rules, new_game, parse_action
from arena.game.cards import DECK
from arena.referee import MatchSpec, TimeControl, run_match
from arena.wire import codec
from arena.wire.codec import pb

from .recording import LIMITS, read_messages, recorder
from .wire_secrecy import (
    assert_same_bytes_until_a_new_card,
    check_seat,
    engine_states,
    fixed_first_deal,
    permuted,
    pieces,
)

pytestmark = pytest.mark.slow


# ---------------------------------------------------------------- helpers


def turns_of(messages: list[bytes]) -> list[pb.Turn]:
    return [m.turn for m in map(pb.RefereeMessage.FromString, messages) if m.WhichOneof("body") == "turn"]


# ---------------------------------------------------------------- 1. whole matches

# Whole games to the short target; the optional forms are cut after a few
# deals. Random play rarely reaches even 500: most games run to the
# 200-deal cap (some 6,000 decisions, half a minute each here). So each
# whole game is played under a fixed key (MatchSpec.key: the random bots'
# ARENA_SEEDs, hence the same game every run), one under which it ends at
# the target in 20-40 deals, as a game between players does. No random
# Czech game of the keys tried reaches 500: it ends at a cap of 40 deals.
SHORT = {"target": 500}
VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("standard", SHORT),
    ("estonian", SHORT),
    ("lithuanian", SHORT),
    ("czech", {"target": 500, "max_deals": 40}),         # exchange visible
    ("finnish", SHORT),                                 # hidden talon on 100, bombs
    ("swedish", SHORT),
    ("czech", {"exchange_visible": False, "max_deals": 6}),
    ("czech", {"blind": "czech", "golden_horse": True, "max_deals": 6}),
    ("finnish", {"blind": "finnish", "max_deals": 6}),
    ("finnish", {"exchange": "discard", "max_deals": 6}),
    ("finnish", {"players": 4, "max_deals": 6}),        # sitting dealer, lottery
    ("finnish", {"players": 2, "max_deals": 6}),        # stock
    ("finnish", {"players": 2, "two_player_form": "banks", "max_deals": 6}),
]
# The keys of the whole games to the target (found by playing the bots'
# generators against the engine in-process); the others play under "wire".
KEYS = {"standard": "wire-standard-72", "estonian": "wire-estonian-45",
        "lithuanian": "wire-lithuanian-6", "finnish": "wire-finnish-29",
        "swedish": "wire-swedish-20"}


@pytest.mark.parametrize(("preset", "options"), VARIANTS,
                         ids=[f"{p}-{'-'.join(map(str, o.values())) or 'preset'}" for p, o in VARIANTS])
def test_no_message_carries_a_card_the_seat_may_not_know(
    preset: str, options: dict[str, object], tmp_path: Path
) -> None:
    players = int(options.get("players", 3))  # type: ignore[call-overload]
    # Every seat but the last asks for Turn notices: both kinds of stream are checked.
    bots = tuple(recorder(tmp_path / f"bot{s}", "random+turns" if s < players - 1 else "random")
                 for s in range(players))
    replay = tmp_path / "match.jsonl"
    result = run_match(MatchSpec(
        match_id=f"wire-{preset}", bots=bots, seed=23, rules_preset=preset,
        rules_options=tuple(options.items()), sandbox="process", work_dir=str(tmp_path),
        replay_path=str(replay), time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        key=KEYS[preset] if options is SHORT else "wire",
    ))
    assert [s.status for s in result.seats] == ["ok"] * players
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    states, actions = engine_states(replay)
    assert states[-1].is_over
    if options is SHORT:  # a whole game, ended at the target (not at the 200-deal cap)
        assert max(states[-1].totals) >= 500, f"{KEYS[preset]}: pick a key whose game ends at 500"
    for seat in range(players):
        messages = read_messages(result, seat)
        kinds = [pb.RefereeMessage.FromString(m).WhichOneof("body") for m in messages]
        assert kinds[0] == "match_start" and kinds[-1] == "match_end"
        assert check_seat(seat, messages, states, actions) == result.seats[seat].decisions
        turns = turns_of(messages)
        if seat == players - 1:
            assert not turns  # it did not ask
        else:  # one notice per decision of another seat, but for private offers
            others = sum(r.decisions for r in result.seats if r.seat != seat)
            assert 0 < len(turns) <= others


def test_the_check_catches_a_leak(tmp_path: Path) -> None:
    """The checker itself: a message naming an opponent's unplayed card fails."""
    game = new_game(Rules.preset("standard"), seed=4)
    me = game.to_act
    other = next(c for s in range(3) if s != me for c in game.hand(s))
    request = pb.DecisionRequest(seq=1)
    codec.observation_to_pb(game.observation(me).to_dict(), request.observation)
    honest = pb.RefereeMessage(decision=request).SerializeToString()
    leak = pb.RefereeMessage(event=pb.Event(kind="action", text=f"a seat holds {other}"))
    assert check_seat(me, [honest], [game], []) == 1
    with pytest.raises(AssertionError, match="cannot know"):
        check_seat(me, [leak.SerializeToString(), honest], [game], [])
    # An observation that is not the engine's (one hand card swapped) fails too.
    forged = game.observation(me).to_dict()
    forged["hand"] = sorted([*forged["hand"][1:], str(other)])
    request.observation.Clear()
    codec.observation_to_pb(forged, request.observation)
    with pytest.raises(AssertionError, match="no engine observation"):
        check_seat(me, [pb.RefereeMessage(decision=request).SerializeToString()], [game], [])


# ---------------------------------------------------------------- 2. permuted hidden cards


@pytest.mark.parametrize(("preset", "options"), [
    ("finnish", {}),                       # everyone passes over 100: talon taken unseen
    ("czech", {"exchange_visible": False}),
    ("standard", {}),
])
def test_permuting_hidden_cards_changes_no_byte_before_they_show(
    preset: str, options: dict[str, object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Rules.preset(preset).replace(**options)  # a bad option fails here, not in the referee
    cards = [str(c) for c in DECK]
    random.Random(99).shuffle(cards)
    # Dealer 0: seat 1 opens with the compulsory 100; passive bots then pass,
    # so seat 1 declares at 100 and seat 0 (the observer) is an opponent.
    base = {"dealer": 0, "totals": [0, 0, 0],
            "hands": [cards[0:7], cards[7:14], cards[14:21]], "talon": cards[21:24]}
    recordings: list[list[bytes]] = []
    for run, deal in enumerate([base, permuted(base, 0, random.Random(5))]):
        assert sorted(deal["hands"][0]) == sorted(base["hands"][0])
        fixed_first_deal(monkeypatch, deal)
        work = tmp_path / f"run{run}"
        bots = tuple(recorder(work / f"bot{s}", "passive+turns" if s == 0 else "passive")
                     for s in range(3))
        result = run_match(MatchSpec(
            match_id="wire-permuted", bots=bots, seed=31, rules_preset=preset,
            rules_options=(*options.items(), ("max_deals", 1)), sandbox="process",
            work_dir=str(work), time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * 3
        recordings.append(read_messages(result, 0))

    a, b = recordings
    cut, fine = assert_same_bytes_until_a_new_card(a, b, set(base["hands"][0]), 0)
    assert fine > cut
    # Turn notices are among the bytes compared (seat 1 opens, seat 2 passes).
    assert turns_of(a[:cut]) and turns_of(a[:cut]) == turns_of(b[:cut])
    # And the permutation did change what it saw afterwards (the test has teeth).
    assert a != b


# ---------------------------------------------------------------- 3. private offers

# Dealer 2: seat 0 opens with 100, seat 1 holds four 9s (an Estonian redeal
# offer it may ask for) and the observer is seat 2. In the second deal seat
# 1's 9S and seat 0's KC trade places, so seat 1 has no offer; seat 2's own
# cards and the talon are the same.
OFFER_DEAL = {"dealer": 2, "totals": [0, 0, 0],
              "hands": [["AH", "TH", "KH", "QH", "AC", "TC", "KC"],
                        ["9C", "9D", "9H", "9S", "JH", "JD", "JC"],
                        ["AD", "TD", "KD", "QD", "AS", "TS", "KS"]],
              "talon": ["QC", "JS", "QS"]}


def test_a_declined_redeal_offer_changes_no_byte_for_the_other_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = {**OFFER_DEAL, "hands": [
        ["AH", "TH", "KH", "QH", "AC", "TC", "9S"],
        ["9C", "9D", "9H", "KC", "JH", "JD", "JC"],
        OFFER_DEAL["hands"][2]]}
    observer = 2
    recordings: list[list[list[bytes]]] = []
    for run, deal in enumerate([OFFER_DEAL, other]):
        fixed_first_deal(monkeypatch, deal)
        work = tmp_path / f"run{run}"
        bots = tuple(recorder(work / f"bot{s}", "passive+turns") for s in range(3))
        result = run_match(MatchSpec(
            match_id="wire-offer", bots=bots, seed=31, rules_preset="estonian",
            rules_options=(("max_deals", 1),), sandbox="process",
            work_dir=str(work), time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * 3
        recordings.append([read_messages(result, s.seat) for s in result.seats])

    def offered(messages: list[bytes]) -> bool:
        return any("redeal" in pb.RefereeMessage.FromString(m).decision.legal_texts
                   for m in messages)

    # The test has teeth: seat 1 was offered a redeal (and passed) only in the first match.
    assert offered(recordings[0][1]) and not offered(recordings[1][1])
    cut, _ = assert_same_bytes_until_a_new_card(recordings[0][observer], recordings[1][observer],
                                                set(OFFER_DEAL["hands"][observer]), observer)
    # The observer's Turn notices are among the bytes compared, and none
    # told of seat 1's offer: the first is seat 1's turn in the auction (seat
    # 0's opening 100 is compulsory), the same bytes as where no offer was made.
    turns = turns_of(recordings[0][observer][:cut])
    assert turns and turns[0].seat == 1 and turns[0].phase == "bidding"
    assert all(not (t.seat == 1 and t.phase == "redeal") for t in turns_of(recordings[0][observer]))
    # Seat 1 itself hears of its own pass to the offer (its next request).
    events_1 = [ev.text for m in map(pb.RefereeMessage.FromString, recordings[0][1])
                for ev in (*m.decision.events, *m.turn.events)]
    assert events_1.count("seat 1: pass") == 2  # the declined offer, then its pass in the auction


def test_a_watcher_is_told_of_the_next_public_turn_before_a_private_offer_is_put(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timing of Turn notices tells no private offer either. Where no
    offer is made, a watcher's notice of a turn is posted in the same loop
    step as the request it announces. Were it held back while another seat
    decides a private offer and sent when the offer is answered, its delay
    after the watcher's previous message would be the offer's thinking time
    (zero where none is made): the watcher, pondering or reading kernel
    timestamps, would learn of the offer. So the notice of the turn the
    watcher's view shows (the one that comes if the offer is declined) goes
    out before the offer is put, and is not sent again. Checked on the order
    in which the referee posts messages to every seat, in both worlds."""
    from arena.referee.seats import Seat

    log: list[tuple[int, pb.RefereeMessage]] = []
    post, send_now = Seat.post, Seat.send_now

    def logged_post(self: Seat, data: bytes) -> bool:
        log.append((self.index, pb.RefereeMessage.FromString(data)))
        return post(self, data)

    async def logged_send_now(self: Seat, data: bytes) -> bool:
        if self.outbox or (self.drainer is not None and not self.drainer.done()):
            return self.post(data)  # logged there
        log.append((self.index, pb.RefereeMessage.FromString(data)))
        return await send_now(self, data)

    monkeypatch.setattr(Seat, "post", logged_post)
    monkeypatch.setattr(Seat, "send_now", logged_send_now)
    other = {**OFFER_DEAL, "hands": [
        ["AH", "TH", "KH", "QH", "AC", "TC", "9S"],
        ["9C", "9D", "9H", "KC", "JH", "JD", "JC"],
        OFFER_DEAL["hands"][2]]}
    observer, holder = 2, 1
    shapes: list[list[str]] = []
    for run, deal in enumerate([OFFER_DEAL, other]):
        fixed_first_deal(monkeypatch, deal)
        log.clear()
        work = tmp_path / f"run{run}"
        bots = tuple(recorder(work / f"bot{s}", "passive+turns") for s in range(3))
        result = run_match(MatchSpec(
            match_id="wire-offer-timing", bots=bots, seed=31, rules_preset="estonian",
            rules_options=(("max_deals", 1),), sandbox="process",
            work_dir=str(work), time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * 3
        shape: list[str] = []
        for seat, msg in log:
            body = msg.WhichOneof("body")
            if seat == observer and body == "turn":
                shape.append(f"notice of {msg.turn.seat} {msg.turn.phase}")
            elif body == "decision" and "redeal" in msg.decision.legal_texts:
                assert run == 0 and seat == holder  # the test has teeth: offered in run 0 only
                shape.append("OFFER")
            elif body == "decision":
                shape.append(f"request to {seat}")
        shapes.append(shape)
        if run == 0:
            assert "OFFER" in shape
    offered, plain = shapes
    # Up to the first turn of the auction, the watcher's notices and the
    # requests they announce come in the same order in both worlds, with the
    # offer slipped in after the notice of the turn that follows it...
    at = offered.index("OFFER")
    assert at > 0 and offered[at - 1] == f"notice of {holder} bidding", offered[:at + 2]
    # (The play after differs: the two worlds' hands do.)
    end = offered.index("notice of 0 exchange")
    assert offered[:at] + offered[at + 1:end] == plain[:end - 1], (offered[:end], plain[:end])
    # ... and that notice is not sent a second time when the offer is declined.
    assert offered.count(f"notice of {holder} bidding") == plain.count(f"notice of {holder} bidding")


# ---------------------------------------------------------------- 4. lottery guesses


def _lottery_seed(rules: Rules) -> int:
    """The first match seed whose first deal opens with a lottery offer."""
    return next(s for s in range(1000) if new_game(rules, seed=s).phase == "lottery")


def _picked(data: bytes) -> bool:
    """The message tells of the organiser's pick (its event, in whatever carries it)."""
    msg = pb.RefereeMessage.FromString(data)
    body = msg.WhichOneof("body")
    carried = getattr(msg, body).events if body in ("decision", "deal_result", "match_end", "turn") else ()
    return any(ev.kind == "action" and ev.action.kind == "pick" for ev in carried)


def test_a_lottery_guess_changes_no_byte_for_the_others_until_the_pick(
    tmp_path: Path,
) -> None:
    """Guesses are laid face down (docs/rules.md 21): the first guesser's
    colour must not reach the second guesser before it guesses, nor the
    organiser before it picks, nor the seat sitting out."""
    rules = Rules.preset("finnish").replace(players=4, max_deals=1)
    seed = _lottery_seed(rules)
    game = new_game(rules, seed=seed)
    organiser = game.to_act
    game = game.apply(parse_action("lottery"))
    first = game.to_act
    game = game.apply(parse_action("guess red"))
    second = game.to_act
    assert len({organiser, first, second, game.dealer}) == 4

    recordings: list[list[list[bytes]]] = []
    for run, colour in enumerate(["red", "black"]):
        work = tmp_path / f"run{run}"
        bots = tuple(recorder(work / f"bot{s}", f"lottery:{colour if s == first else 'red'}+turns")
                     for s in range(4))
        result = run_match(MatchSpec(
            match_id="wire-lottery", bots=bots, seed=seed, rules_preset="finnish",
            rules_options=(("players", 4), ("max_deals", 1)), sandbox="process",
            work_dir=str(work), time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * 4
        recordings.append([read_messages(result, s.seat) for s in result.seats])

    for seat in (organiser, second, game.dealer):
        a, b = recordings[0][seat], recordings[1][seat]
        cut = next(i for i, data in enumerate(a) if _picked(data))
        assert cut == next(i for i, data in enumerate(b) if _picked(data))
        assert a[:cut] == b[:cut], f"seat {seat} learnt the first guess before the pick"
        # After the pick the guesses are open, and this seat sees which it was.
        assert a != b
    # The test has teeth: the compared part holds the second guesser's own
    # guess and the organiser's pick, each asked after the first guess.
    def asked(seat: int, kind: str) -> bool:
        data = recordings[0][seat]
        cut = next(i for i, d in enumerate(data) if _picked(d))
        return any(a.kind == kind for d in data[:cut]
                   for a in pb.RefereeMessage.FromString(d).decision.legal_actions)
    assert asked(second, "guess") and asked(organiser, "pick")


# ---------------------------------------------------------------- 5. the same events with notices or without


def _events_of(messages: list[bytes]) -> list[bytes]:
    """Every event a seat received, in order, whatever message carried it."""
    out: list[bytes] = []
    for data in messages:
        msg = pb.RefereeMessage.FromString(data)
        body = msg.WhichOneof("body")
        if body in ("decision", "turn", "deal_result", "match_end"):
            out += [e.SerializeToString(deterministic=True) for e in getattr(msg, body).events]
    return out


@pytest.mark.parametrize(("preset", "options"), [
    ("finnish", {"max_deals": 4}),                      # redeal offers, bombs
    ("finnish", {"players": 4, "lottery": True, "max_deals": 4}),  # sitting dealer, lottery
    ("czech", {"blind": "czech", "max_deals": 4}),
    ("finnish", {"players": 2, "max_deals": 4}),          # stock
])
def test_asking_for_turn_notices_changes_no_event(
    preset: str, options: dict[str, object], tmp_path: Path
) -> None:
    """A seat that asks for Turn notices receives every event a seat that does
    not ask receives, each once, in the same order (the notices carry the
    events that would have waited for the next message, never a copy), and
    the match goes the same way. Passive bots play a function of their own
    view, so both matches are the same game."""
    players = int(options.get("players", 3))  # type: ignore[call-overload]
    runs = []
    for asks in (True, False):
        work = tmp_path / f"asks-{asks}"
        bots = tuple(recorder(work / f"bot{s}", "passive+turns" if asks else "passive")
                     for s in range(players))
        result = run_match(MatchSpec(
            match_id="wire-same-events", bots=bots, seed=8, rules_preset=preset,
            rules_options=tuple(options.items()), sandbox="process", work_dir=str(work),
            time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * players
        runs.append([read_messages(result, s) for s in range(players)])
    asked, plain = runs
    for seat in range(players):
        assert turns_of(asked[seat]) and not turns_of(plain[seat])  # the test has teeth
        assert _events_of(asked[seat]) == _events_of(plain[seat]), f"seat {seat}"
        # Its own requests are the same but for the events the notices carried.
        mine = [pieces([m])[-1] for m in asked[seat]
                if pb.RefereeMessage.FromString(m).WhichOneof("body") == "decision"]
        assert mine == [pieces([m])[-1] for m in plain[seat]
                        if pb.RefereeMessage.FromString(m).WhichOneof("body") == "decision"]
