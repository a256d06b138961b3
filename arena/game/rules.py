"""The rule options of docs/rules.md#options, docs/rules.md#option-details, docs/rules.md#table-sizes and the presets of #presets.

`Rules` is a frozen value: build it with `Rules.preset(name)` and change
options with `replace(**options)`, which validates every value. `to_dict()`
/ `from_dict()` give a JSON-able form that names the preset and every option.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from dataclasses import replace as _dc_replace
from typing import Any, ClassVar, overload


class RulesError(ValueError):
    """An unknown preset or option, or a bad option value."""


# Redeal conditions (docs/rules.md#option-details). "hand" ones let the holder ask, "talon"
# and "forced" ones redeal by themselves; "after_exchange" is the Swedish one.
REDEAL_CONDITIONS: tuple[str, ...] = (
    "four_nines",              # hand: four 9s (Estonian, Czech): may ask
    "four_nines_forced",       # hand: four 9s, compulsory (Finnish)
    "under_10_no_marriage",    # hand: < 10 card points and no marriage (Estonian)
    "at_most_17",              # hand: 17 card points or fewer (Finnish)
    "under_13",                # hand: < 13 card points (Czech)
    "four_jacks",              # hand: four jacks (Czech)
    "talon_under_6",           # talon: < 6 card points (Czech)
    "talon_two_nines",         # talon: two or more 9s (Czech)
    "talon_three_jacks",       # talon: three jacks (Czech)
    "four_nines_after_exchange",  # any hand after the exchange may abandon (Swedish)
)
HAND_CONDITIONS = frozenset({"four_nines", "under_10_no_marriage", "at_most_17", "under_13", "four_jacks"})
AUTO_CONDITIONS = frozenset({"four_nines_forced", "talon_under_6", "talon_two_nines", "talon_three_jacks"})

REDEAL_SETS: dict[str, tuple[str, ...]] = {
    "none": (),
    "estonian": ("four_nines", "under_10_no_marriage"),
    "finnish": ("four_nines_forced", "at_most_17"),
    "czech": ("four_nines", "under_13", "four_jacks", "talon_under_6", "talon_two_nines",
              "talon_three_jacks"),
    "swedish": ("four_nines_after_exchange",),
}

_CHOICES: dict[str, tuple[object, ...]] = {
    "players": (3, 4, 2),
    "target": (1000, 500),
    "bid_step": (10, 5),
    "must_beat": ("none", "suit", "suit_and_trump"),
    "ace_marriage": (0, 200),
    "rounding": ("ten_half_down", "five_nearest"),
    "barrel": ("none", "lock", "sud"),
    "bomb": ("none", "finnish", "czech"),
    "blind": ("none", "finnish", "czech"),
    "exchange": ("give", "discard"),
    "two_player_form": ("stock", "banks"),
    "two_player_contract": (100, 120),
}
_BOOLS = frozenset({
    "must_trump", "auto_declare", "bolts", "samosval", "golden_horse", "exchange_visible",
    "hidden_talon_on_100", "barrel_cap", "lottery", "dealer_talon_points",
})
# Integer options with a lower bound (0 = "the default for this barrel/target").
_INTS: dict[str, int] = {"max_deals": 1, "barrel_threshold": 0, "redeal_penalty": 0, "bomb_limit": 0}


@dataclass(frozen=True)
class OptionKind:
    """What values one rules option takes, for forms built from the engine's
    own list (the lobby's create-game form) rather than a copy of it."""

    name: str
    kind: str                          # "bool", "choice", "int" or "conditions"
    choices: tuple[object, ...] = ()   # "choice": the values; "conditions": the redeal conditions
    minimum: int = 0                   # "int": the least value allowed


def option_kinds() -> tuple[OptionKind, ...]:
    """Every option of Rules (but `preset`), in field order, with its kind."""
    out = []
    for name in Rules.option_names():
        if name in _BOOLS:
            out.append(OptionKind(name, "bool"))
        elif name in _CHOICES:
            out.append(OptionKind(name, "choice", _CHOICES[name]))
        elif name in _INTS:
            out.append(OptionKind(name, "int", minimum=_INTS[name]))
        else:  # redeal, the only option of several values
            out.append(OptionKind(name, "conditions", REDEAL_CONDITIONS))
    return tuple(out)


@dataclass(frozen=True)
class Rules:
    """Every option of docs/rules.md#options (plus the sub-options #option-details, #table-sizes need)."""

    preset_name: str = "standard"
    players: int = 3
    target: int = 1000
    bid_step: int = 10
    must_trump: bool = True
    must_beat: str = "suit_and_trump"
    auto_declare: bool = True
    ace_marriage: int = 0
    rounding: str = "ten_half_down"
    barrel: str = "lock"
    # Barrel threshold; 0 = default: lock 800 (400 when target is 500), sud 880 (scaled likewise).
    barrel_threshold: int = 0
    # Estonian: an opponent's gain never lifts it above target - 10 (docs/rules.md#option-details).
    barrel_cap: bool = True
    bomb: str = "none"
    # Finnish bombs per player per game (0 = unlimited).
    bomb_limit: int = 3
    redeal: tuple[str, ...] = REDEAL_SETS["estonian"]
    # Finnish: the second redeal in a row costs the dealer this much and passes the deal on (0 = off).
    redeal_penalty: int = 0
    bolts: bool = False
    samosval: bool = False
    blind: str = "none"
    golden_horse: bool = False
    exchange: str = "give"
    exchange_visible: bool = False
    hidden_talon_on_100: bool = False
    # 4 players (docs/rules.md#table-sizes): Finnish lottery with three 9s; sitting dealer gets the talon points.
    lottery: bool = False
    dealer_talon_points: bool = False
    # 2 players (docs/rules.md#table-sizes): "stock" (6 cards + stock, alternating maker) or "banks" (8 + two banks).
    two_player_form: str = "stock"
    two_player_contract: int = 100
    max_deals: int = 200

    # ------------------------------------------------------------ presets

    @staticmethod
    def presets() -> tuple[str, ...]:
        return tuple(_PRESETS)

    # `Rules.preset("czech")` builds a preset; `rules.preset` is its name.
    preset: ClassVar[_PresetAccess]

    # ------------------------------------------------------------ options

    @staticmethod
    def option_names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Rules) if f.name != "preset_name")

    def replace(self, **options: Any) -> Rules:
        """A copy with `options` changed; each name and value is validated."""
        clean: dict[str, Any] = {}
        for name, value in options.items():
            if name in ("preset", "preset_name"):
                raise RulesError(
                    f"option {name!r} cannot be replaced ({value!r}): load a preset with "
                    "Rules.preset(name), then replace its options")
            clean[name] = _validate(name, value)
        out = _dc_replace(self, **clean)
        _check_combination(out)
        return out

    def to_dict(self) -> dict[str, Any]:
        """All options, JSON-able; `preset` names the preset they started from."""
        d = asdict(self)
        d["preset"] = d.pop("preset_name")
        d["redeal"] = list(self.redeal)
        return d

    def options_text(self) -> dict[str, str]:
        """Every option as text (protobuf `Rules.options` map)."""
        out: dict[str, str] = {}
        for name in self.option_names():
            v = getattr(self, name)
            if isinstance(v, bool):
                out[name] = "true" if v else "false"
            elif isinstance(v, tuple):
                out[name] = ",".join(v)
            else:
                out[name] = str(v)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """Inverse of `to_dict`: the preset, then every other key as an override.
        Text values (as in `options_text`) are accepted too."""
        base = _preset_by_name(str(d.get("preset", "standard")))
        overrides = {k: v for k, v in d.items() if k != "preset"}
        return base.replace(**overrides)

    # ------------------------------------------------------------ derived values

    @property
    def threshold(self) -> int:
        """Effective barrel threshold (docs/rules.md#option-details)."""
        if self.barrel_threshold:
            return self.barrel_threshold
        if self.barrel == "sud":
            return 880 * self.target // 1000
        return 800 * self.target // 1000

    @property
    def bomb_ceiling(self) -> int:
        """Finnish bomb: none at or above 800 (docs/rules.md#option-details), whatever the barrel;
        scaled by `target`/1000 like the default lock threshold (400 in the 500 game)."""
        return 800 * self.target // 1000

    @property
    def hand_size(self) -> int:
        return 7


def _preset_by_name(name: str) -> Rules:
    try:
        return _PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown rules preset {name!r}; known: {', '.join(_PRESETS)}") from None


class _PresetAccess:
    """On the class: the preset constructor; on an instance: the preset name."""

    @overload
    def __get__(self, obj: None, objtype: type[Rules]) -> Callable[[str], Rules]: ...
    @overload
    def __get__(self, obj: Rules, objtype: type[Rules] | None = None) -> str: ...
    def __get__(self, obj: Rules | None, objtype: type[Rules] | None = None) -> Any:
        if obj is None:
            return _preset_by_name
        return obj.preset_name


Rules.preset = _PresetAccess()


def _validate(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            return value.lower() in ("true", "yes", "on", "1")
        raise RulesError(f"option {name!r}: bad value {value!r}; allowed: true, false")
    if name in _CHOICES:
        allowed = _CHOICES[name]
        if isinstance(allowed[0], int) and isinstance(value, str):
            with contextlib.suppress(ValueError):
                value = int(value)
        if isinstance(value, bool) or value not in allowed:
            raise RulesError(
                f"option {name!r}: bad value {value!r}; allowed: {', '.join(map(str, allowed))}"
            )
        return value
    if name in _INTS:
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < _INTS[name]:
            raise RulesError(
                f"option {name!r}: bad value {value!r}; allowed: a whole number >= {_INTS[name]}"
            )
        return value
    if name == "redeal":
        return _redeal_value(value)
    known = ", ".join(Rules.option_names())
    raise RulesError(f"unknown rules option {name!r}; known: {known}")


def _redeal_value(value: Any) -> tuple[str, ...]:
    allowed = f"a set name ({', '.join(REDEAL_SETS)}) or conditions from: {', '.join(REDEAL_CONDITIONS)}"
    if isinstance(value, str):
        if value in REDEAL_SETS:
            return REDEAL_SETS[value]
        items: Iterable[Any] = [v for v in value.split(",") if v.strip()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = value
    else:
        raise RulesError(f"option 'redeal': bad value {value!r}; allowed: {allowed}")
    chosen = set()
    for item in items:
        item = str(item).strip()
        if item not in REDEAL_CONDITIONS:
            raise RulesError(f"option 'redeal': bad condition {item!r}; allowed: {allowed}")
        chosen.add(item)
    return tuple(c for c in REDEAL_CONDITIONS if c in chosen)


def _check_combination(r: Rules) -> None:
    if r.players != 2:
        return
    # docs/rules.md#table-sizes describes the 2-player forms without talon, blind or golden horse.
    if r.exchange == "discard":
        raise RulesError("option 'exchange': 'discard' is a 3-player form; not allowed with players=2")
    if r.blind != "none":
        raise RulesError(f"option 'blind': {r.blind!r} is not allowed with players=2; allowed: none")
    if r.golden_horse:
        raise RulesError("option 'golden_horse': true is not allowed with players=2; allowed: false")


_STANDARD = Rules()
_PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "estonian": _dc_replace(_STANDARD, preset_name="estonian"),
    "lithuanian": _dc_replace(
        _STANDARD, preset_name="lithuanian", must_beat="none", auto_declare=False,
        barrel="none", barrel_cap=False, redeal=(),
    ),
    "czech": _dc_replace(
        _STANDARD, preset_name="czech", bid_step=5, must_beat="none", auto_declare=False,
        ace_marriage=200, rounding="five_nearest", barrel="sud", barrel_cap=False, bomb="czech",
        bomb_limit=0, redeal=REDEAL_SETS["czech"], bolts=True, exchange_visible=True,
    ),
    "finnish": _dc_replace(
        _STANDARD, preset_name="finnish", must_trump=False, must_beat="none", auto_declare=False,
        barrel="lock", barrel_cap=False, bomb="finnish", redeal=REDEAL_SETS["finnish"],
        redeal_penalty=100, hidden_talon_on_100=True, lottery=True, dealer_talon_points=True,
    ),
    "swedish": _dc_replace(
        _STANDARD, preset_name="swedish", bid_step=5, must_beat="none", auto_declare=False,
        rounding="five_nearest", barrel="none", barrel_cap=False, redeal=REDEAL_SETS["swedish"],
    ),
}
