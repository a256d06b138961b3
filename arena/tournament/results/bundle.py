"""Write the results bundle of a published table (`leaderboard publish`).

What is in it, and why each part: arena/tournament/results/bundle_format.py; how
it is checked: arena/verify and docs/tournaments.md, "Checking a published
table". Everything here comes from the store and tournament.toml; nothing
the bots could not see is added before the seed is revealed: the seed and
salt only once `table.seed` shows them, a replay only once its table is
complete (browse.withheld, the rule of the site and of `arena serve`).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tomllib
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from arena.referee.spec import MatchResult
from arena.tournament.plan.config import CONFIG_NAME, TournamentConfig
from arena.tournament.plan.match_settings import REPLAYS_DIR
from arena.tournament.rating.ratings import BETA, DRAW_PROBABILITY, MU, SIGMA, TAU
from arena.tournament.results import bundle_format as fmt
from arena.tournament.results.browse import withheld
from arena.tournament.results.standings import Table, current_field, version_labels
from arena.tournament.run.coordinator import deal_seeds, plan_field
from arena.tournament.store import Store

# tournament.toml keys left out: where the bots' folders are on the
# organiser's machine and how the matches were spread over it (none of it
# changes a deal or a result), and the seed, which goes in only revealed.
_NOT_PUBLISHED = frozenset({"bots", "concurrency", "cpu_slots", "executor", "dask_address",
                            "seed"})


@dataclass(frozen=True)
class Written:
    folder: Path
    matches: int
    replays: int
    head: str          # the manifest chain's last link


def settings(config: TournamentConfig) -> dict[str, Any]:
    """tournament.toml's settings, without the keys in _NOT_PUBLISHED."""
    data = tomllib.loads((Path(config.root) / CONFIG_NAME).read_text(encoding="utf-8-sig"))
    return {k: v for k, v in data.items() if k not in _NOT_PUBLISHED}


def public_result(result: MatchResult, withheld_deals: bool) -> dict[str, Any]:
    """A stored result without the organiser's file paths and the seats'
    fault lines (kept logs are the site's to show; the table needs neither).
    The deal seed (0 in its place) and the deals' summaries are left out of
    a match whose table is not complete: the seed would deal the bots still
    to play there their cards, and a bid shows what a hand was worth."""
    seats = tuple(replace(s, log_path="", fault_log=()) for s in result.seats)
    if withheld_deals:
        result = replace(result, seed=0, deals=())
    return asdict(replace(result, seats=seats, replay_path=""))


def contents(config: TournamentConfig, store: Store, table: Table) -> tuple[
        dict[str, Any], dict[str, Path]]:
    """bundle.json's data, and the replay files to copy (bundle name -> file)."""
    bots = current_field(config, store)
    planned = plan_field(config, bots) if len(bots) >= 3 else []
    seeds = deal_seeds(config, bots) if planned else {}
    rows = [r for r in store.matches({m.match_id for m in planned})
            if r.status == "finished" and r.result]
    hidden = withheld(store, [(r.match_id, r.set_no) for r in rows])
    labels = version_labels(store.bots())
    field_ids = {b.id for b in bots}
    replays: dict[str, Path] = {}
    matches = []
    for row in rows:
        assert row.result is not None
        shared, fresh = seeds[row.match_id]
        name = None
        source = Path(config.root) / REPLAYS_DIR / f"{row.match_id}.jsonl"
        if row.match_id not in hidden and config.match.replays and source.is_file():
            name = fmt.replay_name(row.match_id)
            replays[name] = source
        matches.append({
            "match_id": row.match_id, "set_no": row.set_no, "table_no": row.table_no,
            "order_no": row.order_no, "bots": list(row.bot_ids),
            # Which derivation dealt it; the seed itself is in the replay.
            "deals": "shared" if row.seed == shared else "fresh" if row.seed == fresh else "other",
            "result": public_result(row.result, row.match_id in hidden), "replay": name,
        })
    seed = table.seed
    data = {
        "format": fmt.FORMAT, "format_version": fmt.FORMAT_VERSION,
        "arena_version": fmt.arena_version(),
        "tournament": settings(config),
        "seed": None if seed is None else {
            "commitment": seed.commitment, "scheme": 'sha256("<salt>:<seed>")',
            "seed": seed.seed, "salt": seed.salt or None},
        "ratings": {"mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU,
                    "draw_probability": DRAW_PROBABILITY, "bootstrap": config.bootstrap},
        "bots": [{"id": b.id, "name": b.name, "version": b.version, "label": labels[b.id],
                  "content_hash": b.content_hash, "language": b.language,
                  "in_field": b.id in field_ids} for b in store.bots()],
        "field": [b.id for b in bots],
        "retired": [list(r) for r in table.retired],
        "matches_planned": len(planned),
        "matches": matches,
    }
    return data, replays


def foreign_entry(out: Path) -> str | None:
    """The first entry of an existing bundle folder that no bundle has."""
    if not out.is_dir() or out.is_symlink():
        return None
    own = {fmt.BUNDLE, fmt.LEADERBOARD, fmt.MANIFEST, fmt.REPLAYS}
    return next((p.name for p in sorted(out.iterdir()) if p.name not in own), None)


def write(config: TournamentConfig, store: Store, table: Table, leaderboard_json: str,
          out: Path) -> Written:
    """Write the bundle into `out` (replaced whole, as the site is: built
    beside it and moved in once complete)."""
    foreign = foreign_entry(out)
    if foreign is not None:
        raise FileExistsError(errno.EEXIST, f"holds {foreign!r}, which no results bundle has "
                              "(not replaced: give another --out, or --no-bundle)", str(out))
    data, replays = contents(config, store, table)
    bundle_text = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode()
    board = leaderboard_json.encode()
    out.parent.mkdir(parents=True, exist_ok=True)
    building = out.parent / f".{out.name}.{os.getpid()}.part"
    old = out.parent / f".{out.name}.{os.getpid()}.old"
    for leftover in (building, old):
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        (building / fmt.REPLAYS).mkdir(parents=True)
        (building / fmt.BUNDLE).write_bytes(bundle_text)
        (building / fmt.LEADERBOARD).write_bytes(board)
        hashes: dict[str, str] = {}
        for name, source in replays.items():
            blob = source.read_bytes()
            (building / name).write_bytes(blob)
            hashes[name] = fmt.sha256(blob)
        start = fmt.chain_start(fmt.sha256(bundle_text), fmt.sha256(board))
        pairs = [(m["match_id"], hashes[m["replay"]] if m["replay"] else fmt.NO_REPLAY)
                 for m in data["matches"]]
        links = fmt.chain(start, pairs)
        manifest = {
            "format": fmt.FORMAT, "format_version": fmt.FORMAT_VERSION,
            "files": {fmt.BUNDLE: fmt.sha256(bundle_text), fmt.LEADERBOARD: fmt.sha256(board)},
            "start": start,
            "matches": [{"match_id": mid, "replay": m["replay"], "sha256": h, "chain": link}
                        for (mid, h), link, m in zip(pairs, links, data["matches"], strict=True)],
            "head": links[-1] if links else start,
        }
        (building / fmt.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n",
                                             encoding="utf-8")
        if out.is_dir() and not out.is_symlink():
            out.rename(old)
        building.rename(out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        if old.is_dir() and not out.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return Written(out, len(pairs), len(replays), str(manifest["head"]))
