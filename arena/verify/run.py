"""The checks of `arena verify`, in order, one line each.

Each check trusts only what the ones before it established: the manifest
first (the files are the ones published), then the seed, the schedule and
the deal seeds, then the replays, last the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from arena.tournament import bundle_format as fmt
from arena.verify import bundle_manifest, draw, replays, table
from arena.verify.errors import Mismatch
from arena.verify.load import Bundle, load


def lines(folder: Path, head: str | None = None,
          progress: Callable[[int, int], None] | None = None) -> Iterator[str]:
    """Every check's line, then the verdict; Mismatch at the first difference,
    VerifyError when the bundle cannot be read."""
    bundle = load(folder)
    yield (f"bundle: {fmt.FORMAT} {fmt.FORMAT_VERSION}, written by arena "
           f"{bundle.arena_version}, {len(bundle.matches)} matches of {bundle.config.name!r}")
    yield bundle_manifest.check(bundle, head)
    yield draw.check_commitment(bundle)
    yield draw.check_schedule(bundle)
    seeds = draw.derived_seeds(bundle) if bundle.revealed else None
    yield draw.check_seeds(bundle, seeds)
    yield _replays(bundle, seeds, progress)
    yield table.check(bundle, seeds)
    yield verdict(bundle)


def _replays(bundle: Bundle, seeds: dict[str, int] | None,
             progress: Callable[[int, int], None] | None) -> str:
    rules = replays.tournament_rules(bundle)
    decisions = deals = played = 0
    todo = [x for x in bundle.matches if x.replay is not None]
    for i, x in enumerate(todo):
        done = replays.check_match(bundle, x, rules, None if seeds is None else seeds[x.match_id])
        decisions += done.decisions
        deals += done.deals
        played += 1
        if progress is not None:
            progress(i + 1, len(todo))
    without = len(bundle.matches) - played
    if not played and bundle.matches:
        return (f"replays: none published ({without} matches: "
                + ("the tournament keeps no replays" if not bundle.config.match.replays
                   else "their tables are not complete") + "): play not checked")
    line = (f"replays: {played} re-dealt and re-played with the engine: {decisions} decisions "
            f"legal, {deals} deals' results, totals and places as recorded")
    if seeds is None:
        line += " (dealt from the seeds they name: not checked against the tournament seed)"
    if without:
        line += (f"; {without} matches without a replay ("
                 + ("not kept" if not bundle.config.match.replays else "incomplete tables")
                 + "): their results are taken as given")
    return line


def verdict(bundle: Bundle) -> str:
    n = len(bundle.matches)
    without = sum(1 for x in bundle.matches if x.replay is None)
    if not bundle.revealed:
        return (f"verified: {n} matches, table identical; not the deals: the seed is not "
                "revealed yet (verify again once it is)")
    if without:
        return f"verified: {n} matches ({without} without a replay), table identical"
    return f"verified: {n} matches, table identical"


def first_mismatch(folder: Path) -> str | None:
    """The first difference's line, or None when the bundle verifies."""
    try:
        for _ in lines(folder):
            pass
    except Mismatch as exc:
        return str(exc)
    return None
