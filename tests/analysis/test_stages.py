"""The two-stage analysis (arena/analysis/stages.py): which decisions the
stronger reference values again, and that their label then comes from its
values, not the screen's."""

from __future__ import annotations

import random

from arena.analysis import evaluate as ev
from arena.analysis.labels import label
from arena.analysis.policies import reference
from arena.analysis.replay import Settings, decision
from arena.analysis.stages import needs_confirm
from arena.game import GameState
from arena.game.actions import Action

from .test_core import _ten_under_the_ace


def test_the_screen_sends_on_its_labels_and_losses_near_the_first_threshold() -> None:
    assert needs_confirm(5.0, 0.0, screen=5.0)
    assert needs_confirm(7.5, 9.0, screen=5.0)          # near a label, however noisy
    assert not needs_confirm(4.99, 0.0, screen=5.0)
    assert not needs_confirm(0.0, 0.0, screen=0.5)
    assert needs_confirm(12.0, 1.0, screen=30.0)        # a label of the screen's is always checked
    assert not needs_confirm(12.0, 6.0, screen=30.0)    # not beyond 2.5 SE: no label


class Counting:
    """A reference that plays the first legal action (a weak, different
    yardstick from greedy's), counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: GameState, rng: random.Random) -> Action:
        self.calls += 1
        return state.legal_actions()[0]


def test_a_decision_near_a_label_is_labelled_from_the_stronger_values() -> None:
    g = _ten_under_the_ace()
    greedy = reference("greedy")
    settings = Settings(work=16, confirm="search", screen=5.0)
    other = Counting()
    bad = decision(g.rules, g, 1, "play TC", greedy, settings, other)
    assert other.calls > 0 and bad["stage"] == 2
    screened = ev.evaluate(g.rules, g.observation(1).to_dict(), "play TC", greedy, work=16, seed=0)
    again = ev.evaluate(g.rules, g.observation(1).to_dict(), "play TC", Counting(), work=16, seed=0)
    assert bad["screen"] == {"best": screened.best, "loss": screened.loss, "se": screened.se,
                             "values": {c.action: c.value for c in screened.candidates}}
    assert bad["values"] == {c.action: c.value for c in again.candidates} != bad["screen"]["values"]
    assert (bad["loss"], bad["se"]) == (again.loss, again.se)
    assert bad["label"] == label(again.loss, again.se) != label(screened.loss, screened.se)
    # The good move: no screening loss, so the stronger reference is not asked.
    other = Counting()
    good = decision(g.rules, g, 1, "play 9C", greedy, settings, other)
    assert (other.calls, good["stage"], good["label"]) == (0, 1, None) and "screen" not in good
    # Without a stage 2 nothing is valued again, whatever the screen.
    assert decision(g.rules, g, 1, "play TC", greedy, settings)["stage"] == 1
