"""What a person's browser is sent: the seat's gRPC messages as JSON text.

A referee message becomes one frame, `{"type": "referee", "message": M}`,
where M is the protobuf JSON mapping of the RefereeMessage exactly as the
seat's stream carried it (field names as in the .proto, unset scalars
shown). The bridge adds nothing taken from elsewhere: the page draws the
table from the observation the referee sent, highlights the legal actions
the referee listed, and JavaScript decides nothing a seat may see
(docs/people.md). The bridge's own frames (`notice`,
`clock`, `turn_clock`, `closed`) carry no cards.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format

from arena.game import Rules, RulesError
from arena.wire.codec import pb


def dumps(frame: dict[str, Any]) -> str:
    """One frame as compact, key-sorted JSON: equal frames are equal text."""
    return json.dumps(frame, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def match_rules(msg: pb.RefereeMessage) -> Rules | None:
    """The rules a MatchStart names (every option spelled out), for the views'
    public marks (the barrel lock); None for another message or rules the
    engine cannot read."""
    if msg.WhichOneof("body") != "match_start":
        return None
    rules = msg.match_start.rules
    try:
        return Rules.from_dict({"preset": rules.preset or "standard", **dict(rules.options)})
    except (RulesError, ValueError, TypeError):
        return None


def referee_frame(data: bytes, rules: Rules | None = None) -> tuple[pb.RefereeMessage, str]:
    """The message parsed from the stream's bytes and its frame's text. A
    decision's or a turn notice's frame also carries `view`: the observation
    it holds, reshaped for the shared table drawing (arena.web.views.seat_view),
    nothing added but the public marks of `rules` (the match's, from its
    MatchStart)."""
    from arena.web.views import seat_view
    from arena.wire.codec import observation_from_pb

    msg = pb.RefereeMessage.FromString(data)
    body = json_format.MessageToDict(
        msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)
    frame: dict[str, Any] = {"type": "referee", "message": body}
    body_name = msg.WhichOneof("body")
    if body_name == "decision":
        frame["view"] = seat_view(observation_from_pb(msg.decision.observation), rules)
    elif body_name == "turn":
        frame["view"] = seat_view(observation_from_pb(msg.turn.observation), rules)
    return msg, dumps(frame)


def notice(text: str, level: str = "info") -> str:
    return dumps({"type": "notice", "level": level, "text": text})


def clock(seq: int, left: float) -> str:
    """The time left on the decision now waiting, for a page that (re)joins
    while it waits (a live page counts down from the request's arrival)."""
    return dumps({"type": "clock", "seq": str(seq), "left_s": round(max(0.0, left), 3)})


def turn_clock(seat: int, left: float) -> str:
    """The per-move time left to the other seat now deciding (a Turn notice),
    for a page that (re)joins meanwhile."""
    return dumps({"type": "turn_clock", "seat": seat, "left_s": round(max(0.0, left), 3)})


def closed(why: str) -> str:
    return dumps({"type": "closed", "why": why})
