"""docs/protocol.md "Action notation" (the reference bot authors get beside
docs/rules.md#notation) covers every action kind the engine
parses, and each form it shows is read by the engine as documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.game.actions import KINDS, ActionSyntaxError, parse_action, to_fields
from arena.wire import codec

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
# Placeholders of the table, and a value the engine accepts for each.
EXAMPLE = {"N": "110", "SEAT": "2", "CARD": "QH"}


def _section() -> str:
    text = DOC.read_text()
    start = text.index("\n## Action notation\n")
    return text[start:text.index("\n## ", start + 1)]


def _rows() -> list[tuple[str, str]]:
    """(text forms, structured cell) of each table row."""
    rows = []
    for line in _section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0] != "text":
            rows.append((cells[0], cells[1]))
    return rows


def _forms(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_every_action_kind_has_a_row() -> None:
    documented = {form.split()[0] for texts, _ in _rows() for form in _forms(texts)}
    assert documented == set(KINDS)


@pytest.mark.parametrize("texts,structured", _rows(), ids=lambda v: str(v)[:30])
def test_each_documented_form_parses_to_its_kind(texts: str, structured: str) -> None:
    for form in _forms(texts):
        line = " ".join(EXAMPLE.get(word, word) for word in form.split())
        action = parse_action(line)
        fields = to_fields(action)
        assert fields["kind"] == _forms(structured)[0] == form.split()[0]
        assert str(action) == line                          # the canonical text
        # Structured and text forms are the same action.
        assert codec.action_from_pb(codec.action_to_pb(action)) == action


def test_reading_rules_stated_in_the_section() -> None:
    assert parse_action("  PLAY kh  ") == parse_action("play KH")
    assert parse_action("play 10H") == parse_action("play TH")
    assert parse_action("discard QS 9D 9S") == parse_action("discard 9D QS 9S")
    assert str(parse_action("discard QS 9D 9S")) == "discard 9D QS 9S"   # deck order
    assert str(parse_action("blind")) == "blind" and str(parse_action("blind 120")) == "blind 120"
    assert codec.action_from_pb(codec.pb.Action(kind="blind", amount=0)) == parse_action("blind")
    # Other fields than the kind's are ignored in the structured form.
    assert codec.action_from_pb(codec.pb.Action(kind="pass", amount=7, card="AS")) == parse_action("pass")
    for bad in ("bid", "pass now", "play KH trumps", "guess green", "give QH", "bid 1O0"):
        with pytest.raises(ActionSyntaxError):
            parse_action(bad)
