"""The analysis the replay player shows under the table, and the bot
page's "where it loses points": the reports `arena analyze DIR --bot NAME`
cached in a tournament's folder (arena.analysis.matches:
FOLDER/analysis/BOT/KEY/MATCH-sSEAT.json).

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
import re
from pathlib import Path
from typing import Any

from arena.analysis.matches import combine
from arena.tournament import browse
from arena.web.pages import reading
from arena.web.sources import MATCH_ID, Tournament

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


def review_reports(replay: Path, seats: int, viewer: int | None) -> list[dict[str, Any]]:
    """The reviews kept beside a replay file ("review this game", web/review.py)
    the viewer may see: every reviewed seat in the all-cards view, a seat's
    own in its view. A review is built from its seat's observations only."""
    from arena.web.review import read_report

    out = []
    for seat in range(seats) if viewer is None else (viewer,):
        report = read_report(replay, seat)
        if report is not None and not report.get("settings", {}).get("open_hand", True):
            out.append(_slim(report))
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


_CACHED = re.compile(r"^(?P<match>.+)-s(?P<seat>\d+)\.json$")


def bot_analysis(t: Tournament, name: str) -> dict[str, Any] | None:
    """Where the bot loses points over its analysed matches (the newest
    settings' reports): per part and per kind of decision, and its costliest
    labelled decisions. Matches whose table is still withheld are left out
    (their decisions name the bot's cards) and counted."""
    folder = t.root / "analysis" / name
    if not folder.is_dir():
        return None
    newest: tuple[float, Path] | None = None
    for key in folder.iterdir():
        files = list(key.glob("*-s*.json")) if key.is_dir() else []
        if files:
            when = max(f.stat().st_mtime for f in files)
            if newest is None or when > newest[0]:
                newest = (when, key)
    if newest is None:
        return None
    found: list[tuple[str, int, Path]] = []
    for path in sorted(newest[1].glob("*-s*.json")):
        m = _CACHED.match(path.name)
        if m and MATCH_ID.fullmatch(m.group("match")):
            found.append((m.group("match"), int(m.group("seat")), path))
    with reading(t) as store:
        rows = {mid: browse.match(store, mid) for mid in {f[0] for f in found}}
        hidden = browse.withheld(store, [(mid, row.set_no) for mid, row in rows.items() if row])
    reports: list[tuple[str, int, dict[str, Any]]] = []
    settings: dict[str, Any] = {}
    for match_id, seat, path in found:
        if rows.get(match_id) is None or match_id in hidden:
            continue
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(report, dict) and report.get("seat") == seat:
            reports.append((match_id, seat, report))
            settings = report.get("settings", settings)
    withheld = len({f[0] for f in found if f[0] in hidden})
    if not reports:
        return {"seats": 0, "withheld": withheld} if withheld else None
    return {"seats": len(reports), "withheld": withheld,
            "settings": {k: settings.get(k) for k in ("policy", "work", "seed")},
            **combine(reports, worst=10)}
