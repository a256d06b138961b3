"""The analysis the replay player shows under the table: the reports
`arena analyze DIR --bot NAME` cached in a tournament's folder
(arena.analysis.matches: FOLDER/analysis/BOT/KEY/MATCH-sSEAT.json).

Nothing is computed here: a request never starts an analysis (seconds of
CPU per match, which a page must not let anyone spend). What is served:

- the all-cards view: every analysed seat of the match;
- a seat's view: that seat's analysis only, and only a report made from
  its own observations (no open-hand line): its values name its own legal
  actions, which another seat's view must not see, and a report built
  from what the seat knew is the same whatever the hidden cards were
  (tests/analysis/test_core.py).

Of several reports of one seat (other settings) the newest is shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DECISION_KEYS = ("n", "deal", "phase", "part", "taken", "best", "loss", "se", "label")


def reports(root: Path, match_id: str, seats: int, viewer: int | None) -> list[dict[str, Any]]:
    """The cached reports of the match the viewer may see, seat order. The
    caller has checked `match_id` (web.sources.MATCH_ID) and that the match
    may be shown at all."""
    base = root / "analysis"
    out: list[dict[str, Any]] = []
    for seat in range(seats) if viewer is None else (viewer,):
        found = sorted(base.glob(f"*/*/{match_id}-s{seat}.json"),
                       key=lambda p: (p.stat().st_mtime, str(p)), reverse=True)
        for path in found:
            try:
                report = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a damaged cache file: the next one, or none
            if not isinstance(report, dict) or report.get("seat") != seat:
                continue
            if viewer is not None and report.get("settings", {}).get("open_hand", True):
                continue
            out.append(_slim(report))
            break
    return out


def _slim(report: dict[str, Any]) -> dict[str, Any]:
    """What the player draws: per decision the action, the best one, the loss."""
    return {
        "seat": report["seat"],
        "bot": report.get("bot"),
        "settings": {k: report["settings"].get(k) for k in ("policy", "work", "seed", "thresholds")},
        "summary": report.get("summary"),
        "decisions": [{k: d.get(k) for k in _DECISION_KEYS} for d in report.get("decisions", [])],
    }
