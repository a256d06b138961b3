"""Game values <-> protobuf messages of `arena.v1` (the only module that
knows both sides).

    action_to_pb(action) -> pb.Action          # cached: actions are immutable values
    action_from_pb(msg) -> Action              # ActionSyntaxError (ValueError) if malformed
    reply_to_action(reply) -> Action           # structured `action` if set, else `text`
    action_bytes(action) -> bytes              # its Action message serialized (cached)
    sent_action(raw) -> Action | None          # inverse of action_bytes, for replies
    decision_message(seq, observation, legal, ...) -> bytes   # a serialized RefereeMessage,
                                               # composed from cached parts (the referee's path)
    event_field(events) / events_of(fields)    # events as DecisionRequest fields, and back
    observation_to_pb(obs_dict) -> pb.Observation
    ObservationEncoder().encode(obs_dict)      # same, incremental per seat (the referee's path)
    observation_from_pb(msg) -> dict           # back to `Observation.to_dict()` shape
    observation_from_pb(msg, wire_names=True)  # same, keys named as the proto's fields (the SDK's view)
    OBSERVATION_RENAMES                        # engine key -> proto field where they differ
    rules_to_pb(preset, options) -> pb.Rules   # option values as text ("true", "1000", "suit")
    rules_options_from_pb(msg) -> dict         # text values back to bool/int/str

Observation dicts fill the message field by field (as `json_format.ParseDict`
would, faster) and unknown keys are an error: the proto's Observation mirrors
the engine's `to_dict()` field for field, and tests/wire checks that on
random games of every preset. One field has another name on the wire
(`OBSERVATION_RENAMES`): the engine's "talon_size" is the proto's
`talon_count` (renamed in the proto, same number and type, because protoc's
C++ generator derives an accessor `talon_size()` from the repeated `talon`).
Either name fills the field; `observation_from_pb` gives the engine's name
unless asked for the wire names.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any

from arena.game.actions import (
    Action,
    ActionSyntaxError,
    action_from_fields,
    parse_action,
    to_fields,
)
from arena.wire.gen.arena.v1 import arena_pb2 as pb

__all__ = [
    "OBSERVATION_RENAMES",
    "ObservationEncoder",
    "ObservationError",
    "action_bytes",
    "action_from_pb",
    "action_to_pb",
    "decision_message",
    "event_field",
    "events_of",
    "observation_from_pb",
    "observation_to_pb",
    "option_text",
    "pb",
    "reply_to_action",
    "rules_options_from_pb",
    "rules_to_pb",
    "sent_action",
    "text_to_action",
]

_ACTION_CACHE: dict[Action, pb.Action] = {}
_ACTION_CACHE_MAX = 4096


def action_to_pb(action: Action) -> pb.Action:
    """The flat `Action` message of `action`. The returned message is shared
    (cached) and must not be mutated; `CopyFrom` it into a parent message."""
    msg = _ACTION_CACHE.get(action)
    if msg is None:
        msg = pb.Action(**to_fields(action))  # type: ignore[arg-type]
        if len(_ACTION_CACHE) < _ACTION_CACHE_MAX:
            _ACTION_CACHE[action] = msg
    return msg


# ------------------------------------------------------------------ composed messages
#
# The referee sends one DecisionRequest per decision. Most of it never
# changes between decisions (each legal action's message and text) or was
# serialized once already (events), so the message is composed from cached
# serialized parts rather than built field by field and serialized whole:
# protobuf's wire format of a message is the concatenation of its fields'
# encodings. The parts are laid out in field-number order, as protobuf's
# own serializer does, so the bytes equal `SerializeToString()` of the same
# message (tests/wire/test_composed.py checks that on random games).

_LEN = 2     # wire type of length-delimited fields (messages, strings)
_I64 = 1     # wire type of doubles
_PACK_DOUBLE = struct.Struct("<d").pack
_ZERO_DOUBLE = bytes(8)
_VARINTS = [bytes((n,)) for n in range(128)]


def _varint(n: int) -> bytes:
    if n < 128:
        return _VARINTS[n]
    out = bytearray()
    while n >= 128:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _delimited(number: int, payload: bytes) -> bytes:
    """The encoding of length-delimited field `number` holding `payload`."""
    return _varint(number << 3 | _LEN) + _varint(len(payload)) + payload


def _double(number: int, value: float) -> bytes:
    """The encoding of a proto3 double field: nothing for (bitwise) 0.0."""
    packed = _PACK_DOUBLE(value)
    return b"" if packed == _ZERO_DOUBLE else _varint(number << 3 | _I64) + packed


# DecisionRequest / RefereeMessage field numbers (protocol/arena/v1/arena.proto).
_REQ_SEQ, _REQ_OBS, _REQ_LEGAL, _REQ_TEXTS, _REQ_LIMIT, _REQ_BANK, _REQ_EVENTS = range(1, 8)
_MSG_DECISION = 2
_MSG_TURN = 7
_TURN_OBS = 8  # Turn.observation

# action -> (Action message bytes, legal_actions entry, legal_texts entry)
_PARTS: dict[Action, tuple[bytes, bytes, bytes]] = {}
# Action message bytes -> action: the inverse of _PARTS, for replies that
# echo one of the legal actions' messages byte for byte (the usual reply).
_BY_BYTES: dict[bytes, Action] = {}


def _parts(action: Action) -> tuple[bytes, bytes, bytes]:
    parts = _PARTS.get(action)
    if parts is None:
        raw = action_to_pb(action).SerializeToString()
        parts = (raw, _delimited(_REQ_LEGAL, raw), _delimited(_REQ_TEXTS, str(action).encode()))
        if len(_PARTS) < _ACTION_CACHE_MAX:
            _PARTS[action] = parts
            _BY_BYTES[raw] = action
    return parts


def action_bytes(action: Action) -> bytes:
    """`action_to_pb(action).SerializeToString()`, cached."""
    return _parts(action)[0]


def sent_action(raw: bytes) -> Action | None:
    """The action whose Action message serializes to exactly `raw`, if one
    was sent in a decision request before (None otherwise: parse it)."""
    return _BY_BYTES.get(raw)


def event_field(events: Sequence[pb.Event]) -> list[bytes]:
    """Each event encoded as a `DecisionRequest.events` field: the form in
    which the referee keeps a seat's pending events, ready to be joined into
    a request (`decision_message`), serialized once for all seats that see
    the same event."""
    return [_delimited(_REQ_EVENTS, ev.SerializeToString()) for ev in events]


def events_of(fields: Sequence[bytes]) -> Sequence[pb.Event]:
    """The events back from their `event_field` form (the fields joined are
    a serialized DecisionRequest holding only events)."""
    return pb.DecisionRequest.FromString(b"".join(fields)).events


def decision_message(seq: int, observation: bytes, legal: Sequence[Action], time_limit_s: float,
                     bank_left_s: float, events: Sequence[bytes]) -> bytes:
    """The serialized `RefereeMessage(decision=DecisionRequest(...))` with
    `observation` (a serialized Observation, always present), the legal
    actions as messages and as texts, and `events` (in `event_field` form)."""
    out = [_varint(_REQ_SEQ << 3) + _varint(seq) if seq else b"", _delimited(_REQ_OBS, observation)]
    texts = []
    for action in legal:
        parts = _parts(action)
        out.append(parts[1])
        texts.append(parts[2])
    out += texts
    out.append(_double(_REQ_LIMIT, time_limit_s))
    out.append(_double(_REQ_BANK, bank_left_s))
    out += events
    return _delimited(_MSG_DECISION, b"".join(out))


def turn_message(seat: int, phase: str, deal_number: int, per_move_s: float,
                 events: Sequence[bytes], observation: bytes) -> bytes:
    """The serialized `RefereeMessage(turn=Turn(...))` with `events` (in
    `event_field` form: Turn's events have DecisionRequest's field number)
    and `observation` (a serialized Observation, always present)."""
    head = pb.Turn(seat=seat, phase=phase, deal_number=deal_number,
                   per_move_s=per_move_s).SerializeToString()
    return _delimited(_MSG_TURN, head + b"".join(events) + _delimited(_TURN_OBS, observation))


def action_from_pb(msg: pb.Action) -> Action:
    """Inverse of `action_to_pb`; a message that is no action raises ActionSyntaxError."""
    if not msg.kind:
        raise ActionSyntaxError("action has no kind")
    fields: dict[str, object] = {
        "kind": msg.kind, "amount": msg.amount, "card": msg.card, "cards": list(msg.cards),
        "seat": msg.seat, "declare": msg.declare, "color": msg.color, "bank": msg.bank,
    }
    return action_from_fields(fields)


# Parsed actions by their wire form (serialized Action, or text): the same
# few hundred actions recur all match long. Only valid ones are kept.
_PARSED: dict[bytes | str, Action] = {}


def _remember(key: bytes | str, action: Action) -> Action:
    if len(_PARSED) < _ACTION_CACHE_MAX:
        _PARSED[key] = action
    return action


def reply_to_action(reply: pb.Reply) -> Action:
    """The action a bot's Reply names: the structured one if set, else its text."""
    if reply.HasField("action"):
        key: bytes | str = reply.action.SerializeToString(deterministic=True)
        hit = _PARSED.get(key)
        return hit if hit is not None else _remember(key, action_from_pb(reply.action))
    if reply.text:
        hit = _PARSED.get(reply.text)
        return hit if hit is not None else _remember(reply.text, parse_action(reply.text))
    raise ActionSyntaxError("reply carries neither an action nor a text")


def text_to_action(text: str) -> Action:
    """`parse_action`, remembered (legal texts repeat all match long)."""
    hit = _PARSED.get(text)
    return hit if hit is not None else _remember(text, parse_action(text))


def observation_to_pb(obs: Mapping[str, Any], into: pb.Observation | None = None) -> pb.Observation:
    """Fill the message (a new one, or `into`) from an `Observation.to_dict()`.

    Same result as `json_format.ParseDict` (a test checks that), several
    times faster: it runs once per decision. None means "unset"; an unknown
    key or a value of the wrong type raises ObservationError."""
    msg = pb.Observation() if into is None else into
    try:
        _fill(msg, obs)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ObservationError(f"observation does not fit arena.v1.Observation: {exc!r}") from None
    return msg


class ObservationError(ValueError):
    """An observation dict that does not match the protobuf Observation."""


class ObservationEncoder:
    """Encodes one seat's successive observations, updating only what changed.

    A seat's observation changes little between two of its decisions: a few
    scalars, one card less in the hand, a trick or a bid more. `encode`
    compares the new dict with the previous one field by field (C-speed dict
    and list equality), rewrites changed scalars, appends to repeated fields
    that only grew, and rebuilds the rest. The result equals
    `observation_to_pb(obs)` (tests/wire checks it on random games) and is
    owned by the encoder: copy it (`CopyFrom`) before the next `encode`.
    The dicts given must not be mutated afterwards (the last one is kept).
    """

    def __init__(self) -> None:
        self._msg = pb.Observation()
        self._last: Mapping[str, Any] | None = None

    def encode(self, obs: Mapping[str, Any]) -> pb.Observation:
        msg, last = self._msg, self._last
        try:
            if last is None or last.keys() != obs.keys():
                msg.Clear()
                _fill(msg, obs)
            else:
                _update(msg, last, obs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self._last = None
            raise ObservationError(f"observation does not fit arena.v1.Observation: {exc!r}") from None
        self._last = obs
        return msg


def _update(msg: Any, last: Mapping[str, Any], obs: Mapping[str, Any]) -> None:
    layout = _layout(msg)
    for key, value in obs.items():
        old = last[key]
        # Identity first: unchanged parts are often the very same objects
        # (small ints, interned texts, views the engine shares).
        if value is old or value == old:
            continue
        kind = layout.get(key)
        if kind is None:
            key = _wire_name(msg, key)
            kind = layout[key]
        if kind == _SCALAR:
            if value is None:
                msg.ClearField(key)
            else:
                setattr(msg, key, value)
        elif kind == _MESSAGE:
            msg.ClearField(key)
            if value is not None:
                _fill(getattr(msg, key), value)
        else:
            field = getattr(msg, key)
            n = len(old)
            if not (n <= len(value) and value[:n] == old):
                del field[:]
                n = 0
            if kind == _REPEATED_SCALAR:
                field.extend(value[n:])
            else:
                for item in value[n:]:
                    _fill(field.add(), item)


# Engine key -> proto field of the Observation message, where the two differ.
# "talon_size" was renamed in the proto (same number 17 and type): protoc's
# C++ generator names the repeated `talon`'s size accessor `talon_size()`.
OBSERVATION_RENAMES: Mapping[str, str] = {"talon_size": "talon_count"}
_WIRE_TO_ENGINE = {wire: engine for engine, wire in OBSERVATION_RENAMES.items()}


def _wire_name(msg: Any, key: str) -> str:
    """The field an engine key not named as any field of `msg` fills: its
    OBSERVATION_RENAMES entry (looked up only when the plain lookup failed, so
    the other keys pay nothing for renames); KeyError if there is none."""
    if key in OBSERVATION_RENAMES and msg.DESCRIPTOR is pb.Observation.DESCRIPTOR:
        return OBSERVATION_RENAMES[key]
    raise KeyError(f"no field {key!r} in {msg.DESCRIPTOR.full_name}")


_SCALAR, _MESSAGE, _REPEATED_SCALAR, _REPEATED_MESSAGE = range(4)
# By message class: a dict lookup on the type is much cheaper than reading
# the descriptor's name through upb on every (nested) message filled.
_LAYOUTS: dict[type, dict[str, int]] = {}


def _layout(msg: Any) -> dict[str, int]:
    layout = _LAYOUTS.get(type(msg))
    if layout is None:
        layout = {}
        for f in msg.DESCRIPTOR.fields:
            is_msg = f.message_type is not None
            layout[f.name] = (_REPEATED_MESSAGE if is_msg else _REPEATED_SCALAR) if f.is_repeated \
                else (_MESSAGE if is_msg else _SCALAR)
        _LAYOUTS[type(msg)] = layout
    return layout


def _fill(msg: Any, data: Mapping[str, Any]) -> None:
    layout = _layout(msg)
    for key, value in data.items():
        kind = layout.get(key)
        if kind is None:
            key = _wire_name(msg, key)
            kind = layout[key]
        if value is None:
            continue
        if kind == _SCALAR:
            setattr(msg, key, value)
        elif kind == _REPEATED_SCALAR:
            getattr(msg, key).extend(value)
        elif kind == _MESSAGE:
            _fill(getattr(msg, key), value)
        else:
            field = getattr(msg, key)
            for item in value:
                _fill(field.add(), item)


def observation_from_pb(msg: pb.Observation, wire_names: bool = False) -> dict[str, Any]:
    """The observation as a plain dict with the engine's key names (as
    `Observation.to_dict()`), or with the proto's field names if
    `wire_names` (they differ only in `OBSERVATION_RENAMES`); unset
    optional fields are None, repeated ones empty lists."""
    from google.protobuf import json_format  # only here: costly to import, bots start often

    out: dict[str, Any] = json_format.MessageToDict(
        msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    for field in msg.DESCRIPTOR.fields:
        if field.has_presence and field.name not in out:
            out[field.name] = None
    if not wire_names:
        out = {_WIRE_TO_ENGINE.get(key, key): value for key, value in out.items()}
    return out


def option_text(value: object) -> str:
    """Option value as text on the wire: booleans lower case, sequences comma-joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else list(value)
        return ",".join(option_text(v) for v in items)
    return str(value)


def rules_to_pb(preset: str, options: Mapping[str, object]) -> pb.Rules:
    """`Rules` message: the preset and every option by name as text."""
    return pb.Rules(preset=preset, options={k: option_text(v) for k, v in sorted(options.items())})


def rules_options_from_pb(msg: pb.Rules) -> dict[str, object]:
    """Option texts back to Python values: "true"/"false" -> bool, digits -> int,
    anything else stays text (the receiver knows each option's type)."""
    out: dict[str, object] = {}
    for key, text in msg.options.items():
        if text in ("true", "false"):
            out[key] = text == "true"
        elif text.lstrip("-").isdigit():
            out[key] = int(text)
        else:
            out[key] = text
    return out
