"""Duplicate comparison ("travellers", as bridge clubs call them): the seat
orders of one duplicate table played on the same cards, side by side.

    table = table_summary(t, match_id)           # where each bot gained and lost
    deal = traveller(t, match_id, deal_number)   # one deal in every seat order

Built from the stored results (each match's deal summaries: declarer,
contract, made, deal scores, changes), and the auctions' calls from the
replays: no card is shown. A table still being played is withheld whole, like its replays
(browse.withheld): its bids and scores would tell the bots still to play it
about the cards they will be dealt. Each bot sits every seat of a table
equally often, so its sums over the seat orders are comparable: the
summary gives, per deal, each bot's summed change and its difference from
the table's mean (positive: it did better than the others on those cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.referee.replay import ReplayError, read_replay, replay_states
from arena.tournament import MatchRow, Store, browse
from arena.web.pages import reading
from arena.web.sources import Tournament


class TableWithheld(Exception):
    """The table has a match not finished: nothing of it is shown yet."""


@dataclass
class Order:
    match_id: str
    seats: list[str]                  # bot names by seat
    deals: dict[int, Any]             # deal number -> DealSummary
    totals: list[int]
    places: list[int]


@dataclass
class Table:
    part: str                          # the "t..." part of the ids
    set_no: int
    orders: list[Order]
    bots: list[str]                    # the table's bots, by name
    deal_numbers: list[int] = field(default_factory=list)


def _table(store: Store, match_id: str) -> Table | None:
    row = browse.match(store, match_id)
    if row is None:
        return None
    set_no, part = browse.table_key(match_id, row.set_no)
    if browse.withheld(store, [(match_id, row.set_no)]):
        raise TableWithheld(match_id)
    if part == match_id:
        ids = [match_id]
    else:
        prefix = match_id[:match_id.index(part) + len(part)] + "-"
        ids = [r[0] for r in store._db.execute(
            "SELECT match_id FROM matches WHERE match_id >= ? AND match_id < ? AND set_no = ?"
            " AND instr(match_id, ?) > 0 ORDER BY match_id",
            (prefix, prefix[:-1] + ".", set_no, f"-{part}-"))]
    names = {b.id: b.name for b in store.bots()}
    rows: list[MatchRow] = [r for r in store.matches(ids) if r.result is not None]
    orders = []
    for r in rows:
        assert r.result is not None
        orders.append(Order(
            r.match_id, [names.get(b, f"#{b}") for b in r.bot_ids],
            {d.deal_number: d for d in r.result.deals},
            [s.total for s in r.result.seats], [s.place for s in r.result.seats]))
    bots = sorted({n for o in orders for n in o.seats})
    numbers = sorted({n for o in orders for n in o.deals})
    return Table(part, set_no, orders, bots, numbers)


def table_summary(t: Tournament, match_id: str) -> dict[str, Any] | None:
    """The table of `match_id`: its seat orders and, per deal, each bot's
    change summed over the orders and its edge over the table's mean.
    None if no such match; TableWithheld while the table is being played."""
    with reading(t) as store:
        table = _table(store, match_id)
    if table is None:
        return None
    deals = []
    totals = dict.fromkeys(table.bots, 0)
    for n in table.deal_numbers:
        sums = dict.fromkeys(table.bots, 0)
        played = 0
        for o in table.orders:
            d = o.deals.get(n)
            if d is None:
                continue
            played += 1
            for seat, name in enumerate(o.seats):
                sums[name] += d.changes[seat]
        mean = sum(sums.values()) / len(sums) if sums else 0.0
        for name in table.bots:
            totals[name] += sums[name]
        best = max(sums.values()) if sums else 0
        deals.append({"n": n, "orders": played,
                      "bots": [{"name": b, "sum": sums[b], "edge": round(sums[b] - mean, 1),
                                "best": sums[b] == best and played > 0} for b in table.bots]})
    mean = sum(totals.values()) / len(totals) if totals else 0.0
    return {
        "part": table.part, "set": table.set_no, "match_id": match_id, "bots": table.bots,
        "orders": [{"match_id": o.match_id, "seats": o.seats, "totals": o.totals,
                    "places": o.places, "deals": len(o.deals)} for o in table.orders],
        "deals": deals,
        "totals": [{"name": b, "sum": totals[b], "edge": round(totals[b] - mean, 1)} for b in table.bots],
    }


def auction(t: Tournament, match_id: str, number: int) -> list[tuple[int, str]] | None:
    """Every call of deal `number`'s auction in a match, in order, as (seat,
    "100", "110", "pass", ...): the engine's own record of the auction (the
    opener's compulsory 100 included), read from the public part of a
    seat's observation while the match's replay is re-played (the stored
    results keep only the high bid). None when the replay is not kept or
    does not re-play."""
    path = t.replay_path(match_id)
    if path is None:
        return None
    calls: list[dict[str, Any]] = []
    try:
        for game, _rec in replay_states(read_replay(path)):
            if game.deal_number > number:
                break
            if game.deal_number == number:
                # The auction only grows within a deal; the longest is the whole of it.
                seen = game.observation(0).to_dict().get("auction") or []
                if len(seen) > len(calls):
                    calls = seen
    except (ReplayError, OSError, KeyError, ValueError):
        return None  # a damaged replay: the stored results still show
    return [(int(c["seat"]), str(c["action"]).removeprefix("bid ")) for c in calls]


def traveller(t: Tournament, match_id: str, number: int) -> dict[str, Any] | None:
    """Deal `number` of the table of `match_id` in every seat order: every
    call of its auction by seat (from the replays), the declarer, the
    contract, made or failed, each bot's deal score and change, with the
    seat it sat in."""
    with reading(t) as store:
        table = _table(store, match_id)
    if table is None:
        return None
    rows = []
    for o in table.orders:
        d = o.deals.get(number)
        if d is None:
            rows.append({"match_id": o.match_id, "seats": o.seats, "played": False})
            continue
        by_bot = {name: {"seat": seat, "score": d.deal_scores[seat], "change": d.changes[seat],
                         "declarer": d.declarer == seat}
                  for seat, name in enumerate(o.seats)}
        rows.append({
            "match_id": o.match_id, "seats": o.seats, "played": True,
            "declarer": None if d.declarer is None else o.seats[d.declarer],
            "declarer_seat": d.declarer, "bid": d.bid, "contract": d.contract, "made": d.made,
            "notes": list(d.notes), "bots": [by_bot[b] for b in table.bots],
            "auction": [{"bot": o.seats[seat], "seat": seat, "call": call}
                        for seat, call in auction(t, o.match_id, number) or []],
        })
    return {"part": table.part, "set": table.set_no, "match_id": match_id, "n": number,
            "bots": table.bots, "rows": rows, "deal_numbers": table.deal_numbers}
