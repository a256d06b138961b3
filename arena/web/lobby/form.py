"""The create-game form's rule controls and time field, and reading them back.

The controls are generated from the engine's own option list
(arena.game.rules.option_kinds), set to the chosen preset's values: a
checkbox per yes/no option, a select per option of a few values, a number
field per whole-number option, a checkbox per redeal condition. What the
form posts is checked by the engine (Rules.replace), option by option, so
an error names the option; only options that differ from the preset are
kept, and the `NAME=VALUE` text field (the advanced fallback) applies on
top of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from arena.game import Rules
from arena.game.rules import option_kinds

PREFIX = "opt_"          # a control's field name is PREFIX + the option's name
MARK = "controls"        # posted by the form: its controls are to be read
PER_MOVE_MAX = 3600.0    # seconds: an hour per move is plenty for a person


class FormError(ValueError):
    """A field of the create-game form that cannot be used; says which and why."""


@dataclass(frozen=True)
class Control:
    name: str                        # the option's name
    kind: str                        # bool | choice | int | conditions
    label: str
    value: str                       # the preset's value as text ("true", "czech", "3")
    choices: tuple[str, ...] = ()
    chosen: frozenset[str] = frozenset()   # conditions: the preset's
    minimum: int = 0


def controls(preset: str) -> list[Control]:
    """One control per option, set to `preset`'s values."""
    text = Rules.preset(preset).options_text()
    out = []
    for k in option_kinds():
        value = text[k.name]
        out.append(Control(
            name=k.name, kind=k.kind, label=k.name.replace("_", " "), value=value,
            choices=tuple(str(c) for c in k.choices),
            chosen=frozenset(v for v in value.split(",") if v) if k.kind == "conditions" else frozenset(),
            minimum=k.minimum))
    return out


def options_from_controls(preset: str, fields: dict[str, list[str]]) -> dict[str, object]:
    """The options the posted controls change from `preset` (as text, the way
    `arena play --option` gives them); FormError naming a bad one. A form
    without the controls (a script posting only `options`) changes nothing here."""
    if MARK not in fields:
        return {}
    base = Rules.preset(preset)
    text = base.options_text()
    out: dict[str, object] = {}
    for k in option_kinds():
        field = fields.get(PREFIX + k.name, [])
        if k.kind == "bool":
            value = "true" if field else "false"       # an unchecked box posts nothing
        elif k.kind == "conditions":
            value = ",".join(v.strip() for v in field if v.strip())
        elif field:
            value = field[0].strip()
        else:
            raise FormError(f"rules option {k.name}: no value was sent")
        try:
            changed = base.replace(**{k.name: value}).options_text()[k.name]
        except ValueError as exc:
            raise FormError(str(exc)) from None
        if changed != text[k.name]:
            out[k.name] = changed
    return out


def per_move(text: str) -> float | None:
    """The per-move seconds of the people's seats, None for the server's own;
    FormError if it is not a number of seconds in (0, PER_MOVE_MAX]."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= PER_MOVE_MAX):
        raise FormError(f"per-move time {text[:40]!r}: expected a number of seconds above 0 "
                        f"and at most {PER_MOVE_MAX:g}")
    return value
