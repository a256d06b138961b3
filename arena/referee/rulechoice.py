"""Which rules a match plays, and the errors of a spec that cannot be played.

    rules = build_rules(spec)   # RulesChoiceError names the part that is wrong
    pairs, problem = rules_overrides(["max_deals=3"], "--option")

`rules_overrides` reads the options a person typed (a command's --option,
a lobby form's field) for MatchSpec.rules_options; the command line and the
web app both use it.
"""

from __future__ import annotations

from arena.game import Rules
from arena.referee.spec import MatchSpec


class MatchSetupError(ValueError):
    """The spec cannot be played (bad rules, wrong number of bots, no sandbox)."""


class RulesChoiceError(MatchSetupError):
    """The spec's rules cannot be played: `part` says which part of the
    choice is wrong ("preset", "option" or "players"), so that a command
    line can name the flag that chose it."""

    def __init__(self, message: str, part: str) -> None:
        super().__init__(message)
        self.part = part


def build_rules(spec: MatchSpec) -> Rules:
    """The spec's rules; RulesChoiceError if they cannot be played."""
    try:
        rules = Rules.preset(spec.rules_preset)
    except ValueError as exc:
        raise RulesChoiceError(str(exc), "preset") from None
    if spec.rules_options:
        try:
            rules = rules.replace(**dict(spec.rules_options))
        except ValueError as exc:
            raise RulesChoiceError(str(exc), "option") from None
    if len(spec.bots) != rules.players:
        raise RulesChoiceError(
            f"the rules need {rules.players} players, the match has {len(spec.bots)} bots", "players")
    return rules


def rules_overrides(items: list[str] | None, where: str = "--option") -> tuple[list[tuple[str, object]], str]:
    """`--option NAME=VALUE` items as (name, value) pairs, and what is wrong
    ("" if nothing), named as `where` (the flag, or a web form's field). The
    values stay text: the engine reads each option's type."""
    out: list[tuple[str, object]] = []
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            return [], f"{where} {item!r}: expected NAME=VALUE"
        out.append((name.strip(), value.strip()))
    return out, ""
