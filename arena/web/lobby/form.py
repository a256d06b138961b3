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


# Each option in plain words: its group on the form, a label and a one-line
# help (docs/rules.md#options says the same at length). Keyed by the
# engine's option names; tests/web/lobby/test_lobby_form.py fails when the
# engine gains an option that is not here, so none is shown by its code name.
GROUPS = ("The table", "Bidding", "Play", "Scoring")
WORDS: dict[str, tuple[str, str, str]] = {
    "players": ("The table", "Players", "4: the dealer sits each deal out; 2: a stock or banks game"),
    "target": ("The table", "Game to", "the total that wins: 1000, or 500 for a short game"),
    "max_deals": ("The table", "At most this many deals", "the game stops here if nobody reached the target"),
    "bid_step": ("Bidding", "Bids go up by", "the step of bids, contracts and raises"),
    "blind": ("Bidding", "Blind bids", "bidding before looking at your cards (Finnish or Czech way), for double"),
    "golden_horse": ("Bidding", "Golden horse", "the first three deals are bid blind by everyone"),
    "bomb": ("Bidding", "Bomb (concede)", "the declarer may give the deal up for a fixed price"),
    "bomb_limit": ("Bidding", "Bombs per player", "Finnish bombs each player may use in a game; 0: no limit"),
    "redeal": ("Bidding", "Redeal when", "a hand or talon that may (or must) be dealt again"),
    "redeal_penalty": ("Bidding", "Second redeal costs", "points the dealer loses for a second redeal in a row; 0: nothing"),
    "hidden_talon_on_100": ("Bidding", "Talon unseen at 100",
                            "when everyone passes over the opening 100, the talon is not shown"),
    "two_player_contract": ("Bidding", "Two players: contract", "what the stock game's maker must make"),
    "must_trump": ("Play", "Must trump", "without the led suit, play a trump if you have one"),
    "must_beat": ("Play", "Must beat", "play higher than the trick's best card of the led suit (and over-trump)"),
    "auto_declare": ("Play", "Marriages declare themselves",
                     "leading the king or queen of a marriage you hold always declares it"),
    "ace_marriage": ("Play", "Four aces marriage", "all four aces declared when leading one are worth this"),
    "exchange": ("Play", "After the talon", "the declarer gives a card to each player, or discards three"),
    "exchange_visible": ("Play", "Given cards shown", "the cards the declarer gives are shown to everyone"),
    "two_player_form": ("Play", "Two players: form", "a stock to draw from, or banks of cards (docs: table sizes)"),
    "lottery": ("Play", "Lottery", "the Finnish lottery with three 9s (4 players)"),
    "rounding": ("Scoring", "Rounding", "how the other players' card points are rounded"),
    "barrel": ("Scoring", "Barrel", "near the target a player must make a contract to go on (lock, or sud)"),
    "barrel_threshold": ("Scoring", "Barrel from", "the total where the barrel starts; 0: the rules' own (800 or 880)"),
    "barrel_cap": ("Scoring", "Stop below the target", "a player not declaring never goes above the target minus 10"),
    "bolts": ("Scoring", "Bolts", "a player who takes no trick gets a bolt; every third costs 120"),
    "samosval": ("Scoring", "555 goes to 0", "a total of exactly 555 (or -555) after a deal becomes 0"),
    "dealer_talon_points": ("Scoring", "Sitting dealer scores the talon",
                            "with 4 players, the dealer who sits out gains the talon's card points"),
}


@dataclass(frozen=True)
class Control:
    name: str                        # the option's name
    kind: str                        # bool | choice | int | conditions
    label: str
    value: str                       # the preset's value as text ("true", "czech", "3")
    choices: tuple[str, ...] = ()
    chosen: frozenset[str] = frozenset()   # conditions: the preset's
    minimum: int = 0
    group: str = ""
    help: str = ""


def controls(preset: str) -> list[Control]:
    """One control per option, set to `preset`'s values, in the order of GROUPS."""
    text = Rules.preset(preset).options_text()
    out = []
    for k in option_kinds():
        value = text[k.name]
        group, label, help_ = WORDS.get(k.name, (GROUPS[-1], k.name.replace("_", " "), ""))
        out.append(Control(
            name=k.name, kind=k.kind, label=label, value=value, group=group, help=help_,
            choices=tuple(str(c) for c in k.choices),
            chosen=frozenset(v for v in value.split(",") if v) if k.kind == "conditions" else frozenset(),
            minimum=k.minimum))
    return sorted(out, key=lambda c: GROUPS.index(c.group))  # stable: the engine's order in a group


def grouped(preset: str) -> list[tuple[str, list[Control]]]:
    """The controls of `preset` by group, as the form shows them."""
    every = controls(preset)
    return [(g, [c for c in every if c.group == g]) for g in GROUPS]


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
