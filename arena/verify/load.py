"""Read a bundle's three JSON files into checked values.

Every shape problem (a truncated file, a key missing, a value of the wrong
type) is one VerifyError naming the file and the key. A bundle of another
format or arena version is refused here (docs/tournaments.md, "Checking a
published table", says why).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.referee.spec import MatchResult
from arena.tournament import (
    BotRow,
    SeedDisclosure,
    TournamentConfig,
    TournamentConfigError,
    parse_config,
    result_from_json,
)
from arena.tournament import bundle_format as fmt
from arena.verify.errors import VerifyError
from arena.verify.source import safe_replay_name


@dataclass(frozen=True)
class BundleMatch:
    match_id: str
    set_no: int
    table_no: int
    order_no: int
    bots: tuple[int, ...]
    deals: str                  # shared | fresh | other: which derivation dealt it
    result: MatchResult
    replay: str | None          # its file in the bundle; None when withheld


@dataclass(frozen=True)
class Bundle:
    folder: Path
    arena_version: str
    manifest: dict[str, Any]
    config: TournamentConfig    # seed 0 until revealed
    seed: SeedDisclosure
    bots: dict[int, BotRow]
    labels: dict[int, str]
    field: list[BotRow]
    retired: tuple[tuple[str, str, int], ...]
    planned: int
    matches: list[BundleMatch]
    leaderboard: dict[str, Any]

    @property
    def revealed(self) -> bool:
        return self.seed.seed is not None


def _json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VerifyError(f"{path}: missing from the bundle") from None
    except UnicodeDecodeError:
        raise VerifyError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise VerifyError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise VerifyError(f"{path}: not JSON (truncated?): {exc.msg} at line {exc.lineno}") from None


def _get(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise VerifyError(f"{where}: no key {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise VerifyError(f"{where}: key {key!r} is {json.dumps(value)[:40]}, expected "
                          f"{' or '.join(k.__name__ for k in kinds)}")
    return value


def _format(data: Any, where: str) -> None:
    if not isinstance(data, dict) or data.get("format") != fmt.FORMAT:
        raise VerifyError(f"{where}: not an arena results bundle (no \"format\": {fmt.FORMAT!r})")
    version = data.get("format_version")
    if version != fmt.FORMAT_VERSION:
        raise VerifyError(f"{where}: bundle format {version!r}; this arena reads format "
                          f"{fmt.FORMAT_VERSION}")


def load(folder: Path) -> Bundle:
    manifest = _json(folder / fmt.MANIFEST)
    _format(manifest, str(folder / fmt.MANIFEST))
    data = _json(folder / fmt.BUNDLE)
    where = str(folder / fmt.BUNDLE)
    _format(data, where)
    version = _get(data, "arena_version", str, where)
    if version != fmt.arena_version():
        # The engine deals, the referee scores and the ratings round by the
        # rules of one version: another's may give other numbers for the
        # same games, and a "difference" would be the reader's version.
        raise VerifyError(
            f"{where}: written by arena {version}; this is arena {fmt.arena_version()}: a "
            f"bundle is verified by the version that wrote it (pip install "
            f"thousand-arena=={version}, then arena verify again)")
    board = _json(folder / fmt.LEADERBOARD)
    if not isinstance(board, dict) or "rows" not in board:
        raise VerifyError(f"{folder / fmt.LEADERBOARD}: not a published leaderboard (no rows)")
    seed_data = _get(data, "seed", dict, where)
    commitment = _get(seed_data, "commitment", str, f"{where}: 'seed'")
    seed = seed_data.get("seed")
    salt = seed_data.get("salt")
    if (seed is None) != (salt is None) or not isinstance(seed, (int, type(None))) \
            or isinstance(seed, bool) or not isinstance(salt, (str, type(None))):
        raise VerifyError(f"{where}: 'seed': the seed (an integer) and the salt (text) are "
                          "both given or both null")
    settings = dict(_get(data, "tournament", dict, where))
    settings.update({"seed": 0 if seed is None else seed, "bots": []})
    try:
        config = parse_config(settings, folder, f"{where}: 'tournament'", check_bots=False)
    except TournamentConfigError as exc:
        raise VerifyError(str(exc)) from None
    bots, labels = _bots(_get(data, "bots", list, where), where)
    field_ids = _get(data, "field", list, where)
    if any(not isinstance(i, int) or i not in bots for i in field_ids):
        raise VerifyError(f"{where}: 'field' names a bot id that 'bots' does not list")
    retired = _get(data, "retired", list, where)
    try:
        retired_rows = tuple((str(b), str(v), int(n)) for b, v, n in retired)
    except (TypeError, ValueError):
        raise VerifyError(f"{where}: 'retired' is not a list of [bot, version, matches]") from None
    matches = [_match(m, i, where, bots) for i, m in enumerate(_get(data, "matches", list, where))]
    return Bundle(
        folder=folder, arena_version=version, manifest=manifest, config=config,
        seed=SeedDisclosure(commitment, seed, salt or ""), bots=bots, labels=labels,
        field=[bots[i] for i in field_ids], retired=retired_rows,
        planned=_get(data, "matches_planned", int, where), matches=matches, leaderboard=board)


def _bots(entries: list[Any], where: str) -> tuple[dict[int, BotRow], dict[int, str]]:
    bots: dict[int, BotRow] = {}
    labels: dict[int, str] = {}
    for i, entry in enumerate(entries):
        at = f"{where}: 'bots[{i}]'"
        bot_id = _get(entry, "id", int, at)
        bots[bot_id] = BotRow(
            id=bot_id, name=_get(entry, "name", str, at), version=_get(entry, "version", str, at),
            content_hash=_get(entry, "content_hash", str, at),
            language=_get(entry, "language", str, at), path="", source="", added_at=0.0)
        labels[bot_id] = _get(entry, "label", str, at)
    return bots, labels


def _match(entry: Any, i: int, where: str, bots: dict[int, BotRow]) -> BundleMatch:
    at = f"{where}: 'matches[{i}]'"
    match_id = _get(entry, "match_id", str, at)
    seats = tuple(_get(entry, "bots", list, at))
    if any(not isinstance(b, int) or b not in bots for b in seats):
        raise VerifyError(f"{at}: match {match_id} seats a bot id that 'bots' does not list")
    replay = entry.get("replay")
    if replay is not None and not safe_replay_name(replay):
        raise VerifyError(f"{at}: 'replay' {str(replay)[:80]!r} is not replays/ID.jsonl")
    given = _get(entry, "result", dict, at)
    try:
        result = result_from_json(json.dumps(given))
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise VerifyError(f"{at}: match {match_id}: 'result' is not a match result "
                          f"({str(exc)[:80]})") from None
    return BundleMatch(
        match_id=match_id, set_no=_get(entry, "set_no", int, at),
        table_no=_get(entry, "table_no", int, at), order_no=_get(entry, "order_no", int, at),
        bots=seats, deals=_get(entry, "deals", str, at), result=result, replay=replay)
