"""The rating table: one row per bot version of the current field.

Everything here is computed from the stored results alone (in match-id
order), so the same results always give the same table, byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from arena.referee.spec import SeatResult
from arena.tournament.plan.config import TournamentConfig
from arena.tournament.plan.fingerprint import verify
from arena.tournament.plan.registry import field_names
from arena.tournament.plan.secrecy import SeedDisclosure, disclose
from arena.tournament.rating import ratings
from arena.tournament.run.coordinator import plan_field, rated_matches
from arena.tournament.store import BotRow, MatchRow, Store


@dataclass(frozen=True)
class Row:
    rank: int
    bot: str
    version: str
    content_hash: str
    language: str
    conservative: float
    mu: float
    sigma: float
    rank_low: int
    rank_high: int
    matches: int
    wins: int
    average_place: float
    average_deal_score: float | None    # None: no deal the bot played itself
    auctions_won: int                   # deals where it was the declarer
    made_percent: float | None          # None: it won no auction
    timeouts: int
    crashes: int
    illegal: int
    malformed: int
    sandbox: str
    history: tuple[tuple[int, float], ...] = field(default=(), repr=False)  # (step, mu - 3 sigma)


@dataclass(frozen=True)
class Table:
    name: str
    rules: dict[str, object]
    duplicate_sets: int
    planned: int
    finished: int
    rows: tuple[Row, ...]
    retired: tuple[tuple[str, str, int], ...]   # (bot, version, finished matches) of old versions
    # The tournament seed's commitment, and the seed once revealed (secrecy.py).
    seed: SeedDisclosure | None = None
    # Finished matches that seated process-level bots beside confined ones
    # (MatchResult.sandbox_warning): said loudly wherever the table is shown.
    mixed_levels: int = 0


def current_field(config: TournamentConfig, store: Store) -> list[BotRow]:
    """The field as last registered (no registration happens here)."""
    latest = store.latest_versions()
    return [latest[n] for n in field_names(config, store) if n in latest]


def build(config: TournamentConfig, store: Store, reveal: bool = False) -> Table:
    """The table of the stored results. Refuses (FingerprintError) when the
    config's settings are not those the results were played under. The
    seed is in it once every planned match is finished, or with `reveal`;
    its commitment always."""
    verify(config, store)
    bots = current_field(config, store)
    planned = plan_field(config, bots) if len(bots) >= 3 else []
    wanted = {m.match_id for m in planned}
    rows = [r for r in store.matches(wanted) if r.status == "finished" and r.result]
    active = {b.id for b in bots}
    versions = version_labels(store.bots())
    old = [b for b in store.bots() if b.id not in active]
    finished_by_bot = store.finished_by_bot() if old else Counter()
    retired = tuple((b.name, versions[b.id], finished_by_bot[b.id]) for b in old)
    seed = disclose(store, config.seed, bool(planned) and len(rows) == len(planned), reveal)
    return compose(config, bots, versions, len(planned), rows, retired, seed)


def compose(config: TournamentConfig, bots: list[BotRow], versions: dict[int, str],
            planned: int, rows: list[MatchRow], retired: tuple[tuple[str, str, int], ...],
            seed: SeedDisclosure | None) -> Table:
    """The table of the field `bots` (with their version labels) from the
    finished `rows` of its plan: the ratings, rank intervals and statistics.
    Needs no store: `arena verify` recomputes a published table with it."""
    rated = rated_matches(rows)
    ids = [b.id for b in bots]
    rating, history = ratings.rate(rated, ids)
    intervals = ratings.bootstrap_rank_intervals(rated, ids, config.bootstrap, config.seed, rating)
    rank = ratings.ranks_by(rating)
    steps: dict[int, list[tuple[int, float]]] = {b: [] for b in ids}
    for bot_id, step, _mid, mu, sigma in history:
        steps[bot_id].append((step, mu - 3 * sigma))
    out = []
    for bot in bots:
        stats = _stats(bot.id, rows)
        r = rating[bot.id]
        out.append(Row(
            rank=rank[bot.id], bot=bot.name, version=versions[bot.id],
            content_hash=bot.content_hash, language=bot.language,
            conservative=round(r.conservative, 3), mu=round(r.mu, 3), sigma=round(r.sigma, 3),
            rank_low=intervals[bot.id][0], rank_high=intervals[bot.id][1],
            history=tuple((s, round(c, 3)) for s, c in steps[bot.id]), **stats,
        ))
    out.sort(key=lambda row: row.rank)
    return Table(
        name=config.name, rules=config.match.rules_dict(), duplicate_sets=config.duplicate_sets,
        planned=planned, finished=len(rows), rows=tuple(out), retired=retired, seed=seed,
        mixed_levels=sum(1 for r in rows if r.result is not None and r.result.sandbox_warning),
    )


def version_labels(bots: list[BotRow]) -> dict[int, str]:
    """bot.toml's version, with a content-hash suffix when one name has two
    versions with the same version string (a bot changed without a bump)."""
    seen: Counter[tuple[str, str]] = Counter((b.name, b.version) for b in bots)
    return {b.id: b.version if seen[(b.name, b.version)] == 1
            else f"{b.version}+{b.content_hash[:8]}" for b in bots}


def _stats(bot_id: int, rows: list[MatchRow]) -> dict[str, Any]:
    matches = wins = place_sum = deals = deal_score_sum = auctions = made = 0
    faults: Counter[str] = Counter()
    sandboxes: Counter[str] = Counter()
    mixed = 0
    for row in rows:
        assert row.result is not None
        for seat_no, player in enumerate(row.bot_ids):
            if player != bot_id:
                continue
            seat = next(s for s in row.result.seats if s.seat == seat_no)
            matches += 1
            wins += seat.place == 1
            place_sum += seat.place
            sandboxes[seat.sandbox] += 1
            mixed += bool(row.result.sandbox_warning)
            for kind, count in seat.faults:
                faults[kind] += count
            if not earned_deals(seat):
                continue
            for deal in row.result.deals:
                if seat_no < len(deal.deal_scores):
                    deals += 1
                    deal_score_sum += deal.deal_scores[seat_no]
                if deal.declarer == seat_no:
                    auctions += 1
                    made += deal.made
    return {
        "matches": matches, "wins": wins,
        "average_place": round(place_sum / matches, 3) if matches else 0.0,
        "average_deal_score": round(deal_score_sum / deals, 2) if deals else None,
        "auctions_won": auctions,
        "made_percent": round(100 * made / auctions, 1) if auctions else None,
        "timeouts": faults["timeout"], "crashes": faults["crash"],
        "illegal": faults["illegal"], "malformed": faults["malformed"],
        "sandbox": ("/".join(sorted(sandboxes)) if sandboxes else "-")
        + (f" (WARNING: mixed levels in {mixed} match{'es' if mixed != 1 else ''})" if mixed else ""),
    }


def earned_deals(seat: SeatResult) -> bool:
    """Whether the seat's deals are the bot's own play. A bot that forfeited
    without a legal move (it never started, never said hello, crashed first,
    or answered only with faults) made no move: every deal of its seat was played by the referee's
    default action, and crediting the bot with their scores, auctions and
    made contracts would show statistics it did not earn. (Results stored
    before legal moves were counted have only the decisions, faulty ones
    included.)"""
    moves = seat.moves if seat.moves >= 0 else seat.decisions
    return not (seat.status == "forfeit" and moves == 0)
