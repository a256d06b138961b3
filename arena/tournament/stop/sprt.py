"""A sequential probability ratio test on duplicate-set scores (GSPRT).

The test the chess engine testers use (Fishtest, fastchess, cutechess), with
the duplicate set as its unit of observation:

* The **score** of one match for the bot under test is its pairwise result
  against the counted opponent seats: 1 for each one it finished ahead of,
  1/2 for a tie, 0 behind, averaged over those seats. The score of a
  **duplicate set** (the same deal in every seat order) is the mean of its
  matches' scores, so one observation holds every seat's cards once and
  card luck cancels out inside it. Sets are independent of each other
  (fresh deal seeds); matches of one set are not, which is why the set, not
  the match, is the unit (as Fishtest takes a pair of games on one opening
  as its unit: the pentanomial model).
* **Elo** is the logistic Elo of the expected pairwise score s:
  s = 1 / (1 + 10^(-elo/400)); elo 0 is s = 1/2 (equal strength).
* H0: elo = elo0 against H1: elo = elo1. The log-likelihood ratio is the
  generalised SPRT's normal approximation (Michel Van den Bergh's, as
  Fishtest's `LLR_logistic`): with n sets, mean set score m and variance v
  (the sample variance over the sets, divided by n - 1),
  LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v).
* Wald's bounds: stop and accept H1 when LLR >= log((1 - beta) / alpha),
  accept H0 when LLR <= log(beta / (1 - alpha)); alpha = beta = 0.05 gives
  +-2.94, Fishtest's bounds. The error rates are then about alpha (H1
  accepted when the truth is elo0) and beta (H0 accepted when the truth is
  elo1); below elo0 H1 is rarer still, above elo1 H0 is rarer still. They
  are approximate (normal approximation, variance estimated from the data);
  `benchmarks/gauntlet.py` measures them. A test cut off by a maximum
  number of sets before a bound is reached decides nothing.

Set scores are multiples of a resolution (1/24 with two opponents and six
seat orders), so a handful of sets can show no spread at all; the variance
is floored at that resolution's rounding variance (resolution^2 / 12)
rather than divided by zero. No decision is taken before MIN_SETS sets:
the variance is estimated from the sets themselves, and from two or three
an estimate far too small is common (for normal scores, one in three of
two-set estimates is below a fifth of the truth), which makes the LLR
leap. Simulated with normal set scores of sd 0.12 at elo 0 (elo1 20, alpha
= beta = 0.05, at most 200 sets), the false-positive rate was 17% when
deciding from 2 sets, 8% from 4, 6.3% from 8 and 6.2% from 10; 8 keeps it
near the nominal alpha at little cost in sets (median sets to a decision
grew by a tenth). benchmarks/gauntlet.py measures it with real games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.tournament.errors import TournamentError

Decision = Literal["H0", "H1"]
MIN_SETS = 8


class SprtError(TournamentError, ValueError):
    """Parameters of the test that make no sense (say, alpha >= 1)."""


@dataclass(frozen=True)
class SprtParams:
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise SprtError(f"alpha {self.alpha} and beta {self.beta} must be in (0, 0.5)")
        if not self.elo1 > self.elo0:
            raise SprtError(f"elo1 {self.elo1} must be greater than elo0 {self.elo0}")
        if max(abs(self.elo0), abs(self.elo1)) > 2000:
            raise SprtError(f"elo0 {self.elo0} / elo1 {self.elo1}: expected -2000..2000")

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)


def expected_score(elo: float) -> float:
    """The pairwise score that a logistic Elo difference predicts."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of(score: float) -> float:
    """The logistic Elo of a pairwise score (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    # + 0.0: at a score of exactly 1/2 (a bot against its own copy) the
    # product is -0.0, which the verdict printed as "elo -0" and JSON as -0.0.
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def llr(scores: Sequence[float], elo0: float, elo1: float, resolution: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for
    these set scores (0 before MIN_SETS sets)."""
    n = len(scores)
    if n < MIN_SETS:
        return 0.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1)
    var = max(var, resolution * resolution / 12.0)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def decide(value: float, params: SprtParams) -> Decision | None:
    low, high = params.bounds
    if value >= high:
        return "H1"
    if value <= low:
        return "H0"
    return None


@dataclass(frozen=True)
class State:
    """Where the test stands after some sets."""

    sets: int
    mean: float        # mean set score
    llr: float
    low: float
    high: float
    decision: Decision | None

    elo_low: float = math.nan   # a rough 95% interval of the Elo (normal, over sets),
    elo_high: float = math.nan  # for display only: the decision is the LLR's; nan: unknown

    @property
    def elo(self) -> float:
        return elo_of(self.mean) if self.sets else 0.0


def state(scores: Sequence[float], params: SprtParams, resolution: float,
          sequential: bool = True) -> State:
    """The test after `scores` (one per set, in the order the sets were
    planned). Sequential: once a bound is crossed the test has stopped, and
    later sets (a run whose matches were already in flight) do not change
    its decision: the decision is that of the shortest prefix that crossed a
    bound. Not sequential (a fixed number of sets): the test is read once,
    on all the scores."""
    low, high = params.bounds
    decision: Decision | None = None
    used = len(scores)
    if sequential:
        for k in range(MIN_SETS, len(scores) + 1):
            decision = decide(llr(scores[:k], params.elo0, params.elo1, resolution), params)
            if decision is not None:
                used = k
                break
    elif len(scores) >= MIN_SETS:
        decision = decide(llr(scores, params.elo0, params.elo1, resolution), params)
    kept = list(scores[:used])
    value = llr(kept, params.elo0, params.elo1, resolution)
    n = len(kept)
    mean = sum(kept) / n if n else 0.5
    # Unknown (nan, shown as "?") from fewer than two sets: there is no spread
    # to read. Bounds past 0 or 1 are -inf / +inf, so that the interval holds
    # the estimate when every set was lost or won (clipped to a finite score
    # it read [-2400, -700] beside an elo of -inf).
    interval = (math.nan, math.nan)
    if n >= 2:
        sd = math.sqrt(max(sum((x - mean) ** 2 for x in kept) / (n - 1),
                           resolution * resolution / 12.0) / n)
        lo, hi = (min(max(mean + z * sd, 0.0), 1.0) for z in (-1.96, 1.96))
        interval = (elo_of(lo), elo_of(hi))
    return State(sets=n, mean=mean, llr=value, low=low, high=high, decision=decision,
                 elo_low=interval[0], elo_high=interval[1])
