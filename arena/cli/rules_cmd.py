"""`arena rules list` and `arena rules show PRESET`: what exactly will be played."""

from __future__ import annotations

import json
from typing import Annotated

import typer

rules_app = typer.Typer(help="Rules presets and their options (docs/rules.md).",
                        no_args_is_help=True)

_ABOUT = {
    "standard": "the Estonian rules (001): must-beat, auto-declare, barrel lock 800, cap 990",
    "estonian": "the same as standard, under the document's name",
    "lithuanian": "plain agreed 3-player version (002): no must-beat, no barrel, no redeal",
    "czech": "Tisíc (003): bids by 5, rounding to 5, ace marriage, sud 880, bolts, rozepsat",
    "finnish": "Tuhat (000): no must-trump, barrel lock 800, Pommi, redeal at 17, hidden 100",
    "swedish": "Tusen (004): bids by 5, rounding to 5, four 9s after the exchange",
}


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@rules_app.command("list")
def list_presets() -> None:
    """The presets, one a line."""
    from arena.game import Rules

    for name in Rules.presets():
        typer.echo(f"{name:<11} {_ABOUT.get(name, '')}")


@rules_app.command("show")
def show(
    preset: Annotated[str, typer.Argument(help="preset name (see `arena rules list`)")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="override NAME=VALUE (repeatable)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the options as JSON")] = False,
) -> None:
    """Every option value of PRESET (after overrides)."""
    from arena.game import Rules

    try:
        rules = Rules.preset(preset)
        overrides: dict[str, str] = {}
        for item in option or ():
            name, sep, value = item.partition("=")
            if not sep:
                raise _fail(f"--option {item!r}: expected NAME=VALUE")
            overrides[name.strip()] = value.strip()
        if overrides:
            rules = rules.replace(**overrides)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(rules.to_dict(), indent=2, sort_keys=True))
        return
    base = Rules.preset(preset)
    typer.echo(f"preset {preset}" + (" (with overrides)" if rules != base else ""))
    for name, value in rules.options_text().items():
        mark = "  *" if getattr(rules, name) != getattr(base, name) else ""
        typer.echo(f"  {name:<20} {value}{mark}")
    typer.echo(f"  {'(barrel threshold)':<20} {rules.threshold if rules.barrel != 'none' else '-'}")


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")
