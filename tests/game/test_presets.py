"""docs/rules.md#presets: every preset's value for every rule point of the table, and
`Rules.preset` / `Rules.replace` validation (§2 options by name)."""

from __future__ import annotations

import pytest

from arena.game import Rules

# One row per rule point of docs/rules.md#presets, one column per preset
# (standard = estonian, lithuanian, czech, finnish, swedish).
TABLE: dict[str, tuple[object, object, object, object, object]] = {
    "players": (3, 3, 3, 3, 3),
    "target": (1000, 1000, 1000, 1000, 1000),
    "bid_step": (10, 10, 5, 10, 5),
    "must_trump": (True, True, True, False, True),
    "must_beat": ("suit_and_trump", "none", "none", "none", "none"),
    "auto_declare": (True, False, False, False, False),
    "ace_marriage": (0, 0, 200, 0, 0),
    "rounding": ("ten_half_down", "ten_half_down", "five_nearest", "ten_half_down", "five_nearest"),
    "barrel": ("lock", "none", "sud", "lock", "none"),
    "bomb": ("none", "none", "czech", "finnish", "none"),
    "bolts": (False, False, True, False, False),
    "samosval": (False, False, False, False, False),
    "blind": ("none", "none", "none", "none", "none"),
    "golden_horse": (False, False, False, False, False),
    "exchange": ("give", "give", "give", "give", "give"),
    "exchange_visible": (False, False, True, False, False),
    "hidden_talon_on_100": (False, False, False, True, False),
}
COLUMNS = ("standard", "lithuanian", "czech", "finnish", "swedish")


@pytest.mark.parametrize("option", sorted(TABLE))
@pytest.mark.parametrize("preset", COLUMNS)
def test_preset_value_matches_rules_md_table(preset: str, option: str) -> None:
    assert getattr(Rules.preset(preset), option) == TABLE[option][COLUMNS.index(preset)]


def test_estonian_is_standard_under_another_name() -> None:
    std, est = Rules.preset("standard"), Rules.preset("estonian")
    for name in Rules.option_names():
        assert getattr(std, name) == getattr(est, name), name


def test_barrel_thresholds_and_the_estonian_cap() -> None:
    assert Rules.preset("standard").threshold == 800
    assert Rules.preset("standard").replace(target=500).threshold == 400  # docs/rules.md#option-details: 400 in the 500 game
    assert Rules.preset("finnish").threshold == 800
    assert Rules.preset("czech").threshold == 880
    assert Rules.preset("standard").barrel_cap and not Rules.preset("finnish").barrel_cap


def test_redeal_sets_per_preset() -> None:
    assert set(Rules.preset("lithuanian").redeal) == set()
    assert {"four_nines", "under_10_no_marriage"} == set(Rules.preset("estonian").redeal)
    assert {"four_nines_forced", "at_most_17"} == set(Rules.preset("finnish").redeal)
    assert len(Rules.preset("czech").redeal) == 6
    assert set(Rules.preset("swedish").redeal) == {"four_nines_after_exchange"}


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="czech"):
        Rules.preset("klondike")


@pytest.mark.parametrize("bad", [{"target": 750}, {"bid_step": 7}, {"no_such_option": 1},
                                 {"must_beat": "always"}, {"samosval": "maybe"}, {"max_deals": 0}])
def test_replace_rejects_unknown_options_and_bad_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        Rules.preset("standard").replace(**bad)


def test_replace_returns_a_new_value() -> None:
    r = Rules.preset("czech")
    r2 = r.replace(target=500, samosval=True)
    assert (r2.target, r2.samosval) == (500, True)
    assert (r.target, r.samosval) == (1000, False)
    assert r2.bid_step == 5
