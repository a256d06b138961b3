"""What `arena replay show` prints for one seat's view or all: lottery
guesses face down until the pick, the new hands after a redeal, and a blind
seat's hand once it has looked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.game import GameState, Rules, new_game, parse_action
from arena.referee.replay import Replay
from arena.referee.transcript import replay_lines

from .offer_seed import SEED as OFFER_SEED

Chooser = Callable[[GameState], str]


def replay_of(rules: Rules, seed: int, choose: Chooser, actions: int) -> tuple[Replay, list[GameState]]:
    """A replay of `actions` actions from the game of `seed` (choose gives
    each one's text), and the states along the way."""
    g = new_game(rules, seed=seed)
    states = [g]
    records: list[dict[str, Any]] = []
    for n in range(actions):
        seat = g.to_act
        text = choose(g)
        records.append({"type": "action", "n": n, "deal": g.deal_number, "seat": seat, "action": text})
        g = g.apply(parse_action(text))
        states.append(g)
    header = {"type": "header", "match_id": "t", "seed": seed, "rules": rules.to_dict(),
              "bots": [{"seat": s, "name": f"b{s}", "version": "1"} for s in range(rules.players)]}
    return Replay(path="t.jsonl", header=header, actions=records), states


def first_legal(g: GameState) -> str:
    return str(g.legal_actions()[0])


def test_lottery_guesses_show_in_other_seats_views_only_once_the_organiser_picks() -> None:
    rules = Rules.preset("finnish").replace(players=4)
    seed = next(s for s in range(300) if new_game(rules, seed=s).phase == "lottery")
    script = iter(["lottery", "guess red", "guess black"])

    def choose(g: GameState) -> str:
        return next(script, None) or first_legal(g)

    replay, _states = replay_of(rules, seed, choose, 6)
    first, second = (int(r["seat"]) for r in replay.actions[1:3])
    organiser = int(replay.actions[0]["seat"])
    assert str(replay.actions[3]["action"]).startswith("pick")
    everyone = "\n".join(replay_lines(replay, None))
    assert f"seat {first}: guess red" in everyone and f"seat {second}: guess black" in everyone
    for view in range(4):
        lines = list(replay_lines(replay, view))
        text = "\n".join(lines)
        assert (f"seat {first}: guess red" in text) == (view == first)
        assert (f"seat {second}: guess black" in text) == (view == second)
        if view != first:
            assert f"seat {first}: guess face down" in text
        pick = next(i for i, x in enumerate(lines) if x.strip().startswith(f"seat {organiser}: pick"))
        assert lines[pick + 1].strip() == f"guesses: seat {first} red, seat {second} black"


def test_a_redeal_shows_the_new_hands() -> None:
    rules = Rules.preset("estonian")
    seed = OFFER_SEED  # a seat is offered a redeal at the very start
    replay, states = replay_of(rules, seed, lambda g: "redeal" if g.private_offer else first_legal(g), 2)
    assert replay.actions[0]["action"] == "redeal"
    for view in (None, 0):
        lines = list(replay_lines(replay, view))
        headers = [x for x in lines if x.startswith("== deal 1")]
        assert headers == ["== deal 1, dealer " + str(states[0].dealer),
                           "== deal 1, dealer " + str(states[1].dealer) + " (redealt)"]
        redealt = lines.index(headers[1])
        new_hand = " ".join(str(c) for c in states[1].hand(0))
        assert lines[redealt + 1] == f"   seat 0 hand: {new_hand}"
        assert " ".join(str(c) for c in states[0].hand(0)) != new_hand


def test_a_blind_seat_s_hand_shows_once_it_has_looked() -> None:
    rules = Rules.preset("finnish").replace(blind="finnish", redeal="none")
    replay, states = replay_of(rules, 11, lambda g: "pass" if g.phase == "blind" else first_legal(g), 2)
    blind = int(replay.actions[0]["seat"])
    assert states[0].phase == "blind" and states[1].phase == "bidding"
    lines = list(replay_lines(replay, blind))
    assert f"   seat {blind} hand: (not seen)" in lines
    hand = " ".join(str(c) for c in states[1].hand(blind))
    looked = lines.index(f"   seat {blind} hand: {hand}")
    assert looked > lines.index(f"   seat {blind}: pass")


def test_the_compulsory_opening_bid_is_told_before_the_first_seat_acts() -> None:
    """docs/rules.md#options: the seat left of the dealer opens with a compulsory 100,
    an entry the engine makes, with no action recorded. `replay show` tells
    it first in each deal (it once began with the next seat's pass), once,
    and never counts a seat's own bid or pass as another such entry."""
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        replay, states = replay_of(rules, 11, first_legal, 400)
        openings = []  # (seat, bid) of each deal start, from the engine
        before: list[Any] = []
        for g in states:
            auction = g.observation(0).to_dict()["auction"]
            if len(auction) == 1 and auction != before and not (before and before[0] == auction[0]
                                                                 and len(before) > 1):
                openings.append(f"seat {auction[0]['seat']}: {auction[0]['action']}  (compulsory opening)")
            before = auction
        lines = list(replay_lines(replay, None))
        told = [line.strip() for line in lines if "compulsory" in line]
        assert told and told == openings, (preset, told[:3], openings[:3])
        for i, line in enumerate(lines):
            if line.startswith("== deal"):  # the hands, then the opening, then the first action
                rest = [x for x in lines[i + 1:] if "hand:" not in x]
                assert "compulsory opening" in rest[0], (preset, lines[i:i + 6])
        for view in range(rules.players):
            seen = [x for x in replay_lines(replay, view) if "compulsory" in x]
            assert len(seen) <= len(told)
