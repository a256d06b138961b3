"""A seat of a replay, analysed decision by decision (evaluate.py for one).

    report = analyse(read_replay(path), seat=0, settings=Settings(work=32))
    text = dumps(report)          # the JSON `arena analyze -o` writes

The report is plain JSON data: the settings (reference policy, deals per
decision, seed, thresholds, metric), every decision of the seat that had a
choice (forced ones are counted, not valued), the decisions that could not
be analysed with why, and the summary per part (labels.py). With
`open_hand` each decision also carries the open-hand line (every card in
view); without it the report is built from the seat's observations alone,
so any other hidden cards that fit them give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from arena.analysis import evaluate as ev
from arena.analysis import stages
from arena.analysis.errors import AnalysisError
from arena.analysis.labels import PART, SIGMAS, THRESHOLDS, kind_of, label, summary
from arena.analysis.policies import NAMES, Reference, reference
from arena.analysis.stages import NONE, needs_confirm
from arena.game.rules import Rules
from arena.game.state import GameState
from arena.referee.replay import Replay, ReplayError, replay_states
from arena.sdk.belief import BeliefError

VERSION = 1
METRIC = ("margin: the seat's total minus the mean of the other seats' totals, "
          "its change from the decision to the end of the deal")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Settings:
    work: int = 32              # deals drawn per decision
    policy: str = "greedy"      # the reference policy (policies.NAMES)
    policy_work: int = 8        # the search reference's simulated deals per decision
    seed: int = 0               # the analysis seed (one-way into every draw)
    open_hand: bool = True      # add the open-hand line (uses the hidden cards)
    confirm: str = stages.CONFIRM            # stage 2's stronger reference; "none": one stage
    confirm_work: int = stages.CONFIRM_WORK  # its search's simulated deals per decision
    screen: float = stages.SCREEN            # points: stage 2 values a screening loss from here up

    def check(self) -> None:
        if self.work < 2:
            raise AnalysisError(f"work must be at least 2 deals per decision, got {self.work}")
        if self.policy_work < 1:
            raise AnalysisError(f"policy work must be at least 1, got {self.policy_work}")
        if self.confirm != NONE and self.confirm not in NAMES:
            raise AnalysisError(f"confirming reference {self.confirm!r}: not one of "
                                f"{NONE}, {', '.join(NAMES)}")
        if self.confirm_work < 1:
            raise AnalysisError(f"confirm work must be at least 1, got {self.confirm_work}")
        if self.screen < 0:
            raise AnalysisError(f"the screen must be at least 0 points, got {self.screen}")

    def confirming(self, seat: int) -> Reference | None:
        """Stage 2's reference for `seat`, or None for a one-stage analysis."""
        return None if self.confirm == NONE else reference(self.confirm, self.confirm_work, seat)


def decision(rules: Rules, state: GameState, seat: int, taken: str, policy: Reference,
             settings: Settings, confirm: Reference | None = None) -> dict[str, Any]:
    """One decision's record; the parts without "open_hand" are built from
    `state.observation(seat)` only. With `confirm` (stage 2's reference) a
    decision the screen finds near a label is valued again by it, over the
    same drawn deals (the same decision seed), and labelled from those
    values; `stage` says which valued it, `screen` keeps stage 1's."""
    obs = state.observation(seat).to_dict()
    e = ev.evaluate(rules, obs, taken, policy, work=settings.work, seed=settings.seed)
    first = None
    if confirm is not None and needs_confirm(e.loss, e.se, settings.screen):
        first = e
        e = ev.evaluate(rules, obs, taken, confirm, work=settings.work, seed=settings.seed)
    out: dict[str, Any] = {
        "deal": int(obs["deal_number"]),
        "phase": str(obs["phase"]),
        "part": PART[str(obs["phase"])],
        "kind": kind_of(obs, e.taken),
        "taken": e.taken,
        "best": e.best,
        "loss": e.loss,
        "se": e.se,
        "label": label(e.loss, e.se),
        "deals": e.deals,
        "values": {c.action: c.value for c in e.candidates},
        "stage": 1 if first is None else 2,
    }
    if first is not None:
        out["screen"] = {"best": first.best, "loss": first.loss, "se": first.se,
                         "values": {c.action: c.value for c in first.candidates}}
    if settings.open_hand:
        o = ev.open_hand(state, taken, policy, settings.seed)
        out["open_hand"] = {"best": o.best, "loss": o.loss,
                            "values": {c.action: c.value for c in o.candidates}}
    return out


def analyse(replay: Replay, seat: int, settings: Settings,
            progress: Progress | None = None) -> dict[str, Any]:
    """The report of `seat` in `replay` (module docstring)."""
    n = replay.rules.players
    if not 0 <= seat < n:
        raise AnalysisError(f"{replay.path}: seat {seat} is not a seat of this {n}-player match")
    if n == 2:
        raise AnalysisError(f"{replay.path}: the 2-player forms cannot be analysed "
                            "(the belief sampler covers 3-seat deals)")
    total = sum(1 for a in replay.actions if a["seat"] == seat)
    try:
        report = analyse_states(replay.rules, replay_states(replay), seat, settings, total, progress)
    except ReplayError as exc:
        raise AnalysisError(str(exc)) from None
    bots = replay.header.get("bots") or []
    bot = bots[seat] if seat < len(bots) else {}
    return {"match_id": replay.header.get("match_id"),
            "bot": {"name": bot.get("name"), "version": bot.get("version")}, **report}


def analyse_states(rules: Rules, steps: Iterable[tuple[GameState, dict[str, Any] | None]], seat: int,
                   settings: Settings, total: int = 0,
                   progress: Progress | None = None) -> dict[str, Any]:
    """The report's decisions and summary from (state before, action record)
    pairs, as `replay_states` gives them: the seat's own are analysed."""
    settings.check()
    policy = reference(settings.policy, settings.policy_work, seat)
    confirm = settings.confirming(seat)
    decisions: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    forced = done = 0
    for state, rec in steps:
        if rec is None or rec["seat"] != seat:
            continue
        done += 1
        if len(state.legal_actions()) > 1:
            try:
                d = decision(rules, state, seat, str(rec["action"]), policy, settings, confirm)
                decisions.append({"n": int(rec["n"]), **d})
            except BeliefError as exc:
                skipped.append({"n": int(rec["n"]), "deal": state.deal_number, "reason": str(exc)})
        else:
            forced += 1
        if progress is not None:
            progress(done, max(total, done))
    return {
        "analysis": VERSION,
        "seat": seat,
        "settings": {
            "policy": settings.policy, "work": settings.work, "seed": settings.seed,
            **({"policy_work": settings.policy_work} if settings.policy != "greedy" else {}),
            "open_hand": settings.open_hand, "metric": METRIC,
            "thresholds": dict(THRESHOLDS), "sigmas": SIGMAS,
            "confirm": None if confirm is None else {
                "policy": settings.confirm, "policy_work": settings.confirm_work,
                "screen": settings.screen},
        },
        "forced": forced,
        "decisions": decisions,
        "skipped": skipped,
        "summary": summary(decisions),
        "kinds": summary(decisions, by="kind"),
    }


def dumps(report: dict[str, Any]) -> str:
    """The report as JSON text, keys in a fixed order (compared byte for byte)."""
    return json.dumps(report, indent=1, sort_keys=True) + "\n"


def text(report: dict[str, Any], *, flagged_only: bool = True) -> str:
    """A readable summary: the settings, each labelled decision, the table per part."""
    s = report["settings"]
    bot = report["bot"]
    lines = [f"match {report['match_id']}, seat {report['seat']} ({bot['name']} {bot['version']}): "
             f"{len(report['decisions'])} decisions valued, {report['forced']} forced, "
             f"{len(report['skipped'])} not analysed",
             f"reference policy {_policy(s)}, {s['work']} deals per decision, seed {s['seed']}; "
             "loss in points of margin (docs/analysis.md)"]
    c = s.get("confirm")
    if c:
        lines.append(f"stage 2: {c['policy']} (work {c['policy_work']}) valued again the "
                     f"{sum(d['stage'] == 2 for d in report['decisions'])} decisions with a "
                     f"first-stage loss of {c['screen']:g} points or more, or a label")
    for d in report["decisions"]:
        if flagged_only and not d["label"]:
            continue
        extra = ""
        if "open_hand" in d:
            extra = f"; open hand: best {d['open_hand']['best']}, loss {d['open_hand']['loss']:.1f}"
        lines.append(f"  deal {d['deal']} {d['phase']:<8} {d['label'] or '-':<10} "
                     f"{d['taken']!r} lost {d['loss']:.1f} +- {d['se']:.1f} against "
                     f"{d['best']!r}{extra}")
    lines.append(f"  {'part':<9} {'decisions':>9} {'inacc.':>7} {'mistakes':>8} {'blunders':>8} "
                 f"{'mean loss':>9} {'accuracy':>9}")
    for part, row in report["summary"].items():
        if not row["decisions"]:
            continue
        lines.append(f"  {part:<9} {row['decisions']:>9} {row['inaccuracy']:>7} {row['mistake']:>8} "
                     f"{row['blunder']:>8} {row['mean_loss']:>9.1f} {row['accuracy']:>8.1f}%")
    return "\n".join(lines) + "\n"


def _policy(settings: dict[str, Any]) -> str:
    work = settings.get("policy_work")
    return f"{settings['policy']} (work {work})" if work else str(settings["policy"])
