"""Small helpers shared by the engine's tests: build a fixed deal, play a
script of actions in docs/rules.md#notation notation, play random games.

Scripts are lists of strings; a string may start with the seat that must act,
e.g. ``"1: bid 110"`` — the helper then checks that this seat is to act, so a
script documents who does what and fails loudly where it goes astray.
``"0: M KC"`` leads KC declaring its marriage in whichever form the rules
offer (`play KC marriage`, or `play KC` where auto_declare is on).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from arena.game import IllegalActionError, Rules, new_game, parse_action

Game = Any  # the engine's state type; tests only use its public API
Action = Any


def rules(preset: str = "standard", **options: object) -> Any:
    r = Rules.preset(preset)
    return r.replace(**options) if options else r


def deal(
    preset: str = "standard",
    hands: Sequence[str] | None = None,
    talon: str | None = None,
    *,
    dealer: int = 2,
    totals: Sequence[int] | None = None,
    seed: int = 1,
    **options: object,
) -> Game:
    """A new game whose first deal is fixed. `hands` are space-separated card
    lists per seat (e.g. "AH TH KH QH AC TC 9S"); `talon` likewise."""
    r = rules(preset, **options)
    kwargs: dict[str, object] = {"dealer": dealer}
    if totals is not None:
        kwargs["totals"] = list(totals)
    if hands is not None:
        kwargs["hands"] = [h.split() for h in hands]
    if talon is not None:
        kwargs["talon"] = talon.split()
    return new_game(r, seed=seed, **kwargs)


def texts(g: Game) -> list[str]:
    """Legal actions of the state in notation, engine order."""
    return [str(a) for a in g.legal_actions()]


def play(g: Game, *script: str) -> Game:
    """Apply each action of `script` ("bid 110" or "1: bid 110") in turn."""
    for i, line in enumerate(script):
        seat: int | None = None
        text = line
        if ":" in line:
            head, text = line.split(":", 1)
            seat = int(head)
        if seat is not None and g.to_act != seat:
            raise AssertionError(
                f"script step {i} {line!r}: seat {g.to_act} is to act, not {seat}; legal: {texts(g)}"
            )
        text = text.strip()
        if text.startswith("M "):
            g = lead_marriage(g, text[2:].strip())
            continue
        try:
            g = g.apply(parse_action(text))
        except IllegalActionError as exc:
            raise AssertionError(f"script step {i} {line!r} refused: {exc}; legal: {texts(g)}") from exc
    return g


def obs(g: Game, seat: int) -> dict[str, Any]:
    return dict(g.observation(seat).to_dict())


def play_first_legal(g: Game, until: Callable[[Game], bool]) -> Game:
    """Apply the first legal action until `until(g)` holds (or the game ends)."""
    while not g.is_over and not until(g):
        g = g.apply(g.legal_actions()[0])
    return g


def deal_done(g: Game, count: int = 1) -> Callable[[Game], bool]:
    return lambda state: len(state.deals) >= count


def random_choice(g: Game, rng: random.Random) -> Action:
    """A random legal action, biased so random games end in a sensible number
    of deals: bidders mostly pass, contracts mostly stay at the bid, offers
    (redeal, bomb, blind, lottery) are mostly declined, and the declarer
    mostly plays greedily (declare a marriage, else the strongest card) while
    the opponents play at random — so declarers make contracts and the
    barrels (only a declarer can finish) do not stall the game."""
    actions = g.legal_actions()
    if len(actions) == 1:
        return actions[0]
    names = [type(a).__name__ for a in actions]
    if "Pass" in names and rng.random() < 0.6:
        return actions[names.index("Pass")]
    if "Contract" in names and rng.random() < 0.8:
        return actions[names.index("Contract")]  # sorted: the lowest amount first
    if names[-1] == "Play" and g.observation(g.to_act).declarer == g.to_act and rng.random() < 0.9:
        return max((a for a in actions if type(a).__name__ == "Play"),
                   key=lambda a: (a.declare != "", a.card.strength, a.card.points))
    if "Concede" in names and rng.random() < 0.8:
        return rng.choice([a for a in actions if type(a).__name__ != "Concede"])
    return rng.choice(actions)


def random_game(
    r: Any, seed: int, *, on_step: Callable[[Game, Action], None] | None = None,
    **kwargs: object,
) -> tuple[Game, list[Action]]:
    """Play one whole game with seeded random choices; return the final state
    and the actions taken."""
    rng = random.Random(seed * 7919 + 1)
    g = new_game(r, seed=seed, **kwargs)
    taken: list[Action] = []
    while not g.is_over:
        a = random_choice(g, rng)
        if on_step is not None:
            on_step(g, a)
        g = g.apply(a)
        taken.append(a)
    return g, taken


def replay(r: Any, seed: int, actions: Iterable[Action], **kwargs: object) -> Game:
    g = new_game(r, seed=seed, **kwargs)
    for a in actions:
        g = g.apply(a)
    return g


def lead_marriage(g: Game, card: str) -> Game:
    """Lead `card` declaring its marriage: `play KH marriage`, or where the
    rules declare automatically (auto_declare) the one form the engine offers."""
    legal = texts(g)
    for form in (f"play {card} marriage", f"play {card}"):
        if form in legal:
            return play(g, form)
    raise AssertionError(f"cannot lead {card} with its marriage; legal: {legal}")


def plays(g: Game) -> list[str]:
    """The cards the seat to act may play, as texts, declarations ignored."""
    return sorted({t.split()[1] for t in texts(g) if t.startswith("play ")})


def bids(g: Game) -> list[int]:
    return [int(t.split()[1]) for t in texts(g) if t.startswith("bid ")]


def contracts(g: Game) -> list[int]:
    return [int(t.split()[1]) for t in texts(g) if t.startswith("contract ")]
