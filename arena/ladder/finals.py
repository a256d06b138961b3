"""A season's end: frozen submissions, the batch rating, the finals.

    freeze(store)                   # no new submission, no new block
    batch_table(store)              # the order-free rating of every finished block
    folder = prepare(config, store, top=6)   # finals/tournament.toml

The finals are a tournament of the arena's own kind (arena.tournament):
the top N of the frozen table, one bot per author (two of one author at a
table could collude, as in the season), every triple of them in all six
seat orders (`schedule = "all_triples"`), rated with tau = 0 by the
tournament's batch fit, its seed committed to before the first match and
revealed when the last is played (arena/tournament/plan/secrecy.py), published
with the results bundle `arena verify` re-checks. Its seed is a one-way
function of the ladder's secret seed, so the organiser need keep nothing
else, and nobody can work one out from the other.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.ladder import blocks
from arena.ladder.config import CONFIG_NAME, LadderConfig
from arena.ladder.errors import LadderError
from arena.ladder.store import Store, Submission
from arena.sandbox.botfile import BotFileError, load_bot
from arena.tournament import (
    CONFIG_NAME as TOURNAMENT_TOML,
)
from arena.tournament import (
    Rating,
    TournamentError,
    derive_seed,
    fit_ratings,
    read_settings,
    toml_string,
)
from arena.tournament import load_config as load_tournament

FROZEN_META = "frozen_at"
FINALS_DIR = "finals"
DEFAULT_TOP = 6
# The tables of the season's match settings the finals play by, as written in ladder.toml.
_MATCH_KEYS = ("sandbox", "rules", "time_control", "faults", "limits")


class FinalsError(LadderError):
    """The finals cannot be prepared; the message says why and what to do."""


def frozen_at(store: Store) -> float | None:
    """When the ladder was frozen (seconds since the epoch), None if it is not."""
    value = store.get_meta(FROZEN_META)
    return float(value) if value else None


def freeze(store: Store) -> bool:
    """Freeze the ladder: no submission is taken and no block is planned
    (blocks in play finish and are rated). False if it already was."""
    if frozen_at(store) is not None:
        return False
    store.set_meta(FROZEN_META, repr(store.clock()))
    return True


def unfreeze(store: Store) -> bool:
    """The season goes on. False if the ladder was not frozen."""
    if frozen_at(store) is None:
        return False
    store.set_meta(FROZEN_META, "")
    return True


@dataclass(frozen=True)
class Standing:
    submission: Submission
    rating: Rating
    matches: int


def batch_table(store: Store) -> list[Standing]:
    """The active bots rated by the batch fit over every finished block's
    matches at once (arena.tournament.fit_ratings: the same table whatever order
    the blocks finished in, an early block weighing as a late one, no skill
    drift), best conservative rating first. The live table rates block by
    block with tau > 0 instead, so that a bot that improves can climb."""
    active = {s.id: s for s in store.submissions(state="active")}
    rows = [m for b in store.blocks(status="finished") for m in store.block_matches(b.id)
            if m.status == "finished" and m.result is not None]
    # Every finished block counts, a since replaced version's too: it rated
    # the opponents it met (it is a player of its own, not on the table).
    matches = blocks.rated(rows)
    players = sorted(set(active) | {p for m in matches for p in m.players})
    ratings = fit_ratings(sorted(matches, key=lambda m: m.match_id), players)
    counts = dict.fromkeys(players, 0)
    for m in matches:
        for p in m.players:
            counts[p] += 1
    table = [Standing(active[sid], ratings[sid], counts[sid]) for sid in active]
    return sorted(table, key=lambda s: (-s.rating.conservative, s.submission.bot))


def finalists(store: Store, top: int) -> list[Submission]:
    """The frozen table's best `top` authors' bots: each author's best by
    the live table's conservative rating (mu - 3 sigma), placed bots only
    (at least one finished block); reference bots are not in the finals."""
    if top < 3:
        raise FinalsError(f"--top {top}: the finals need at least 3 bots (a table has 3 seats)")
    best: dict[int, Submission] = {}
    for sub in store.submissions(state="active"):
        if sub.user_id is None or sub.mu is None or sub.sigma is None or sub.blocks == 0:
            continue
        held = best.get(sub.user_id)
        if held is None or _key(sub) < _key(held):
            best[sub.user_id] = sub
    chosen = sorted(best.values(), key=_key)[:top]
    if len(chosen) < 3:
        raise FinalsError(f"only {len(chosen)} author(s) have a placed bot on the ladder; the "
                          "finals need 3 (bots of 3 authors, each with a finished block)")
    return chosen


def _key(sub: Submission) -> tuple[float, str]:
    assert sub.mu is not None and sub.sigma is not None
    return (-(sub.mu - 3 * sub.sigma), sub.bot)


def prepare(config: LadderConfig, store: Store, top: int = DEFAULT_TOP,
            sets: int = 1) -> Path:
    """Write FOLDER/finals/tournament.toml for the frozen ladder's top
    `top`, or check that the one there is for the same bots (a finals run
    that was stopped is resumed, never replanned). Returns its folder."""
    if frozen_at(store) is None:
        raise FinalsError(f"{config.root}: the ladder is not frozen; freeze it first "
                          f"(arena ladder freeze {config.root}): no submission may change the "
                          "field while the finals are planned and played")
    chosen = finalists(store, top)
    root = Path(config.root)
    folder = root / FINALS_DIR
    paths = []
    for sub in chosen:
        path = root / sub.path
        try:
            spec = load_bot(path)
        except BotFileError as exc:
            raise FinalsError(f"finalist {sub.bot} {sub.version}: {exc}") from None
        if spec.content_hash != sub.content_hash:
            raise FinalsError(f"finalist {sub.bot} {sub.version}: {path}: its files changed "
                              "since it was submitted")
        paths.append(str(path.resolve()))
    target = folder / TOURNAMENT_TOML
    if target.exists():
        try:
            held = load_tournament(folder, check_bots=False)
        except TournamentError as exc:
            raise FinalsError(str(exc)) from None
        if sorted(held.bot_paths) != sorted(paths) or held.duplicate_sets != sets:
            raise FinalsError(
                f"{target}: planned for other finalists or sets than the frozen ladder's top "
                f"{top} with {sets} set(s) now; remove {folder} to plan the finals anew, or "
                "give the --top and --sets it was made with")
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    # Relative: the ladder folder can move (or be copied to another machine) whole.
    here = folder.resolve()
    text = finals_toml(config, [Path(os.path.relpath(p, here)).as_posix() for p in paths], sets)
    tmp = target.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    return folder


def finals_seed(ladder_seed: int) -> int:
    """The finals' tournament seed: SHA-256 of the ladder's secret seed and
    a label, so neither can be worked out from the other (as every block's)."""
    return derive_seed(ladder_seed, "ladder-finals")


def finals_toml(config: LadderConfig, bot_paths: list[str], sets: int) -> str:
    """tournament.toml of the finals: the season's match settings (the
    same tables of ladder.toml), every triple in all six seat orders."""
    settings = read_settings(Path(config.root) / CONFIG_NAME, "the ladder's settings")
    lines = [
        f"# The finals of ladder {config.name}: written by `arena ladder finals`.",
        "# Every triple of the finalists in all six seat orders, rated with tau = 0;",
        "# the seed is committed to before the first match, revealed after the last.",
        f"name = {toml_string(config.name + '-finals')}",
        f"seed = {finals_seed(config.seed)}",
        f"duplicate_sets = {sets}",
        'schedule = "all_triples"',
        f"concurrency = {config.workers}",
        f"cpu_slots = {_value(config.cpu_slots)}",
        "replays = true",
        "bots = [",
        *(f"    {toml_string(p)}," for p in bot_paths),
        "]",
    ]
    if "sandbox" in settings:
        lines.append(f"sandbox = {_value(settings['sandbox'])}")
    for table in _MATCH_KEYS[1:]:
        values = settings.get(table)
        if isinstance(values, dict) and values:
            lines += ["", f"[{table}]", *(f"{k} = {_value(v)}" for k, v in values.items())]
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    """One TOML value of the settings' kinds (ladder.toml's match tables
    hold strings, booleans, numbers and lists of them only)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FinalsError(f"{CONFIG_NAME}: {value!r} cannot be written to the finals")
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise FinalsError(f"{CONFIG_NAME}: a value of kind {type(value).__name__} in a match "
                      "setting cannot be written to the finals")
