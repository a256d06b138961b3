"""Replays: one JSON Lines file per match, and re-playing it through the engine.

Records, one JSON object per line, each with a `type`:

  header   version, match_id, seed, rules (every option, Rules.to_dict()),
           bots (seat, name, version, language, content_hash), time_control,
           fault_policy, transport, sandbox (level per seat)
  action   n (0-based), deal, seat, action (docs/rules.md#notation text), time (s),
           fault (null or kind), note (the fault's line, if any)
  deal     one finished deal (the fields of arena.game.records.DealRecord)
  refused  a refused connection (reason; seat: whose listener refused it)
  result   finish, totals, places, statuses, faults per seat, reason, duration

The engine is deterministic given rules, seed and actions, so `replay_game`
rebuilds the exact game; `check` compares its totals with the recorded ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from arena.game import Rules, new_game, parse_action

# 2: deals from the seed through HMAC-SHA256 (arena.game.rng). A version 1
# replay was dealt by splitmix64: its seed no longer deals its cards, so it
# cannot be re-played (its recorded deals and result can still be read).
REPLAY_VERSION = 2


class ReplayError(ValueError):
    """A replay file that cannot be read or does not re-play; names file and line."""


class ReplayWriter:
    """Appends records to a replay file; a no-op when `path` is "".

    The records go to a part file beside `path`, created at the first
    record, which replaces `path` only when `finish` is called (the match
    has its result): a match played again (a resumed tournament) never
    leaves a cut or mixed replay where a whole one was. `close` without
    `finish` (the match failed or was stopped) drops the part file. Its name
    is unique (pid and a random part, created exclusively), so two processes
    playing the same match, such as a killed run's worker still winding down
    and the next run, or workers on two hosts sharing the folder, never
    write into one file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.part_path = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.part" if path else ""
        self._fh: IO[str] | None = None
        self._done = not path

    @property
    def active(self) -> bool:
        """False when records are not kept: callers may skip building them."""
        return not self._done

    def write(self, record: dict[str, Any]) -> None:
        if self._done:
            return
        if self._fh is None:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.part_path, "x", encoding="utf-8")  # noqa: SIM115 - open for the whole match
        self._fh.write(json.dumps(record, separators=(",", ":"), default=_jsonable) + "\n")

    def finish(self) -> None:
        """The replay is whole (its result is written): move it into place."""
        if self._done or self._fh is None:
            return
        self._fh.close()
        self._fh = None
        try:
            os.replace(self.part_path, self.path)
        finally:
            self.close()  # a failed move drops the part file too

    def close(self) -> None:
        """Drop an unfinished replay; after `finish`, nothing to do."""
        self._done = True
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        if self.part_path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.part_path)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return str(value)


@dataclass
class Replay:
    path: str
    header: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    action_lines: list[int] = field(default_factory=list)  # each action's line in the file

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.header["rules"])

    @property
    def seed(self) -> int:
        return int(self.header["seed"])


def read_replay(path: str | Path) -> Replay:
    """Parse a replay file; ReplayError with file and line on anything wrong."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ReplayError(f"{p}: cannot read replay: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{p}: not a replay (not UTF-8 text)") from None
    return parse_replay(lines, p)


def parse_replay(lines: list[str], p: str | Path) -> Replay:
    """Parse a replay's lines (read from file `p`, or sent by a worker of
    another machine and named so); ReplayError with `p` and line."""
    replay: Replay | None = None
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{p}:{no}: not JSON: {exc.msg}") from None
        kind = rec.get("type") if isinstance(rec, dict) else None
        problem = _malformed(kind, rec)
        if problem:
            raise ReplayError(f"{p}:{no}: {kind} record {problem}")
        if replay is None:
            if kind != "header":
                raise ReplayError(f"{p}:{no}: a replay starts with a header record")
            replay = Replay(str(p), rec)
        elif kind == "action":
            replay.actions.append(rec)
            replay.action_lines.append(no)
        elif kind == "deal":
            replay.deals.append(rec)
        elif kind == "refused":
            replay.refused.append(rec)
        elif kind == "result":
            replay.result = rec
        else:
            raise ReplayError(f"{p}:{no}: unknown record type {kind!r}")
    if replay is None:
        raise ReplayError(f"{p}: empty replay")
    return replay


# What each record must hold for the replay to be told and re-played: a
# hand-edited or damaged file gets a line naming what is wrong, not a crash.
_INT = (int,)
_REQUIRED: dict[str, dict[str, tuple[type, ...]]] = {
    "header": {"seed": _INT, "rules": (dict,), "bots": (list,)},
    "action": {"n": _INT, "seat": _INT, "action": (str,)},
    "deal": {"deal_number": _INT, "dealer": _INT, "declarer": (int, type(None)), "bid": _INT,
             "contract": _INT, "made": (bool,), "deal_scores": (list,), "changes": (list,),
             "totals": (list,)},
}
_BOT_FIELDS = {"seat": _INT, "name": (str,), "version": (str,)}


def _malformed(kind: Any, rec: Any) -> str:
    """What is wrong with one parsed record of type `kind` ("" if nothing)."""
    need = _REQUIRED.get(kind) if isinstance(kind, str) else None
    if need is None:
        return ""
    for key, types in need.items():
        if key not in rec:
            return f"has no {key!r}"
        value = rec[key]
        # bool is an int in Python; a seat or seed of `true` is still wrong.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            return f"{key!r} is {json.dumps(value)[:40]}, expected {' or '.join(t.__name__ for t in types)}"
    if kind == "header":
        bots = rec["bots"]
        if not bots:
            return "lists no bots"
        for i, bot in enumerate(bots):
            if not isinstance(bot, dict) or bot.get("seat") != i:
                return f"bot {i} is not a bot entry for seat {i}"
            for key, types in _BOT_FIELDS.items():
                if not isinstance(bot.get(key), types):
                    return f"bot {i} has no valid {key!r}"
    if kind == "action" and rec["seat"] < 0:
        return f"'seat' is {rec['seat']}"
    return ""


def replay_states(replay: Replay) -> Iterator[tuple[Any, dict[str, Any] | None]]:
    """The game before each action and that action's record; last the final
    game with None. Raises ReplayError if an action does not apply."""
    version = replay.header.get("version", REPLAY_VERSION)
    if version != REPLAY_VERSION:
        raise ReplayError(f"{replay.path}: replay version {version!r} cannot be re-played by this "
                          f"engine (version {REPLAY_VERSION}: version 1 was dealt by splitmix64, "
                          "before deals were derived with HMAC-SHA256)")
    try:
        game = new_game(replay.rules, seed=replay.seed)
    except ValueError as exc:
        raise ReplayError(f"{replay.path}: header does not make a game: {exc}") from None
    for i, rec in enumerate(replay.actions):
        yield game, rec
        try:
            if game.to_act != rec["seat"]:
                raise ValueError(f"seat {rec['seat']} acts, but seat {game.to_act} is to act")
            game = game.apply(parse_action(rec["action"]))
        except (ValueError, KeyError) as exc:
            # The file's line where a reader can find it (a Replay built in
            # code has no lines).
            where = f":{replay.action_lines[i]}" if i < len(replay.action_lines) else ""
            raise ReplayError(f"{replay.path}{where}: action {rec.get('n')}: {exc}") from None
    yield game, None


def replay_game(replay: Replay) -> Any:
    """The final game state after re-playing every recorded action."""
    game = None
    for state, _ in replay_states(replay):
        game = state
    return game


def check(path: str | Path) -> tuple[int, ...]:
    """Re-play `path`; returns the totals, ReplayError if they differ from the recorded ones."""
    replay = read_replay(path)
    game = replay_game(replay)
    totals = tuple(int(t) for t in game.totals)
    if replay.result is not None and tuple(replay.result.get("totals", ())) != totals:
        raise ReplayError(
            f"{replay.path}: re-played totals {list(totals)} differ from recorded {replay.result['totals']}"
        )
    return totals
