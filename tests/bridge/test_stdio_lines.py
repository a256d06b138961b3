"""The stdio bridge's two conversions, line by line (arena/bridge/stdio.py);
tests/sample_bots/test_stdio_bots.py runs it with real bots."""

from __future__ import annotations

import json
import threading

import pytest
from google.protobuf.message import DecodeError

from arena.bridge.stdio import MAX_LINE, NOT_A_MESSAGE, Outgoing, from_line, to_line
from arena.wire.codec import pb


def test_a_referee_message_is_one_line_of_json_with_the_proto_field_names() -> None:
    msg = pb.RefereeMessage(decision=pb.DecisionRequest(
        seq=7, legal_texts=["pass", "bid 110"], time_limit_s=1.5,
        observation=pb.Observation(hand=["AS", "TH"], talon_count=3)))
    line = to_line(msg.SerializeToString())
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    data = json.loads(line)
    assert data["decision"]["seq"] == "7"  # uint64: a string in the JSON mapping
    assert data["decision"]["legal_texts"] == ["pass", "bid 110"]
    assert data["decision"]["observation"]["talon_count"] == 3


def test_a_bot_line_is_its_message_and_a_hello_gets_the_token() -> None:
    data, why = from_line(b'{"hello": {"bot_name": "x", "protocol_version": 2}}', "tok")
    assert why == "" and pb.BotMessage.FromString(data).hello.token == "tok"
    data, why = from_line(b'{"reply": {"seq": "3", "text": "pass"}}', "tok")
    assert why == "" and pb.BotMessage.FromString(data) == pb.BotMessage(
        reply=pb.Reply(seq=3, text="pass"))
    # The mapping's camelCase names are accepted too, as by every JSON parser of it.
    data, _ = from_line(b'{"reply": {"seq": 3, "action": {"kind": "play", "card": "AS"}}}', "t")
    assert pb.BotMessage.FromString(data).reply.action.card == "AS"


@pytest.mark.parametrize("line, why", [
    (b"pass", "Failed to load JSON"),
    (b'{"reply": {"seq": "1", "colour": 1}}', "colour"),
    (b'{"reply": {"seq": "one"}}', "seq"),
    (b'{"reply": {"text": "\xff"}}', "utf-8"),
    (b"[1, 2]", ""),
    (b'{"reply": {"text": "' + b"x" * MAX_LINE + b'"}}', f"a line over {MAX_LINE} bytes"),
])
def test_a_line_that_is_no_message_goes_on_as_bytes_that_are_none(line: bytes, why: str) -> None:
    data, reason = from_line(line, "tok")
    assert data == NOT_A_MESSAGE and reason and why in reason
    with pytest.raises(DecodeError):  # the referee counts it malformed, as any garbage
        pb.BotMessage.FromString(data)


def test_the_outgoing_stream_is_a_queue_backed_iterator() -> None:
    out = Outgoing()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(out))
    reader.start()
    out.put(b"a")
    out.put(b"b")
    out.close()
    reader.join(5)
    assert got == [b"a", b"b"] and not reader.is_alive()


def test_every_line_is_ascii_so_no_reader_splits_a_name() -> None:
    """A person's name in the lobby is free text: U+2028 and U+2029 end a
    line for Python's str.splitlines and some JSON-line readers, and a shell
    bot may not decode UTF-8. Every line the bot reads is ASCII; the name
    comes back whole from the JSON."""
    name = "Tysiąc\u2028ли\u2029\u0085x"
    msg = pb.RefereeMessage(match_start=pb.MatchStart(
        match_id="m", seats=[pb.SeatInfo(seat=0, name=name, version="1")]))
    line = to_line(msg.SerializeToString())
    assert line.isascii() and len(line.decode().splitlines()) == 1
    assert json.loads(line)["match_start"]["seats"][0]["name"] == name
