"""Run a tournament: plan, play what is not finished yet, store, rate.

The coordinator is the only writer of the store. Running again resumes:
finished matches are kept, matches left running by a killed runner are
played again, and the final ratings are recomputed from all results in
match-id order, so they never depend on completion order or interruptions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trueskill

from arena.referee.spec import MatchResult, MatchSpec
from arena.sandbox.botfile import BotFileError, load_bot
from arena.tournament.errors import TournamentError
from arena.tournament.executors.local import Executor
from arena.tournament.plan import fingerprint, registry, schedule
from arena.tournament.plan.config import TournamentConfig
from arena.tournament.plan.match_settings import REPLAYS_DIR
from arena.tournament.plan.secrecy import match_key, revealed_after, salt
from arena.tournament.rating import ratings
from arena.tournament.run import loop
from arena.tournament.run.playing import Playing, clear_part_files
from arena.tournament.stop import settled
from arena.tournament.stop.rule import Fixed, StopRule
from arena.tournament.stop.settled import Settled
from arena.tournament.store import BotRow, MatchRow, Store


class FieldError(TournamentError, ValueError):
    """The tournament cannot run as configured (for example too few bots)."""


@dataclass(frozen=True)
class RunSummary:
    planned: int          # matches in the current plan
    finished: int         # of those, finished (before and during this run)
    played: int           # finished during this run
    failed: int           # could not be played this run (retried next run)
    errors: tuple[str, ...]
    stopped: str = ""     # stop = "settled": why the run stopped


@dataclass(frozen=True)
class Field:
    bots: tuple[BotRow, ...]          # sorted by name; index = schedule index
    plan: tuple[schedule.PlannedMatch, ...]


def check_field(config: TournamentConfig, store: Store | None) -> list[str]:
    """The names of the field; a clear error if there are fewer than 3.
    Call it before creating the store, so a bad tournament stores nothing."""
    names = registry.field_names(config, store)
    if len(names) < 3:
        raise FieldError(
            f"{Path(config.root) / 'tournament.toml'}: key 'bots': a three-seat tournament needs"
            f" at least 3 bots, found {len(names)} ({', '.join(names) or 'none'})")
    return names


def prepare(config: TournamentConfig, store: Store) -> Field:
    """Register bots and plan matches (idempotent). Refuses, before writing
    anything, when the settings differ from those of the stored results."""
    fingerprint.verify(config, store)
    check_field(config, store)
    refuse_new_content_after_reveal(config, store)  # before a new version is registered
    fingerprint.record(config, store)
    salt(store)  # the seed commitment's salt, fixed before any match is played
    bots = tuple(registry.sync_field(config, store))
    planned = tuple(plan_field(config, bots, store))
    refuse_after_reveal(config, bots, planned, store)
    store.plan((m.match_id, m.set_no, m.table_no, m.order_no, m.seed,
                [bots[i].id for i in m.bots]) for m in planned)
    store.set_meta("name", config.name)
    return Field(bots, planned)


def _late(config: TournamentConfig, names: str) -> FieldError:
    return FieldError(
        f"{Path(config.root) / 'tournament.toml'}: the tournament seed was published "
        f"(arena leaderboard publish) before {names} joined; its matches would be dealt "
        "from that seed, and anyone could deal every hand: play new bots and versions in a "
        "new tournament folder (arena tournament new)")


def refuse_new_content_after_reveal(config: TournamentConfig, store: Store) -> None:
    """A listed folder whose content the store does not know yet would be
    registered now, after the seed was published (refuse_after_reveal):
    refused before it is, so that a refused run stores nothing."""
    if revealed_after(store) is None or config.seed_public:
        return
    known = {(b.name, b.content_hash) for b in store.bots()}
    new = []
    for path in config.bot_paths:
        try:
            spec = load_bot(path)
        except BotFileError:
            continue  # sync_field says what is wrong with it
        if (spec.name, spec.content_hash) not in known:
            new.append(f"{spec.name} {spec.version}")
    if new:
        raise _late(config, " and ".join(sorted(new)))


def refuse_after_reveal(config: TournamentConfig, bots: Sequence[BotRow],
                        planned: Sequence[schedule.PlannedMatch], store: Store) -> None:
    """Once the seed is published (secrecy.mark_revealed) it deals nothing
    new to a bot version registered since: its author could have read the
    seed and dealt every hand of its matches (schedule.deal_seed is public).
    Refuses (FieldError) before any such match is planned."""
    known = revealed_after(store)
    if known is None or config.seed_public:
        return
    late = {i for m in planned for i in m.bots if bots[i].id > known}
    if not late:
        return
    finished = {r.match_id for r in store.matches({m.match_id for m in planned})
                if r.status == "finished"}
    todo = [m for m in planned if m.match_id not in finished and late & set(m.bots)]
    if todo:
        raise _late(config, " and ".join(sorted(f"{bots[i].name} {bots[i].version}" for i in late)))


def plan_field(config: TournamentConfig, bots: Sequence[BotRow],
               store: Store | None = None) -> list[schedule.PlannedMatch]:
    """The plan for a field (sorted by name): tables are named by the bots'
    names, matches by their versions. With the store (the planning run), a
    new version's seeds follow `config.fresh_deals`; the ids, all that
    readers of the plan use, never depend on it."""
    played = None
    if store is not None and config.new_version_deals != "same":
        # auto without replays: the deals of tables where a seat's log was
        # kept may be shown all the same (served and published once the
        # table is complete; a bot's log holds what it printed, every card it
        # saw, and in duplicate it sat in every seat), so those are fresh too.
        played = played_tables(store, logged_only=not config.fresh_deals)
    return schedule.plan([b.key for b in bots], config.duplicate_sets, config.seed,
                         config.schedule, names=[b.name for b in bots], played=played)


def deal_seeds(config: TournamentConfig, bots: Sequence[BotRow]) -> dict[str, tuple[int, int]]:
    """Each planned match's two possible deal seeds, (shared, fresh): the
    one every version of its bots plays, and the one a new version gets
    where others' deals may be public (schedule.deal_seed). Which of the
    two a match was dealt is public; the seeds are not, until revealed."""
    shared = plan_field(config, bots)
    fresh = schedule.plan([b.key for b in bots], config.duplicate_sets, config.seed,
                          config.schedule, names=[b.name for b in bots],
                          played=schedule.EVERY_TABLE_PLAYED)
    seeds = {m.match_id: m.seed for m in fresh}
    return {m.match_id: (m.seed, seeds[m.match_id]) for m in shared}


def played_tables(store: Store, logged_only: bool = False
                  ) -> dict[tuple[int, str], set[frozenset[str]]]:
    """(set, table digest) -> the version sets with finished matches there:
    their replays show that table's deals. `logged_only`: only the tables
    where a finished match kept a seat's log (referee: the seats with a
    fault), which shows them as well."""
    keys = {b.id: b.key for b in store.bots()}
    finished = [r for r in store.matches() if r.status == "finished"]
    if logged_only:
        logged = {schedule.table_of(r.match_id) for r in finished if _kept_a_log(r)}
        finished = [r for r in finished if schedule.table_of(r.match_id) in logged]
    out: dict[tuple[int, str], set[frozenset[str]]] = {}
    for row in finished:
        versions = frozenset(keys[i] for i in row.bot_ids)
        out.setdefault(schedule.table_of(row.match_id), set()).add(versions)
    return out


def _kept_a_log(row: MatchRow) -> bool:
    """The referee kept a seat's log of this match (match.py _keep_logs)."""
    return row.result is not None and any(
        seat.status == "forfeit" or any(n for _, n in seat.faults) for seat in row.result.seats)


def unit(row: MatchRow) -> tuple[int, int]:
    """The bootstrap unit of a match, its duplicate set: the six seat orders
    of one table in one set share the deal seed (table_no is only the
    table's position in the plan it was stored with)."""
    return (row.set_no, row.seed)


def match_spec(config: TournamentConfig, row: MatchRow, specs: dict[int, object]) -> MatchSpec:
    return config.match.match_spec(
        Path(config.root), row.match_id,
        tuple(specs[i] for i in row.bot_ids),  # type: ignore[misc]
        row.seed,
        match_key(config.seed, row.match_id))  # the bots' ARENA_SEED: one-way of the secret seed


def rated_matches(rows: list[MatchRow]) -> list[ratings.RatedMatch]:
    out = []
    for row in rows:
        if row.status != "finished" or row.result is None:
            continue
        out.append(to_rated(row.match_id, unit(row), row.bot_ids, row.result))
    return out


def to_rated(match_id: str, unit: tuple[int, int], bot_ids: tuple[int, ...],
             result: MatchResult) -> ratings.RatedMatch:
    places = tuple(seat.place for seat in sorted(result.seats, key=lambda s: s.seat))
    return ratings.RatedMatch(match_id, unit, bot_ids, places)


def run(
    config: TournamentConfig,
    store: Store,
    executor_factory: Callable[[], Executor],
    on_progress: Callable[[int, int, str], None] | None = None,
) -> RunSummary:
    """Play every planned match that is not finished; returns a summary.
    One run per tournament at a time: the caller holds
    `runlock.exclusive_run(config.root)` (the CLI does, before it opens the
    store)."""
    field = prepare(config, store)
    store.reset_running()
    wanted = {m.match_id for m in field.plan}
    rows = store.matches(wanted)
    done_rows = [r for r in rows if r.status == "finished"]
    todo = [r for r in rows if r.status != "finished"]
    root = Path(config.root)
    if config.match.replays:
        clear_part_files(root / REPLAYS_DIR)

    names = {b.id: b.name for b in field.bots}
    env = ratings.environment()
    live = {b.id: env.create_rating() for b in field.bots}
    for rm in rated_matches(done_rows):
        _update_live(env, live, rm)
    finished = len(done_rows)
    if on_progress:
        on_progress(finished, len(field.plan), _leader(live, names))

    specs: dict[int, object] = {}

    def to_spec(row: MatchRow) -> MatchSpec:
        if not specs:  # when the first match is played: a run with nothing to play reads no bot
            specs.update({b.id: registry.bot_spec(b, root) for b in field.bots})
        return match_spec(config, row, specs)

    def on_result(row: MatchRow, result: MatchResult | None) -> None:
        nonlocal finished
        if result is not None:
            _update_live(env, live, to_rated(row.match_id, unit(row), row.bot_ids, result))
            finished += 1
        if on_progress:
            on_progress(finished, len(field.plan), _leader(live, names))

    rule: StopRule[MatchRow] = (
        Settled(field.bots, field.plan, store, config.duplicate_sets)
        if config.stop == "settled" else Fixed(todo))
    with Playing(executor_factory) as playing:
        ended = loop.play(playing, rule, store, to_spec, on_result)

    save_ratings(store, field)
    return RunSummary(len(field.plan), finished, ended.played, len(ended.errors),
                      tuple(ended.errors), ended.stop.why)


def not_needed(config: TournamentConfig, bots: Sequence[BotRow],
               plan: Sequence[schedule.PlannedMatch], rows: dict[str, MatchRow]) -> set[str]:
    """With the adaptive stop, the planned matches it has decided not to
    play (stop/settled.py not_needed); none with the fixed stop."""
    if config.stop != "settled":
        return set()
    return settled.not_needed(bots, plan, rows)


def _update_live(env: trueskill.TrueSkill, live: dict[int, trueskill.Rating],
                 m: ratings.RatedMatch) -> None:
    if all(p in live for p in m.players):
        ratings._apply(env, live, m.players, m.places)


def _leader(live: dict[int, trueskill.Rating], names: dict[int, str]) -> str:
    """Leader for the progress line only (completion order; the table uses id order)."""
    if not live or all(r.sigma == ratings.SIGMA for r in live.values()):
        return ""  # nothing rated yet
    best = max(live, key=lambda p: (live[p].mu - 3 * live[p].sigma, -p))
    return f"{names[best]} ({live[best].mu - 3 * live[best].sigma:.1f})"


def save_ratings(store: Store, field: Field) -> dict[int, ratings.Rating]:
    """Recompute the ratings of the field from its finished matches, in match-id
    order, and store the rating history."""
    wanted = {m.match_id for m in field.plan}
    matches = rated_matches(store.matches(wanted))
    result, history = ratings.rate(matches, [b.id for b in field.bots])
    store.save_rating_history(history)
    return result
