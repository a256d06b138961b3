"""A bot's seats over a tournament's (or gauntlet's) finished matches:
each match's report cached in the folder, so a run stopped part way
resumes where it was, and the parts' figures summed over the matches.

    run = plan(folder, "greedy", Settings(work=32), matches=10)
    for done in analyse_all(run, jobs=1):     # one match's seats at a time
        ...                                   # a progress line
    totals = combined(run)

Cache: FOLDER/analysis/BOT/KEY/MATCH_ID-sSEAT.json, KEY a hash of the
settings (policy, work, seed, the analysis version): other settings never
read another's reports. Each file is written whole (a part file renamed),
so a report found is a whole one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.analysis.errors import AnalysisError
from arena.analysis.labels import summary
from arena.analysis.replay import VERSION, Settings, analyse, dumps
from arena.referee.replay import ReplayError, read_replay

_STORES = ("tournament.sqlite", "gauntlet.sqlite")
_REPLAYS = "replays"


@dataclass(frozen=True)
class Job:
    match_id: str
    seat: int
    replay: str
    out: str


@dataclass(frozen=True)
class Plan:
    folder: Path
    bot: str
    settings: Settings
    jobs: tuple[Job, ...]

    def todo(self) -> list[Job]:
        """The jobs without a whole report cached (a file damaged by hand is
        analysed again: it is a cache)."""
        return [j for j in self.jobs if not _readable(Path(j.out))]


def settings_key(settings: Settings) -> str:
    text = json.dumps({"v": VERSION, **asdict(settings)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def plan(folder: str | os.PathLike[str], bot: str, settings: Settings,
         matches: int | None = None) -> Plan:
    """The seats `bot` played in the folder's finished matches with a
    replay (the first `matches` of them, in match-id order)."""
    from arena.tournament import Store, StoreError  # a tournament's store only for this

    root = Path(folder)
    store_path = next((root / name for name in _STORES if (root / name).is_file()), None)
    if store_path is None:
        raise AnalysisError(f"{root}: no tournament or gauntlet store here (no results yet?)")
    settings.check()
    try:
        with Store(store_path, readonly=True) as store:
            names = {b.id: b.name for b in store.bots()}
            rows = [m for m in store.matches() if m.status == "finished"]
    except StoreError as exc:
        raise AnalysisError(str(exc)) from None
    if bot not in names.values():
        known = ", ".join(sorted(set(names.values()))) or "none"
        raise AnalysisError(f"{root}: no bot named {bot!r} in this store (bots: {known})")
    cache = root / "analysis" / bot / settings_key(settings)
    replays = (root / _REPLAYS).resolve()
    jobs: list[Job] = []
    for m in sorted(rows, key=lambda m: m.match_id):
        seats = [s for s, b in enumerate(m.bot_ids) if names.get(b) == bot]
        path = (replays / f"{m.match_id}.jsonl").resolve()
        if not seats or path.parent != replays or not path.is_file():
            continue
        if matches is not None and len({j.match_id for j in jobs}) >= matches:
            break
        jobs.extend(Job(m.match_id, s, str(path), str(cache / f"{m.match_id}-s{s}.json"))
                    for s in seats)
    if not jobs:
        raise AnalysisError(f"{root}: {bot!r} has no finished match with a replay to analyse")
    return Plan(root, bot, settings, tuple(jobs))


def run_job(job: Job, settings: Settings) -> Job:
    """Analyse one seat of one match and write its report."""
    try:
        report = analyse(read_replay(job.replay), job.seat, settings)
    except ReplayError as exc:
        raise AnalysisError(str(exc)) from None
    keep(job, dumps(report))
    return job


def keep(job: Job, text: str) -> None:
    """Write a job's report into the cache, whole (a part file renamed)."""
    out = Path(job.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_name(f"{out.name}.{os.getpid()}.part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, out)


def analyse_all(p: Plan, jobs: int = 1) -> Iterator[Job]:
    """Run every job not cached yet; yields each as it is done."""
    todo = p.todo()
    if jobs <= 1 or len(todo) <= 1:
        for job in todo:
            yield run_job(job, p.settings)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_job, job, p.settings) for job in todo]
        for f in futures:
            yield f.result()


def combined(p: Plan) -> dict[str, Any]:
    """Every cached report of the plan together: per part and per kind of
    decision, the decisions, the labels, the mean loss and the accuracy
    over all the bot's seats; the costliest labelled decisions; one line
    per match."""
    reports = [(job, _cached(Path(job.out))) for job in p.jobs]
    c = combine([(job.match_id, job.seat, r) for job, r in reports])
    return {"analysis": VERSION, "bot": p.bot, "settings": asdict(p.settings),
            "matches": [{"match_id": job.match_id, "seat": job.seat, "report": job.out,
                         "all": r["summary"]["all"]} for job, r in reports], **c}


def _readable(path: Path) -> bool:
    try:
        _cached(path)
    except AnalysisError:
        return False
    return True


def _cached(path: Path) -> dict[str, Any]:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AnalysisError(f"{path}: a damaged cached report ({exc}); delete it to analyse "
                            "that match again") from None
    if not isinstance(report, dict) or not isinstance(report.get("decisions"), list):
        raise AnalysisError(f"{path}: not an analysis report; delete it to analyse that match again")
    return report


def combine(reports: Iterable[tuple[str, int, dict[str, Any]]], worst: int = 20) -> dict[str, Any]:
    """(match id, seat, report) of many seats: their decisions summed per
    part and per kind, and the `worst` costliest labelled ones."""
    every: list[dict[str, Any]] = []
    for match_id, seat, report in reports:
        every.extend({"match_id": match_id, "seat": seat, **d} for d in report["decisions"])
    flagged = sorted((d for d in every if d["label"]), key=lambda d: (-d["loss"], d["match_id"], d["n"]))
    keep = ("match_id", "seat", "n", "deal", "part", "kind", "taken", "best", "loss", "se", "label")
    return {"summary": summary(every), "kinds": summary(every, by="kind"),
            "worst": [{k: d.get(k) for k in keep} for d in flagged[:worst]]}


def combined_text(c: dict[str, Any]) -> str:
    """A readable summary of `combined`."""
    s = c["settings"]
    policy = f"{s['policy']} (work {s['policy_work']})" if s["policy"] != "greedy" else s["policy"]
    lines = [f"{c['bot']}: {len(c['matches'])} seats analysed; reference policy {policy}, "
             f"{s['work']} deals per decision, seed {s['seed']}; loss in points of margin "
             "(docs/analysis.md)",
             f"  {'part':<9} {'decisions':>9} {'inacc.':>7} {'mistakes':>8} {'blunders':>8} "
             f"{'mean loss':>9} {'accuracy':>9}"]
    kinds = [(k, row) for k, row in c["kinds"].items() if k != "all"]
    for part, row in [*c["summary"].items(), ("by kind:", None), *kinds]:
        if row is None:
            lines.append(f"  {part}")
        elif row["decisions"]:
            lines.append(f"  {part:<9} {row['decisions']:>9} {row['inaccuracy']:>7} "
                         f"{row['mistake']:>8} {row['blunder']:>8} {row['mean_loss']:>9.1f} "
                         f"{row['accuracy']:>8.1f}%")
    if c["worst"]:
        lines.append("  the costliest decisions:")
    for d in c["worst"][:5]:
        lines.append(f"    {d['match_id']} seat {d['seat']} deal {d['deal']} {d['part']}: "
                     f"{d['taken']!r} lost {d['loss']:.1f} +- {d['se']:.1f} against {d['best']!r} "
                     f"({d['label']})")
    return "\n".join(lines) + "\n"
