"""Per-seat events: public facts, and private cards only for those who may know them."""

from __future__ import annotations

import random

from arena.game import Rules, new_game, parse_action
from arena.game.actions import Discard, Give, Guess, Play
from arena.game.cards import Card
from arena.referee import events


def _play_until(rules: Rules, seed: int, stop: type) -> tuple:  # type: ignore[type-arg]
    """A random game up to the first action of type `stop`: (game before it, the action)."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        wanted = [a for a in legal if isinstance(a, stop)]
        if wanted:
            return game, wanted[0]
        game = game.apply(rng.choice(legal))
    raise AssertionError("no such action in the game")


def test_trick_winner_matches_the_engine_on_random_games() -> None:
    checked = 0
    variants = [Rules.preset(p) for p in Rules.presets()] + [
        Rules.preset("finnish").replace(players=4, lottery=True),
        Rules.preset("finnish").replace(players=2),
        Rules.preset("finnish").replace(players=2, two_player_form="banks"),
    ]
    for rules in variants:
        rng = random.Random(rules.preset)
        game = new_game(rules.replace(max_deals=4), seed=3)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            actor = game.to_act
            before = game.observation(actor).to_dict()
            trick = events.completed_trick(before, actor, action)
            game = game.apply(action)
            if game.is_over:
                break
            after = game.observation(actor).to_dict()
            if trick is not None and after["deal_number"] == before["deal_number"]:
                last = after["tricks"][-1]
                assert [c["card"] for c in last["cards"]] == [str(c) for _, c in trick[0]]
                assert last["winner"] == trick[1]
                checked += 1
            elif trick is None and isinstance(action, Play):
                assert len(after["trick"]) == len(before["trick"]) + 1
    assert checked > 50


def test_trick_winner_rules() -> None:
    c = Card.parse
    assert events.trick_winner([(0, c("9H")), (1, c("AH")), (2, c("TS"))], "") == 1
    assert events.trick_winner([(0, c("9H")), (1, c("AH")), (2, c("9S"))], "S") == 2
    assert events.trick_winner([(0, c("KS")), (1, c("AS")), (2, c("AH"))], "S") == 1
    assert events.trick_winner([(0, c("JD")), (1, c("AC")), (2, c("AH"))], "") == 0


def test_a_given_card_is_hidden_from_the_third_seat_unless_the_exchange_is_visible() -> None:
    for preset, visible in (("standard", False), ("lithuanian", False), ("czech", True)):
        rules = Rules.preset(preset)
        assert rules.exchange_visible is visible  # docs/rules.md#presets: Czech gives face up
        for seed in range(4):
            game, give = _play_until(rules, seed, Give)
            actor = game.to_act
            after = game.apply(give)
            third = next(s for s in range(3) if s not in (actor, give.to))
            for viewer in range(3):
                view = after.observation(viewer).to_dict()
                ev = events.action_event(actor, give, viewer, view, 1)
                assert ev.kind == "action" and ev.seat == actor and ev.action.seat == give.to
                if viewer == third and not visible:
                    assert ev.action.card == "" and str(give.card) not in ev.text
                else:
                    assert ev.action.card == str(give.card)


def test_a_discard_shows_no_card_to_the_others() -> None:
    rules = Rules.preset("finnish").replace(exchange="discard")
    game, discard = _play_until(rules, 2, Discard)
    actor = game.to_act
    after = game.apply(discard)
    for viewer in range(3):
        ev = events.action_event(actor, discard, viewer, after.observation(viewer).to_dict(), 1)
        if viewer == actor:
            assert list(ev.action.cards) == [str(c) for c in discard.cards]
        else:
            assert not ev.action.cards and not any(str(c) in ev.text for c in discard.cards)


def test_talon_and_deal_events_follow_each_seats_own_view() -> None:
    rules = Rules.preset("standard")
    game = new_game(rules, seed=4)
    start = game.observation(0).to_dict()
    [deal] = events.after_events({}, start)
    assert deal.kind == "deal" and deal.seat == start["dealer"] and deal.deal_number == 1
    rng = random.Random(0)
    while game.observation(0).to_dict()["phase"] == "bidding":
        game = game.apply(rng.choice(game.legal_actions()))
    after = game.observation(0).to_dict()
    [talon] = events.after_events(start, after)
    assert talon.kind == "talon" and list(talon.cards) == after["talon"] and len(talon.cards) == 3


def test_shared_public_events_equal_what_each_seat_would_get() -> None:
    rng = random.Random(5)
    game = new_game(Rules.preset("czech").replace(max_deals=3), seed=5)
    shared_seen = 0
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        actor = game.to_act
        views = [game.observation(s).to_dict() for s in range(3)]
        trick = events.completed_trick(views[actor], actor, action)
        after = game.apply(action)
        shared = events.public_events(actor, action, views[actor]["deal_number"], trick)
        if shared is None:
            assert isinstance(action, (Give, Discard, Guess))
        else:
            shared_seen += 1
            for s in range(3):
                own = events.seat_events(views[s], after.observation(s).to_dict(), s, actor, action, trick)
                assert own == shared
        game = after
    assert shared_seen > 50


def test_a_lottery_guess_is_face_down_for_the_others() -> None:
    rules = Rules.preset("finnish").replace(players=4)
    game = next(g for g in (new_game(rules, seed=s) for s in range(300)) if g.phase == "lottery")
    game = game.apply(parse_action("lottery"))
    guesser = game.to_act
    guess = parse_action("guess black")
    assert events.public_events(guesser, guess, 1, None) is None  # built per viewer
    after = game.apply(guess)
    for viewer in range(4):
        ev = events.action_event(guesser, guess, viewer, after.observation(viewer).to_dict(), 1)
        assert ev.kind == "action" and ev.seat == guesser and ev.action.kind == "guess"
        if viewer == guesser:
            assert (ev.action.color, ev.text) == ("black", f"seat {guesser}: guess black")
        else:
            assert (ev.action.color, ev.text) == ("", f"seat {guesser}: guess face down")
