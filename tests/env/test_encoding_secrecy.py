"""The encoding is a function of what the seat may know: the cards it
cannot know, changed, leave the environment's observation (encoding and
action mask) identical byte for byte; its own cards changed do not."""

from __future__ import annotations

import random

import numpy as np
import pytest

import arena.env
from arena.env import encoding
from arena.game import GameState, Rules, new_game
from arena.sdk.belief import Sampler
from arena.wire import codec


def env_bytes(state: GameState, seat: int) -> bytes:
    """The AEC environment's observation of `seat` at `state`, as bytes: the
    encoding, and the action mask while the seat is to act. (Whose turn it
    is belongs to the AEC loop, which knows when another seat decides a
    private offer; a seat's mask is all zero but on its turn, and on its turn
    the legal actions depend on its own knowledge only.)"""
    env = arena.env.aec(state.rules.preset_name)
    env.reset(seed=0)
    assert env.table is not None
    env.table.rules = state.rules
    env.table.state = state
    obs = env.observe(f"seat_{seat}")
    if state.to_act != seat:
        assert not obs["action_mask"].any()
        return obs["observation"].tobytes()
    return obs["observation"].tobytes() + obs["action_mask"].tobytes()


def same(a: bytes, b: bytes) -> bool:
    """Equal encodings, and equal masks where both seats are to act."""
    n = encoding.SIZE * 4
    return a[:n] == b[:n] and (len(a) == n or len(b) == n or a == b)


@pytest.mark.parametrize("preset", ["standard", "czech"])
def test_permuted_unseen_cards_at_the_first_decision(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(3)
    compared = 0
    for seed in range(12):
        g = new_game(rules, seed)
        dealer = g.dealer
        for seat in range(3):
            hands = [list(g.hand(s)) for s in range(3)]
            unseen = [c for s in range(3) if s != seat for c in hands[s]] + list(g.talon)
            rng.shuffle(unseen)
            moved = [list(h) for h in hands]
            k = 0
            for s in range(3):
                if s != seat:
                    moved[s] = unseen[k:k + 7]
                    k += 7
            other = new_game(rules, seed, dealer=dealer, hands=moved, talon=unseen[k:])
            if other.hand(seat) != g.hand(seat):
                continue  # the Czech talon redealt the moved deal by itself: another deal
            compared += 1
            assert same(env_bytes(other, seat), env_bytes(g, seat))
            if set(other.hand((seat + 1) % 3)) != set(g.hand((seat + 1) % 3)):
                # Control: the same change seen from a seat whose hand changed.
                looked = other.observation((seat + 1) % 3).hand
                if looked:
                    assert not same(env_bytes(other, (seat + 1) % 3), env_bytes(g, (seat + 1) % 3))
    assert compared >= 24


@pytest.mark.parametrize("preset", ["standard", "czech", "finnish"])
def test_resampled_hidden_cards_anywhere_in_a_game(preset: str) -> None:
    """Along random games (every phase, later deals), the belief sampler's
    deals of the unseen cards, re-played through the engine to the same
    point, give the same observation bytes; the deals do differ."""
    rules = Rules.preset(preset)
    rng = random.Random(11)
    checked = differed = 0
    for seed in range(4):
        g = new_game(rules, seed)
        for _ in range(250):
            if g.is_over:
                break
            seat = rng.randrange(3)
            lottery = g.observation(seat).lottery
            # The sampler's limit: not while a Finnish lottery is being run.
            if rng.random() < 0.3 and not (lottery and not lottery["picked"]):
                obs = g.observation(seat).to_dict()
                truth = env_bytes(g, seat)
                sampler = Sampler(rules, obs)
                for deal in sampler.deals(3, rng):
                    other = sampler.state(deal, seed=rng.randrange(2**32))
                    assert same(env_bytes(other, seat), truth)
                    checked += 1
                    differed += any(set(other.hand(s)) != set(g.hand(s)) for s in range(3) if s != seat)
            legal = g.legal_actions()
            g = g.apply(legal[rng.randrange(len(legal))])
    assert checked > 50 and differed > checked // 2


def test_the_sdk_observation_encodes_like_the_engine_one() -> None:
    """A bot's `obs.data` (through the wire, with the protocol's field names)
    encodes to the same bytes as the engine's observation the env uses."""
    rules = Rules.preset("czech")
    g = new_game(rules, 4)
    rng = random.Random(4)
    n = 0
    while not g.is_over and n < 400:
        seat = g.to_act
        assert seat is not None
        engine = g.observation(seat)
        wire = codec.observation_from_pb(codec.observation_to_pb(engine.to_dict()), wire_names=True)
        assert "talon_count" in wire
        assert encoding.encode(wire).tobytes() == encoding.encode(engine.as_mapping()).tobytes()
        legal = g.legal_actions()
        mask = encoding.legal_texts_mask([str(a) for a in legal])
        assert np.array_equal(mask, encoding.legal_mask(legal))
        g = g.apply(legal[rng.randrange(len(legal))])
        n += 1


def test_every_legal_action_of_every_variant_has_an_index() -> None:
    variants = [("standard", {}), ("finnish", {"exchange": "discard", "blind": "finnish"}),
                ("finnish", {"players": 4, "lottery": True}), ("czech", {"blind": "czech"}),
                ("standard", {"players": 2}), ("standard", {"players": 2, "two_player_form": "banks"})]
    for preset, options in variants:
        rules = Rules.preset(preset).replace(**options)
        rng = random.Random(1)
        for seed in range(3):
            g = new_game(rules, seed)
            for _ in range(600):
                if g.is_over:
                    break
                legal = g.legal_actions()
                idx = [encoding.action_index(a) for a in legal]
                assert len(set(idx)) == len(idx)
                assert [encoding.action_at(i) for i in idx] == list(legal)
                g = g.apply(legal[rng.randrange(len(legal))])


def test_the_ace_marriage_has_its_own_slot() -> None:
    """Czech rules count four aces as a marriage (suit "A" in the
    observation): encoded in the declaring seat's fifth marriage slot."""
    rules = Rules.preset("czech")
    g = new_game(rules, 3)
    rng = random.Random(3)
    while not any(m["suit"] == "A" for m in g.observation(0).marriages):
        assert not g.is_over
        legal = g.legal_actions()
        g = g.apply(legal[rng.randrange(len(legal))])
    seat = next(m["seat"] for m in g.observation(0).marriages if m["suit"] == "A")
    for me in range(3):
        v = encoding.encode(g.observation(me).as_mapping())
        block = v[encoding.LAYOUT["marriages"]].reshape(4, 5)
        assert block[(seat - me) % 3, 4] == 1.0 and block[:, 4].sum() == 1.0
