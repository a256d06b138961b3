"""Game values <-> protobuf messages."""

from __future__ import annotations

import pytest

from arena.game.actions import (
    Action,
    ActionSyntaxError,
    Bid,
    Blind,
    Concede,
    Contract,
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
from arena.game.cards import Card
from arena.wire import codec
from arena.wire.codec import pb

C = Card.parse

EVERY_KIND: list[Action] = [
    Lottery(), Guess("red"), Guess("black"), Pick(C("9H")), Redeal(), Blind(), Blind(120),
    Bid(100), Bid(215), Pass(), Take(0), Take(1), Give(C("QH"), 0), Give(C("AS"), 2),
    Discard((C("9C"), C("JD"), C("TS"))), Contract(120), Concede(), Play(C("KH")),
    Play(C("QS"), "marriage"), Play(C("AD"), "aces"),
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_every_action_kind_round_trips_through_bytes(action: Action) -> None:
    data = codec.action_to_pb(action).SerializeToString()
    assert codec.action_from_pb(pb.Action.FromString(data)) == action


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_reply_by_text_or_structure_gives_the_same_action(action: Action) -> None:
    by_text = pb.Reply(seq=1, text=str(action))
    by_struct = pb.Reply(seq=1, action=codec.action_to_pb(action))
    assert codec.reply_to_action(by_text) == codec.reply_to_action(by_struct) == action


@pytest.mark.parametrize("msg", [
    pb.Action(), pb.Action(kind="fly"), pb.Action(kind="play"), pb.Action(kind="give", card="ZZ"),
    pb.Action(kind="guess", color="green"),
])
def test_malformed_actions_raise_syntax_errors(msg: pb.Action) -> None:
    with pytest.raises(ActionSyntaxError):
        codec.action_from_pb(msg)


def test_empty_reply_is_malformed() -> None:
    with pytest.raises(ActionSyntaxError):
        codec.reply_to_action(pb.Reply(seq=3))
    with pytest.raises(ActionSyntaxError):
        codec.reply_to_action(pb.Reply(seq=3, text="bid lots"))


def test_cached_action_messages_are_equal_each_time() -> None:
    assert codec.action_to_pb(Bid(110)) is codec.action_to_pb(Bid(110))
    assert codec.action_to_pb(Bid(110)) == pb.Action(kind="bid", amount=110)


def test_rules_options_travel_as_text_and_come_back_typed() -> None:
    msg = codec.rules_to_pb("czech", {"target": 1000, "bolts": True, "must_beat": "none",
                                      "redeal": ("four_nines", "talon_jacks")})
    assert msg.preset == "czech"
    assert dict(msg.options) == {"target": "1000", "bolts": "true", "must_beat": "none",
                                 "redeal": "four_nines,talon_jacks"}
    back = codec.rules_options_from_pb(pb.Rules.FromString(msg.SerializeToString()))
    assert back["target"] == 1000 and back["bolts"] is True and back["must_beat"] == "none"


def test_observation_dict_round_trips_with_optional_fields() -> None:
    obs = {
        "seat": 1, "players": 3, "phase": "play", "to_act": 0, "deal_number": 2, "dealer": 2,
        "active_seats": [0, 1, 2], "hand": ["AS", "TH"], "hand_sizes": [3, 2, 2],
        "totals": [120, -40, 0], "auction": [{"seat": 0, "action": "bid 100"}], "bid": 100,
        "bidder": 0, "declarer": 0, "contract": 100, "talon": ["9C", "JD", "QH"], "talon_size": 0,
        "given": [{"from_seat": 0, "to_seat": 1, "card": "KS"}, {"from_seat": 0, "to_seat": 2, "card": ""}],
        "trump": "H", "marriages": [{"seat": 0, "suit": "H", "value": 100}],
        "trick": [{"seat": 0, "card": "KH"}], "leader": 0,
        "tricks": [{"leader": 0, "cards": [{"seat": 0, "card": "AC"}], "winner": 0}],
        "seat_states": [{"seat": 0, "bolts": 1, "on_barrel": True}],
    }
    msg = pb.Observation.FromString(codec.observation_to_pb(obs).SerializeToString())
    back = codec.observation_from_pb(msg)
    for key, value in obs.items():
        if key == "seat_states":
            continue
        assert back[key] == value, key
    assert back["lottery"] is None and back["forced_seat"] is None
    assert back["seat_states"][0]["bolts"] == 1 and back["seat_states"][0]["on_barrel"] is True


def test_talon_size_travels_as_field_17_talon_count() -> None:
    # The proto renamed Observation field 17 from talon_size to talon_count
    # (C++ stubs: the repeated `talon` has an accessor `talon_size()`); same
    # number and type, so the bytes are those of the old field.
    assert pb.Observation.DESCRIPTOR.fields_by_name["talon_count"].number == 17
    assert "talon_size" not in pb.Observation.DESCRIPTOR.fields_by_name
    assert codec.OBSERVATION_RENAMES == {"talon_size": "talon_count"}
    engine = codec.observation_to_pb({"talon_size": 3})
    assert engine.talon_count == 3
    assert engine.SerializeToString() == b"\x88\x01\x03"  # tag (17 << 3 | varint), then 3
    assert codec.observation_to_pb({"talon_count": 3}) == engine  # the wire name works too
    encoder = codec.ObservationEncoder()
    assert encoder.encode({"seat": 0, "talon_size": 3}).talon_count == 3
    assert encoder.encode({"seat": 0, "talon_size": 0}).talon_count == 0  # incremental update
    back = codec.observation_from_pb(engine)
    assert back["talon_size"] == 3 and "talon_count" not in back
    wire = codec.observation_from_pb(engine, wire_names=True)
    assert wire["talon_count"] == 3 and "talon_size" not in wire


def test_unknown_observation_keys_are_an_error() -> None:
    with pytest.raises(Exception, match="no_such_field"):
        codec.observation_to_pb({"seat": 0, "no_such_field": 1})
