"""The create-game form's controls (arena.web.lobby.form): built from the
engine's option list, read back into only what differs from the preset."""

from __future__ import annotations

import pytest

from arena.game import Rules
from arena.game.rules import option_kinds
from arena.web.lobby.form import (
    GROUPS,
    MARK,
    PREFIX,
    WORDS,
    FormError,
    controls,
    grouped,
    options_from_controls,
    per_move,
)


def _posted(preset: str) -> dict[str, list[str]]:
    """What the form posts for `preset` untouched: every control at its value."""
    out: dict[str, list[str]] = {MARK: ["1"]}
    for c in controls(preset):
        if c.kind == "bool":
            if c.value == "true":
                out[PREFIX + c.name] = ["true"]
        elif c.kind == "conditions":
            out[PREFIX + c.name] = sorted(c.chosen)
        else:
            out[PREFIX + c.name] = [c.value]
    return out


@pytest.mark.parametrize("preset", Rules.presets())
def test_every_option_has_a_control_at_the_presets_value(preset: str) -> None:
    cs = controls(preset)
    assert sorted(c.name for c in cs) == sorted(Rules.option_names()) == sorted(k.name for k in option_kinds())
    text = Rules.preset(preset).options_text()
    assert all(c.value == text[c.name] for c in cs)
    assert options_from_controls(preset, _posted(preset)) == {}  # untouched: nothing changes


def test_every_option_is_in_plain_words_with_a_help_in_a_group() -> None:
    """A new engine option fails here until it is given words: the form never
    shows an option by its code name (`hidden_talon_on_100`) alone."""
    assert set(WORDS) == set(Rules.option_names())
    for name, (group, label, help_) in WORDS.items():
        assert group in GROUPS and label and help_, name
        assert "_" not in label and label != name, name
    groups = grouped("finnish")
    assert [g for g, _ in groups] == list(GROUPS) and all(cs for _, cs in groups)
    shown = {c.name: c for _, cs in groups for c in cs}
    assert shown["hidden_talon_on_100"].label == "Talon unseen at 100"
    assert shown["bomb"].group == "Bidding" and shown["bomb"].value == "finnish"
    assert [c.name for _, cs in groups for c in cs] == [c.name for c in controls("finnish")]


def test_changed_controls_are_the_options_and_the_engine_accepts_them() -> None:
    form = _posted("standard")
    form[PREFIX + "golden_horse"] = ["true"]
    del form[PREFIX + "must_trump"]              # an unchecked box posts nothing
    form[PREFIX + "blind"] = ["czech"]
    form[PREFIX + "redeal"] = ["four_jacks", "under_13"]
    got = options_from_controls("standard", form)
    assert got == {"golden_horse": "true", "must_trump": "false", "blind": "czech",
                   "redeal": "under_13,four_jacks"}
    rules = Rules.preset("standard").replace(**got)
    assert rules.golden_horse and not rules.must_trump and rules.redeal == ("under_13", "four_jacks")
    form[PREFIX + "redeal"] = []                 # no condition ticked: no redeals
    assert options_from_controls("standard", form)["redeal"] == ""
    assert options_from_controls("standard", {}) == {}  # posted without the controls


@pytest.mark.parametrize("name, value, words", [
    ("max_deals", "0", "option 'max_deals'"),
    ("max_deals", "two", "option 'max_deals'"),
    ("players", "5", "option 'players'"),
    ("redeal", "sometimes", "option 'redeal'"),
])
def test_a_bad_control_value_is_an_error_naming_it(name: str, value: str, words: str) -> None:
    form = _posted("standard")
    form[PREFIX + name] = [value]
    with pytest.raises(FormError, match=words):
        options_from_controls("standard", form)
    del form[PREFIX + name]
    if name != "redeal":
        with pytest.raises(FormError, match=f"rules option {name}: no value"):
            options_from_controls("standard", form)


def test_per_move_time() -> None:
    assert per_move("") is None and per_move(" 30 ") == 30.0 and per_move("3600") == 3600.0
    for bad in ("0", "-1", "abc", "nan", "inf", "3600.5"):
        with pytest.raises(FormError, match="per-move time"):
            per_move(bad)


def test_the_options_text_field_names_itself_not_a_command_line_flag() -> None:
    """A person typing in the form's options field never typed `--option`."""
    from arena.web.lobby.games import GameError
    from arena.web.lobby.routes import parse_options

    assert parse_options("max_deals=2, target=500") == {"max_deals": "2", "target": "500"}
    with pytest.raises(GameError) as err:
        parse_options("max_deals=2\ntarget")
    assert str(err.value) == "options 'target': expected NAME=VALUE"
