"""The two stages of a decision's valuation (docs/analysis.md, "Method").

Stage 1 screens every decision with the cheap reference (greedy play-outs);
stage 2 values again, with a stronger reference, only the decisions whose
label could turn on the yardstick: those the screen labels and those whose
screening loss comes near the first threshold. The cheap reference's
misjudgements are mostly of such positions (its own later misplay makes the
bot's choice look bad), and re-valuing every decision would cost the
stronger reference's price on each, some 20 times greedy's.
"""

from __future__ import annotations

from arena.analysis.labels import label

NONE = "none"   # the confirm setting of a one-stage analysis
# The defaults of `arena analyze` and the review (replay.Settings). One stage:
# two (search, work 8) meet the false-flag goal but lose recall (measured,
# docs/analysis.md "Validity and speed").
CONFIRM = NONE
CONFIRM_WORK = 8
SCREEN = 10.0   # the inaccuracy threshold (docs/analysis.md, "Validity and speed")


def needs_confirm(loss: float, se: float, screen: float) -> bool:
    """Whether a decision the screen valued at `loss` +- `se` is valued
    again: the screen labels it, or its loss reaches `screen` points."""
    return label(loss, se) is not None or loss >= screen
