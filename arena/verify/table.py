"""Recompute the published table and compare it, printed digit by printed
digit, with leaderboard.json.

The table is built by the arena's own code from the bundle's results
(standings.compose: the TrueSkill batch fit, the one-pass history, the
bootstrap rank intervals, the statistics) and written by publish.to_json,
so "identical" means the same JSON value, every number as printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.tournament import MatchRow, compose, to_json
from arena.tournament import bundle_format as fmt
from arena.verify.errors import Mismatch
from arena.verify.load import Bundle

# What a bundle cannot recompute before the reveal, or while tables are
# incomplete: the bootstrap is seeded by the tournament seed, and the deals
# of an incomplete table's matches are withheld (bundle.public_result).
_BY_SEED = ("rank_low", "rank_high")
_BY_DEALS = ("average_deal_score", "auctions_won", "made_percent")


def recompute(bundle: Bundle, seeds: dict[str, int] | None) -> dict[str, Any]:
    rows = [MatchRow(
        match_id=x.match_id, set_no=x.set_no, table_no=x.table_no, order_no=x.order_no,
        seed=seeds[x.match_id] if seeds is not None else x.result.seed, bot_ids=x.bots,
        status="finished", attempts=1, result=x.result, replay_path="", error="")
        for x in bundle.matches]
    table = compose(bundle.config, bundle.field, bundle.labels, bundle.planned, rows,
                    bundle.retired, bundle.seed)
    value: dict[str, Any] = json.loads(to_json(table))
    return value


def first_difference(published: Any, computed: Any, path: str = "") -> str | None:
    """Where two JSON values first differ ("" path: the whole), or None."""
    if isinstance(published, dict) and isinstance(computed, dict):
        for key in list(computed) + [k for k in published if k not in computed]:
            if key not in published or key not in computed:
                return f"{path}{key}: {'missing' if key not in published else 'not computed'}"
            found = first_difference(published[key], computed[key], f"{path}{key}.")
            if found:
                return found
        return None
    if isinstance(published, list) and isinstance(computed, list):
        for i, (a, b) in enumerate(zip(published, computed, strict=False)):
            label = f" ({b.get('bot')})" if isinstance(b, dict) and "bot" in b else ""
            found = first_difference(a, b, f"{path.rstrip('.')}[{i}]{label}.")
            if found:
                return found
        if len(published) != len(computed):
            return f"{path.rstrip('.')}: {len(published)} entries published, {len(computed)} computed"
        return None
    if published != computed or type(published) is not type(computed):
        return f"{path.rstrip('.')}: published {json.dumps(published)}, recomputed {json.dumps(computed)}"
    return None


def _blank(value: dict[str, Any], keys: tuple[str, ...]) -> None:
    for row in value.get("rows", []):
        if isinstance(row, dict):
            for key in keys:
                row.pop(key, None)


def check(bundle: Bundle, seeds: dict[str, int] | None) -> str:
    computed = recompute(bundle, seeds)
    published = json.loads(json.dumps(bundle.leaderboard))
    skipped: list[str] = []
    skipped_why: list[str] = []
    if not bundle.revealed:
        skipped += _BY_SEED
        skipped_why.append("rank intervals (the bootstrap is seeded by the tournament seed)")
    withheld = sum(1 for x in bundle.matches if x.replay is None and not x.result.deals)
    if withheld:
        skipped += _BY_DEALS
        skipped_why.append(f"deal statistics ({withheld} matches of incomplete tables have "
                           "their deals withheld)")
    for value in (computed, published):
        _blank(value, tuple(skipped))
    diff = first_difference(published, computed)
    if diff:
        raise Mismatch(f"table: leaderboard.json {diff}")
    beside = bundle.folder.parent / fmt.LEADERBOARD
    if bundle.folder.name == fmt.FOLDER and beside.is_file():
        try:
            outside = json.loads(beside.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise Mismatch(f"table: {beside} (the published table beside the bundle) cannot be "
                           "read as JSON") from None
        diff = first_difference(outside, bundle.leaderboard)
        if diff:
            raise Mismatch(f"table: {Path(beside)} (published beside the bundle) differs from "
                           f"the bundle's: {diff}")
    rows = len(computed.get("rows", []))
    note = f" (not checked: {'; '.join(skipped_why)})" if skipped_why else ""
    return (f"table: TrueSkill batch fit, rating history, rank intervals and statistics of "
            f"{rows} bots recomputed: identical to leaderboard.json{note}")
