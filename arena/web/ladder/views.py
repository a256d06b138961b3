"""What the ladder's pages show, from its store: the table, a bot, an
author, a submission, a block. Plain dicts and lists for the templates
and the JSON API; who may see what is decided here (`Viewer`).

Public: the table, every bot's versions and states, every finished
block's results and replays. The owner of a submission (and the
organiser) also: the reason it was refused, its validation match (result,
replay, its log) and the logs of its seats that had a fault.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from arena.ladder import finals
from arena.ladder.config import LadderConfig
from arena.ladder.store import Block, MatchRow, Store, Submission, User
from arena.tournament import RATING_MU, RATING_SIGMA
from arena.web import pages

BLOCKS_AXIS = "blocks played by the version"


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a signed-in user, or nobody (None)."""

    user: User | None = None

    def owns(self, sub: Submission) -> bool:
        u = self.user
        return u is not None and (u.organiser or (sub.user_id is not None and sub.user_id == u.id))

    @property
    def organiser(self) -> bool:
        return self.user is not None and self.user.organiser


def rating_of(sub: Submission) -> tuple[float, float]:
    if sub.mu is None or sub.sigma is None:
        return RATING_MU, RATING_SIGMA
    return sub.mu, sub.sigma


def table(store: Store, config: LadderConfig) -> dict[str, Any]:
    """The live table: every active version, best conservative rating
    (mu - 3 sigma) first, with the ranks its rating allows: the places
    it holds if every rating may lie anywhere within 2 sigma of its mu."""
    active = store.submissions(state="active")
    rated = [(s, *rating_of(s)) for s in active]
    rated.sort(key=lambda r: (-(r[1] - 3 * r[2]), -r[1], r[0].id))
    rows = []
    busy = store.in_flight()
    for rank, (s, mu, sigma) in enumerate(rated, 1):
        low, high = mu - 2 * sigma, mu + 2 * sigma
        above = sum(1 for o, m, g in rated if o.id != s.id and m - 2 * g > high)
        below = sum(1 for o, m, g in rated if o.id != s.id and m + 2 * g < low)
        rows.append({
            "rank": rank, "id": s.id, "bot": s.bot, "version": s.version, "author": s.author,
            "reference": s.reference, "rating": round(mu - 3 * sigma, 2), "mu": round(mu, 2),
            "sigma": round(sigma, 2), "ranks": [1 + above, len(rated) - below],
            "blocks": s.blocks, "placing": s.blocks < config.ratings.placement_blocks,
            "playing": busy.get(s.id, 0),
        })
    counts = store.counts()
    pending = sum(1 for s in store.submissions() if s.state in ("queued", "building", "validating"))
    return {"name": config.name, "description": config.description, "rows": rows,
            "blocks": counts, "pending": pending, "frozen_at": finals.frozen_at(store),
            "placement_blocks": config.ratings.placement_blocks, "tau": config.ratings.tau,
            "recent": [block_summary(store, b) for b in store.blocks(limit=15)]}


def block_summary(store: Store, block: Block) -> dict[str, Any]:
    subs = [store.submission(s) for s in block.seats]
    return {"id": block.id, "status": block.status, "reason": block.reason,
            "bots": [{"bot": s.bot, "version": s.version, "id": s.id} for s in subs if s],
            "created_at": block.created_at, "finished_at": block.finished_at}


def submission_summary(sub: Submission, viewer: Viewer) -> dict[str, Any]:
    mu, sigma = rating_of(sub)
    out: dict[str, Any] = {
        "id": sub.id, "bot": sub.bot, "version": sub.version, "author": sub.author,
        "reference": sub.reference, "state": sub.state, "content_hash": sub.content_hash,
        "language": sub.language, "files": sub.files, "bytes": sub.bytes,
        "created_at": sub.created_at, "updated_at": sub.updated_at, "blocks": sub.blocks,
        "rating": round(mu - 3 * sigma, 2), "mu": round(mu, 2), "sigma": round(sigma, 2),
        "owner": viewer.owns(sub),
    }
    # Why it was refused may quote what the bot printed or sent: its owner's.
    if viewer.owns(sub) or sub.state == "replaced":
        out["reason"] = sub.reason
    return out


def bot_page(store: Store, name: str, viewer: Viewer) -> dict[str, Any] | None:
    versions = store.submissions(bot=name)
    if not versions:
        return None
    series = []
    for v in versions:
        points = [(step, mu - 3 * sigma) for step, _b, mu, sigma, _t in store.history(v.id)]
        if points:
            series.append((f"{v.bot} {v.version} (#{v.id})", points))
    blocks = []
    seen: set[int] = set()
    for v in reversed(versions):
        for b in store.blocks(submission_id=v.id, limit=50):
            if b.id not in seen:
                seen.add(b.id)
                blocks.append(block_summary(store, b))
    blocks.sort(key=lambda b: -int(b["id"]))
    return {"name": name, "author": versions[-1].author, "reference": versions[-1].reference,
            "versions": [submission_summary(v, viewer) for v in reversed(versions)],
            "chart": pages.rating_chart(series, x_label=BLOCKS_AXIS), "blocks": blocks[:50]}


def author_page(store: Store, name: str, viewer: Viewer) -> dict[str, Any] | None:
    user = store.user_named(name)
    if user is None:
        return None
    subs = store.submissions(user_id=user.id)
    return {"name": user.name, "me": viewer.user is not None and viewer.user.id == user.id,
            "submissions": [submission_summary(s, viewer) for s in reversed(subs)],
            "bots": sorted({s.bot for s in subs if s.state == "active"})}


def places(m: MatchRow, store: Store) -> list[dict[str, Any]]:
    """Each seat of a match: its bot, place, total, faults."""
    out = []
    for seat, sid in enumerate(m.seats):
        sub = store.submission(sid)
        result = m.result.seats[seat] if m.result is not None else None
        faults = sum(c for _k, c in result.faults) if result else 0
        out.append({"seat": seat, "bot": sub.bot if sub else "?", "version": sub.version if sub else "",
                    "submission": sid, "place": result.place if result else None,
                    "total": result.total if result else None, "faults": faults})
    return out


def block_page(store: Store, block_id: int, viewer: Viewer) -> dict[str, Any] | None:
    block = store.block(block_id)
    if block is None:
        return None
    matches = store.block_matches(block.id)
    subs = {s: store.submission(s) for s in block.seats}
    rows = []
    for m in matches:
        seats = places(m, store)
        for seat in seats:
            sub = subs.get(seat["submission"])
            seat["log"] = (block.status != "running" and seat["faults"] > 0 and sub is not None
                           and viewer.owns(sub))
        rows.append({"match_id": m.match_id, "order": m.order_no, "status": m.status,
                     "seats": seats, "deals": len(m.result.deals) if m.result else 0,
                     "replay": block.status != "running" and m.status == "finished"})
    return {**block_summary(store, block), "matches": rows,
            "withheld": block.status == "running"}


def submission_page(store: Store, config: LadderConfig, sub: Submission,
                    viewer: Viewer) -> dict[str, Any]:
    out = submission_summary(sub, viewer)
    out["history"] = [{"step": step, "block": b, "rating": round(mu - 3 * sigma, 2),
                       "mu": round(mu, 2), "sigma": round(sigma, 2)}
                      for step, b, mu, sigma, _t in store.history(sub.id)]
    out["chart"] = pages.rating_chart([(f"{sub.bot} {sub.version}", [
        (h["step"], h["rating"]) for h in out["history"]])], x_label=BLOCKS_AXIS)
    out["validation"] = None
    if viewer.owns(sub):
        m = store.validation_match(sub.id)
        if m is not None:
            out["validation"] = {"match_id": m.match_id, "status": m.status, "error": m.error,
                                 "seats": places(m, store), "replay": m.status == "finished"}
    out["placement_blocks"] = config.ratings.placement_blocks
    out["blocks_list"] = [block_summary(store, b) for b in store.blocks(submission_id=sub.id, limit=50)]
    return out


def finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def batch(store: Store) -> dict[str, Any]:
    """The order-free batch rating of the season (arena.ladder.finals.batch_table)."""
    rows = []
    for rank, st in enumerate(finals.batch_table(store), 1):
        s, r = st.submission, st.rating
        rows.append({"rank": rank, "id": s.id, "bot": s.bot, "version": s.version,
                     "author": s.author, "reference": s.reference,
                     "rating": round(r.conservative, 2), "mu": round(r.mu, 2),
                     "sigma": round(r.sigma, 2), "matches": st.matches})
    return {"rows": rows, "blocks": store.counts().get("finished", 0)}
