"""The data of each page, read through arena.tournament's public functions.

Expensive results (the rating table, head-to-head) are kept per tournament
until its store changes (`browse.signature`), so a page of a big tournament
costs its first visit only, and a live page re-reads what a finished match
changed.
"""

from __future__ import annotations

import math
import re
import shlex
import sqlite3
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from arena.tournament import BotRow, MatchFilter, Store, StoreError, StoreMissing, browse
from arena.web.finishes import placings
from arena.web.sources import Catalog, Tournament

PAGE_SIZE = 50
T = TypeVar("T")

# What each leaderboard column means (publish.COLUMNS names them; a column
# added there shows with its title alone until it is explained here).
EXPLAIN = {
    "rank": "place in the table, by rating",
    "conservative": "TrueSkill mu - 3 sigma: a rating the bot is very likely above",
    "mu": "TrueSkill's estimate of the bot's skill",
    "sigma": "uncertainty of mu (smaller: more certain)",
    "rank_interval": "ranks the bot takes in 95% of bootstrap resamples of the duplicate sets",
    "matches": "finished matches the bot played",
    "wins": "matches it finished first in (alone or tied)",
    "average_place": "mean finishing place (1 = first)",
    "average_deal_score": "mean points per deal it played (card points and marriages)",
    "auctions_won": "deals where it won the auction and was the declarer",
    "contracts": "deals where it won the auction and was the declarer",
    "made_percent": "of the auctions it won, the share where it made its contract",
    "faults": "timeouts / crashes / illegal or malformed moves",
    "sandbox": "confinement the bot ran in (docker, bwrap or process)",
}


class BadQuery(ValueError):
    """A query parameter a page cannot use; names it and its value."""


@contextmanager
def reading(t: Tournament) -> Iterator[Store]:
    """The tournament's store, read-only (it may be running)."""
    store = Store(t.store_path, readonly=True)
    try:
        yield store
    finally:
        store.close()


_lock = threading.Lock()
_kept: dict[tuple[str, str], tuple[object, Any]] = {}
_building: dict[tuple[str, str], threading.Lock] = {}


def _cached(t: Tournament, what: str, store: Store, build: Callable[[], T],
            version: Callable[[Store], object] = browse.signature) -> T:
    """`build()`, kept until `version(store)` changes (by default: any write
    of the store); one build at a time per figure (a second visitor, or the
    start-up warm-up, waits for it)."""
    key = (str(t.root), what)
    with _lock:
        gate = _building.setdefault(key, threading.Lock())
    with gate:
        sig = version(store)
        with _lock:
            hit = _kept.get(key)
        if hit is not None and hit[0] == sig:
            value: T = hit[1]
            return value
        value = build()
        with _lock:
            _kept[key] = (sig, value)
        return value


def warm(t: Tournament) -> None:
    """Build what a tournament's first visitor would wait for (the rating
    table, the placings): the app calls it in a background thread."""
    try:
        tournament(t)
        with reading(t) as store:
            placings(str(t.root), store)
    except Exception:  # noqa: BLE001 - a page will show the problem; warming is best effort
        return


# ------------------------------------------------------------------ index


def index(sources: Catalog) -> dict[str, Any]:
    items = []
    for t in sources.tournaments.values():
        counts: dict[str, int] = {}
        problem = ""
        missing = False
        try:
            with reading(t) as store:
                counts = store.counts()
        except StoreMissing:
            missing = True
        except StoreError as exc:  # damaged: said, not passed off as "no results yet"
            problem = str(exc)
        items.append({"t": t, "counts": counts, "problem": problem, "missing": missing})
    return {"tournaments": items, "replays": list(sources.replays.values())}


# ------------------------------------------------------------------ tournament


@dataclass
class TournamentPage:
    rules: dict[str, object]
    counts: dict[str, int]
    planned: int
    problem: str = ""
    columns: list[tuple[str, str, str]] = field(default_factory=list)   # key, title, meaning
    rows: list[dict[str, str]] = field(default_factory=list)
    footnote: str = ""
    chart: dict[str, Any] | None = None
    retired: list[tuple[str, str, int]] = field(default_factory=list)


def tournament(t: Tournament) -> TournamentPage:
    from arena.tournament import FingerprintError, RegistryError, publish
    from arena.tournament import build_table as build

    rules = t.config.match.rules_dict()
    try:
        with reading(t) as store:
            counts = store.counts()
            try:
                # Rebuilt when a result comes in, not at every write of a
                # live run (a match started is one too): at 10,000 results a
                # build is seconds (docs/performance.md).
                table = _cached(t, "table", store, lambda: build(t.config, store),
                                Store.results_version)
            except sqlite3.OperationalError:
                # A store from before the seed's salt: building the table
                # stores one (as `arena leaderboard publish` would), once.
                with Store(t.store_path) as writer:
                    table = _cached(t, "table", store, lambda: build(t.config, writer),
                                    Store.results_version)
    except StoreMissing:  # none yet; a damaged one goes to the app's error page (503)
        return TournamentPage(rules, {}, 0, problem=(
            f"no results yet: run `arena tournament run {shlex.quote(_folder_arg(t.root))}`; "
            "this page updates by itself once it starts"))
    except (FingerprintError, RegistryError) as exc:
        return TournamentPage(rules, {}, 0, problem=str(exc))
    columns = [(k, title, EXPLAIN.get(k, "")) for k, title in publish.COLUMNS]
    rows = [{k: publish.cell(row, k) for k, _ in publish.COLUMNS} for row in table.rows]
    footnote = getattr(publish, "_footnote", lambda: "")()
    chart = rating_chart([(row.bot, list(row.history)) for row in table.rows],
                         finals={row.bot: float(row.conservative) for row in table.rows if row.history})
    return TournamentPage(rules, counts, table.planned, "", columns, rows, footnote, chart,
                          list(table.retired))


def _folder_arg(root: Path) -> str:
    """The tournament folder as `arena tournament run` takes it from where this
    server was started: relative when it is below, else the whole path (a bare
    folder name was wrong from anywhere but its parent)."""
    try:
        return str(root.resolve().relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(root.resolve())


def rating_chart(series: list[tuple[str, list[tuple[int, float]]]], width: int = 640,
                 height: int = 260, finals: dict[str, float] | None = None,
                 x_label: str = "matches played by the bot") -> dict[str, Any] | None:
    """An SVG line chart's geometry: axes with ticks, one polyline and one
    dot (with its value, shown on hover) per point of each series; `finals`,
    the leaderboard's rating of each, a diamond at the line's end (the line
    is the one-pass update match by match, the leaderboard the batch fit
    over every match at once: they differ, and the page says why)."""
    series = [(name, pts) for name, pts in series if pts]
    if not series:
        return None
    finals = finals or {}
    left, right, top, bottom = 48, 12, 10, 34
    xs = [s for _, pts in series for s, _ in pts]
    ys = [v for _, pts in series for _, v in pts] + [finals[n] for n, _ in series if n in finals]
    x_max = max(xs)
    lo, hi = _nice_range(min(ys), max(ys))

    def x(v: float) -> float:
        return left + (width - left - right) * (v / x_max if x_max else 0)

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - (v - lo) / (hi - lo))

    lines = []
    for i, (name, pts) in enumerate(series):
        # Many matches: the line through at most ~600 points and ~300 dots
        # with their values (a page stays small; the last point is always kept).
        step = max(1, math.ceil(len(pts) / 600))
        drawn = pts[::step] + ([pts[-1]] if (len(pts) - 1) % step else [])
        every = max(1, math.ceil(len(pts) / 300))
        lines.append({
            "name": name, "color": _COLORS[i % len(_COLORS)],
            "points": " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in drawn),
            "dots": [{"x": round(x(s), 1), "y": round(y(v), 1), "label": f"{name}: {v:.2f} after match {s}"}
                     for j, (s, v) in enumerate(pts) if j % every == 0 or j == len(pts) - 1],
            "final": ({"x": round(x(pts[-1][0]), 1), "y": round(y(finals[name]), 1), "value": finals[name],
                       "label": f"{name}: {finals[name]:.2f} on the leaderboard (the fit over every "
                                f"match; the line ends at {pts[-1][1]:.2f})"}
                      if name in finals else None),
        })
    y_ticks = [{"y": round(y(v), 1), "label": f"{v:g}"} for v in _ticks(lo, hi)]
    x_ticks = [{"x": round(x(v), 1), "label": str(int(v))} for v in _ticks(0, x_max) if v == int(v)]
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "bottom": height - bottom, "lines": lines, "y_ticks": y_ticks, "x_ticks": x_ticks,
            "finals": bool(finals), "x_label": x_label}


_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")


def _nice_step(span: float) -> float:
    raw = span / 5 if span > 0 else 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    return float(next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw))


def _nice_range(lo: float, hi: float) -> tuple[float, float]:
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    step = _nice_step(hi - lo)
    return math.floor(lo / step) * step, math.ceil(hi / step) * step


def _ticks(lo: float, hi: float) -> list[float]:
    step = _nice_step(hi - lo)
    out, v = [], math.ceil(lo / step) * step
    while v <= hi + 1e-9:
        out.append(round(v, 6))
        v += step
    return out


# ------------------------------------------------------------------ matches


@dataclass
class Listing:
    rows: list[dict[str, Any]]
    total: int
    page: int
    pages: int
    query: dict[str, str]
    bots: list[str]
    tables: dict[str, str] = field(default_factory=dict)

    def link(self, **change: object) -> str:
        q = {**self.query, **{k: str(v) for k, v in change.items()}}
        from urllib.parse import urlencode

        return "?" + urlencode({k: v for k, v in q.items() if v not in ("", None)})


_FAULT_KINDS = ("any", "timeout", "crash", "illegal", "malformed")
_TABLE = re.compile(r"t[0-9a-f]{10}")


def _bot_ids(bots: list[BotRow], name: str, what: str) -> tuple[int, ...]:
    ids = tuple(b.id for b in bots if b.name == name)
    if not ids:
        raise BadQuery(f"{what}={name!r}: no such bot in this tournament")
    return ids


def _small_number(text: str) -> bool:
    """ASCII digits that SQLite can hold (a query's page or set number): a
    longer number would overflow its INTEGER (a 500 instead of a 400)."""
    return text.isascii() and text.isdigit() and len(text) <= 15


def match_filter(query: Mapping[str, str], bots: list[BotRow]) -> MatchFilter:
    bot = query.get("bot", "")
    vs = query.get("vs", "")
    table = query.get("table", "")
    set_text = query.get("set", "")
    status = query.get("status", "")
    fault = query.get("fault", "")
    if table and not _TABLE.fullmatch(table):
        raise BadQuery(f"table={table!r}: expected a table id such as t0123456789")
    if set_text and not _small_number(set_text):
        raise BadQuery(f"set={set_text!r}: expected a duplicate set number")
    if status and status not in browse.STATUSES:
        raise BadQuery(f"status={status!r}: expected one of {', '.join(browse.STATUSES)}")
    if fault and fault not in _FAULT_KINDS:
        raise BadQuery(f"fault={fault!r}: expected one of {', '.join(_FAULT_KINDS)}")
    return MatchFilter(
        bot_ids=_bot_ids(bots, bot, "bot") if bot else (),
        vs_ids=_bot_ids(bots, vs, "vs") if vs else (),
        table=table, set_no=int(set_text) if set_text else None, status=status, fault=fault)


def table_of(match_id: str) -> str:
    part = match_id.split("-")
    return part[1] if len(part) > 1 and _TABLE.fullmatch(part[1]) else ""


WITHHELD = "the replay opens when every seat order of its deals has been played"


def match_rows(rows: list[browse.MatchSummary], bots: dict[int, BotRow],
               faults: list[browse.FaultRow],
               withheld: AbstractSet[str] = frozenset()) -> list[dict[str, Any]]:
    """The rows of a match table; a match in `withheld` (browse.withheld)
    is listed with its result but without a link to its cards."""
    by_match: dict[str, list[browse.FaultRow]] = defaultdict(list)
    for f in faults:
        by_match[f.match_id].append(f)
    out = []
    for m in rows:
        seats = []
        for seat, bot_id in enumerate(m.bot_ids):
            b = bots.get(bot_id)
            r = m.seats[seat] if seat < len(m.seats) else None
            seats.append({"seat": seat, "bot": b.name if b else f"#{bot_id}",
                          "place": r[0] if r else None, "total": r[1] if r else None,
                          "status": r[2] if r else ""})
        out.append({
            "id": m.match_id, "set": m.set_no, "table": table_of(m.match_id), "status": m.status,
            "seats": seats, "deals": m.deals, "reason": m.reason,
            "faults": [f"seat {f.seat} {f.kind} x{f.count}" for f in by_match.get(m.match_id, [])],
            "error": m.error, "withheld": m.match_id in withheld,
            "has_replay": bool(m.replay_path) and m.match_id not in withheld,
        })
    return out


def match_list(t: Tournament, query: Mapping[str, str]) -> Listing:
    page_text = query.get("page", "1")
    if not _small_number(page_text) or int(page_text) < 1:
        raise BadQuery(f"page={page_text!r}: expected a page number from 1")
    page = int(page_text)
    keys = ("bot", "vs", "table", "set", "status", "fault")
    q = {k: query.get(k, "") for k in keys}
    try:
        with reading(t) as store:
            bots = store.bots()
            f = match_filter(q, bots)
            total = browse.count_matches(store, f)
            rows = browse.match_page(store, f, (page - 1) * PAGE_SIZE, PAGE_SIZE)
            faults = browse.faults(store, match_ids=[m.match_id for m in rows]) if rows else []
            hidden = browse.withheld(store, [(m.match_id, m.set_no) for m in rows])
    except StoreMissing:  # none yet; a damaged one goes to the app's error page (503)
        return Listing([], 0, 1, 1, q, [])
    by_id = {b.id: b for b in bots}
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if page > pages:  # was an empty table under "36 matches", and no way back
        raise BadQuery(f"page={page_text!r}: past the last page ({total} matches, "
                       f"{pages} page{'s' if pages > 1 else ''} of {PAGE_SIZE})")
    return Listing(match_rows(rows, by_id, faults, hidden), total, page, pages, q,
                   sorted({b.name for b in bots}))


def has_match(t: Tournament, match_id: str) -> bool:
    return match_access(t, match_id) != "missing"


def match_access(t: Tournament, match_id: str) -> str:
    """"missing" (no such match stored), "withheld" (its table is not
    complete: browse.withheld) or "open"."""
    try:
        with reading(t) as store:
            row = browse.match(store, match_id)
            if row is None:
                return "missing"
            return "withheld" if browse.withheld(store, [(match_id, row.set_no)]) else "open"
    except StoreMissing:  # none yet; a damaged one goes to the app's error page (503)
        return "missing"


# ------------------------------------------------------------------ head-to-head


@dataclass
class Pair:
    above: int = 0          # matches the row bot finished above the column bot
    below: int = 0
    level: int = 0
    place_diff: float = 0.0  # sum of (column's place - row's place)

    @property
    def n(self) -> int:
        return self.above + self.below + self.level


def head_to_head(t: Tournament) -> dict[str, Any]:
    try:
        with reading(t) as store:
            return _cached(t, "h2h", store, lambda: _h2h(store, str(t.root)))
    except StoreMissing:  # none yet; a damaged one goes to the app's error page (503)
        return {"names": [], "cells": {}}


def _h2h(store: Store, key: str) -> dict[str, Any]:
    names = {b.id: b.name for b in store.bots()}
    pairs: dict[tuple[str, str], Pair] = defaultdict(Pair)
    for ids, places in placings(key, store).values():
        for i, a in enumerate(ids):
            for j, b in enumerate(ids):
                if i == j or names[a] == names[b]:
                    continue
                p = pairs[(names[a], names[b])]
                if places[i] < places[j]:
                    p.above += 1
                elif places[i] > places[j]:
                    p.below += 1
                else:
                    p.level += 1
                p.place_diff += places[j] - places[i]
    ordered = sorted(set(names.values()))
    cells = {}
    for (row, col), p in pairs.items():
        cells[f"{row}\x00{col}"] = {"above": p.above, "below": p.below, "level": p.level, "n": p.n,
                                "share": p.above / p.n if p.n else 0.0,
                                "diff": p.place_diff / p.n if p.n else 0.0}
    return {"names": ordered, "cells": cells}


# ------------------------------------------------------------------ bot page


_DECISION = re.compile(r"^decision (\d+):")


def bot_page(t: Tournament, name: str, sources: Catalog) -> dict[str, Any] | None:
    try:
        with reading(t) as store:
            bots = [b for b in store.bots() if b.name == name]
            if not bots:
                return None
            ids = tuple(b.id for b in bots)
            history = browse.rating_history(store, ids)
            faults = browse.faults(store, bot_ids=ids)
            stats = _cached(t, f"bot:{name}", store, lambda: _bot_stats(store, ids, str(t.root)))
            f = MatchFilter(bot_ids=ids)
            total = browse.count_matches(store, f)
            rows = browse.match_page(store, f, 0, PAGE_SIZE)
            row_faults = browse.faults(store, match_ids=[m.match_id for m in rows]) if rows else []
            all_bots = {b.id: b for b in store.bots()}
            fault_matches = browse.summaries(store, sorted({x.match_id for x in faults[:200]}))
            hidden = browse.withheld(store, [(m.match_id, m.set_no) for m in
                                             [*rows, *fault_matches.values()]])
    except StoreError as exc:
        return {"name": name, "problem": str(exc), "versions": [], "chart": None, "stats": [],
                "faults": [], "matches": [], "total": 0, "elsewhere": []}
    versions = [{"version": b.version, "hash": b.content_hash, "added": b.added_at,
                 "source": b.source, "language": b.language} for b in bots]
    series = [(f"{name} {b.version}", [(s, mu - 3 * sg) for s, _m, mu, sg in history.get(b.id, [])])
              for b in bots]
    fault_rows = []
    for fr in faults[:200]:
        m = fault_matches.get(fr.match_id)
        secret = fr.match_id in hidden
        # A fault's text may name the move (a card) and its log what the bot
        # held: withheld with the replay.
        lines = [] if secret else [ln for ln in fr.log.split("\n") if ln]
        decisions = [int(d.group(1)) for ln in lines if (d := _DECISION.match(ln))]
        fault_rows.append({
            "match": fr.match_id, "seat": fr.seat, "kind": fr.kind, "count": fr.count,
            "lines": lines, "decisions": decisions, "withheld": secret,
            "log": not secret and t.log_path(fr.match_id, fr.seat) is not None,
            "replay": not secret and bool(m and m.replay_path),
        })
    elsewhere = []
    for other in sources.tournaments.values():
        if other.root == t.root:
            continue
        try:
            with reading(other) as store:
                ids2 = tuple(b.id for b in store.bots() if b.name == name)
                if ids2:
                    s = _cached(other, f"bot:{name}", store,
                                lambda s=store, i=ids2, k=str(other.root): _bot_stats(s, i, k))  # type: ignore[misc]
                    elsewhere.append({"t": other, "preset": other.config.match.rules_dict().get("preset", ""),
                                      "stats": s})
        except StoreError:
            continue
    return {
        "name": name, "problem": "", "versions": versions,
        "chart": rating_chart(series), "stats": stats,
        "preset": t.config.match.rules_dict().get("preset", ""),
        "faults": fault_rows, "fault_total": len(faults),
        "matches": match_rows(rows, all_bots, row_faults, hidden), "total": total, "elsewhere": elsewhere,
    }


def _bot_stats(store: Store, ids: tuple[int, ...], key: str) -> list[dict[str, Any]]:
    """Per version: matches, wins, mean place, share of first places."""
    version = {b.id: b.version for b in store.bots()}
    played: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    place_sum: Counter[int] = Counter()
    for bot_ids, places in placings(key, store).values():
        for seat, b in enumerate(bot_ids):
            if b in ids:
                played[b] += 1
                place_sum[b] += places[seat]
                wins[b] += places[seat] == 1
    return [{"version": version[b], "matches": played[b], "wins": wins[b],
             "average_place": round(place_sum[b] / played[b], 3) if played[b] else None}
            for b in ids]
