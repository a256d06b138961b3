"""A gauntlet: one bot against others, duplicate set after duplicate set,
until a sequential test (arena.tournament.stop.sprt) decides whether it is stronger.

The pieces that do not touch processes or files: which table each set is
played at, the seat orders of a set, the score of a match and of a set, and
the test's state from the finished results. `gauntlet_run` plays and stores.

Tables. The bot under test (C) always sits; the other two seats are filled
from the opponents:

* one opponent O: every set is (C, O, O), two instances of O;
* several opponents: set k takes the k-th pair of opponents (all pairs in
  turn), so every opponent meets C equally often over whole cycles;
* a baseline B (an older version of C): set k is (C, B, X) with X the k-th
  of the other opponents in turn, or (C, B, B) without any; only the
  baseline seats are counted in the score, so the test asks "is C stronger
  than B?" with the same third seat beside both.

A set is every seat order of its table on one deal seed (the six orders,
or the three distinct ones when two seats hold the same bot), so each bot
gets each seat's cards once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arena.tournament.errors import TournamentError
from arena.tournament.plan import schedule
from arena.tournament.stop import sprt

CANDIDATE = 0  # index of the bot under test in a gauntlet's field


class GauntletError(TournamentError, ValueError):
    """A gauntlet that cannot run as asked (one line: what and where)."""


@dataclass(frozen=True)
class Settings:
    """What decides the gauntlet's matches and its test; stored with the
    results (a resumed gauntlet must be the same one). `field` holds bot
    keys (name@content-hash): index 0 the bot under test, then the
    opponents, the baseline (if any) first among them."""

    field: tuple[str, ...]
    names: tuple[str, ...]
    baseline: bool
    seed: int
    rules_preset: str
    rules_options: tuple[tuple[str, object], ...]
    time_control: dict[str, float]
    fault_policy: dict[str, object]
    limits: dict[str, object]
    stop: str                 # "sprt" (stop at a decision) | "fixed" (play max_sets)
    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def params(self) -> sprt.SprtParams:
        return sprt.SprtParams(self.elo0, self.elo1, self.alpha, self.beta)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["field"] = list(self.field)
        data["names"] = list(self.names)
        data["rules_options"] = [[k, v] for k, v in self.rules_options]
        return json.loads(json.dumps(data, sort_keys=True, default=str))  # type: ignore[no-any-return]

    def differences(self, stored: dict[str, Any]) -> list[str]:
        """The settings that differ from `stored` (a stored to_json)."""
        now = self.to_json()
        return [f"{key} {stored.get(key)!r} -> {now[key]!r}" for key in sorted(now)
                if stored.get(key) != now[key]]


@dataclass(frozen=True)
class PlannedMatch:
    match_id: str
    set_no: int
    order_no: int
    bots: tuple[int, int, int]   # field indices in seat order
    seed: int


def table(settings: Settings, set_no: int) -> tuple[int, int, int]:
    """The field indices at set `set_no`'s table: (C, x, y)."""
    opponents = list(range(1, len(settings.field)))
    if not opponents:
        raise GauntletError("a gauntlet needs at least one opponent (--against or --baseline)")
    if settings.baseline:
        others = opponents[1:] or [1]
        return (CANDIDATE, 1, others[set_no % len(others)])
    if len(opponents) == 1:
        return (CANDIDATE, 1, 1)
    pairs = list(itertools.combinations(opponents, 2))
    a, b = pairs[set_no % len(pairs)]
    return (CANDIDATE, a, b)


def counted(settings: Settings, bot: int) -> bool:
    """Whether a seat holding `bot` counts in the bot under test's score."""
    return bot == 1 if settings.baseline else bot != CANDIDATE


def lineups(triple: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The distinct seat orders of a table, in schedule.SEAT_ORDERS order."""
    out: list[tuple[int, int, int]] = []
    for order in schedule.SEAT_ORDERS:
        seated = (triple[order[0]], triple[order[1]], triple[order[2]])
        if seated not in out:
            out.append(seated)
    return out


def plan_set(settings: Settings, set_no: int) -> list[PlannedMatch]:
    """The matches of one duplicate set, in seat-order order."""
    triple = table(settings, set_no)
    key = schedule.table_key([settings.names[i] for i in triple])
    seed = schedule.derive_seed(settings.seed, "gauntlet-deal", set_no, key)
    out = []
    for order_no, seated in enumerate(lineups(triple)):
        lineup = [settings.field[i] for i in seated]
        out.append(PlannedMatch(_match_id(set_no, key, order_no, lineup), set_no, order_no,
                                seated, seed))
    return out


def _match_id(set_no: int, key: str, order_no: int, lineup: Sequence[str]) -> str:
    # Sets are numbered from 0 without end, so the number is wider than a
    # tournament's s000 (ids sort by set, then seat order).
    table_digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    digest = hashlib.sha256("|".join(lineup).encode()).hexdigest()[:8]
    return f"g{set_no:05d}-t{table_digest}-o{order_no}-{digest}"


def match_score(settings: Settings, seated: Sequence[int], places: Sequence[int]) -> float:
    """The bot under test's pairwise score in one match: 1 per counted seat
    it finished ahead of, 1/2 per tie, 0 behind, averaged over those seats."""
    mine = places[list(seated).index(CANDIDATE)]
    results = [1.0 if mine < place else 0.5 if mine == place else 0.0
               for bot, place in zip(seated, places, strict=True) if counted(settings, bot)]
    return sum(results) / len(results)


def resolution(settings: Settings) -> float:
    """The step between possible set scores (for sprt's variance floor)."""
    triple = table(settings, 0)
    seats = sum(1 for b in triple if counted(settings, b))
    return 1.0 / (2 * seats * len(lineups(triple)))


def set_scores(settings: Settings, places: dict[str, tuple[int, ...]], sets: int) -> list[float]:
    """Scores of the complete sets among the first `sets`, in set order, up
    to the first set not complete (`places`: match id -> places by seat).
    Only a prefix counts: a sequential test reads its sets in a fixed order."""
    out = []
    for set_no in range(sets):
        matches = plan_set(settings, set_no)
        if not all(m.match_id in places for m in matches):
            break
        out.append(sum(match_score(settings, m.bots, places[m.match_id]) for m in matches)
                   / len(matches))
    return out


@dataclass(frozen=True)
class Verdict:
    """Where the gauntlet stands: the test's state and what it means."""

    state: sprt.State
    matches: int
    finished: bool      # the gauntlet has ended (decided, or at its maximum)
    verdict: str        # "stronger" | "not stronger" | "undecided"

    def to_json(self, settings: Settings, max_sets: int) -> dict[str, Any]:
        s = self.state
        return {
            "bot": settings.field[CANDIDATE], "opponents": list(settings.field[1:]),
            "baseline": settings.field[1] if settings.baseline else None,
            "stop": settings.stop, "max_sets": max_sets, "sets": s.sets, "matches": self.matches,
            "score": round(s.mean, 6), "elo": _finite(s.elo),
            "elo_interval": [_finite(s.elo_low), _finite(s.elo_high)],
            "llr": round(s.llr, 6), "bounds": [round(s.low, 6), round(s.high, 6)],
            "elo0": settings.elo0, "elo1": settings.elo1, "alpha": settings.alpha,
            "beta": settings.beta, "decision": s.decision, "finished": self.finished,
            "verdict": self.verdict,
        }


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None  # JSON has no inf or nan


def judge(settings: Settings, scores: Sequence[float], max_sets: int,
          matches_per_set: int) -> Verdict:
    """The verdict after `scores`. With stop = "sprt" the test ends at its
    first crossing of a bound; with "fixed" all max_sets sets are played and
    the test is read once, on all of them."""
    kept = list(scores[:max_sets])
    fixed = settings.stop == "fixed"
    state = sprt.state(kept, settings.params, resolution(settings), sequential=not fixed)
    done = state.sets >= max_sets or (not fixed and state.decision is not None)
    if fixed and not done:  # read only once all the sets are in
        state = dataclasses.replace(state, decision=None)
    verdict = {"H1": "stronger", "H0": "not stronger"}.get(state.decision or "", "undecided")
    return Verdict(state, state.sets * matches_per_set, done, verdict)
