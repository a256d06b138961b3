"""Stored matches for the web tests and benchmarks/web.py, made with the engine.

`write_replay` plays a whole game with the golden playthroughs' random
policy (tests/game/helpers.py) and writes it as the referee does (the record
types of arena/referee/replay.py), so the player re-plays a real file.
`stored_tournament` makes a tournament folder whose store holds every
planned match, each with such a replay, a result and (optionally) faults:
what `arena tournament run` leaves, without starting bot processes.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from arena.game import Rules, new_game
from arena.referee.replay import REPLAY_VERSION
from arena.referee.spec import FAULT_KINDS, DealSummary, MatchResult, SeatResult
from arena.tournament.plan.config import load_config
from arena.tournament.run import coordinator
from arena.tournament.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _helpers() -> Any:
    """tests/game/helpers.py, by path: this module is also loaded by
    benchmarks/web.py, from outside the test packages."""
    spec = importlib.util.spec_from_file_location("web_game_helpers",
                                                  ROOT / "tests" / "game" / "helpers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


random_choice = _helpers().random_choice
SAMPLE_BOTS = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random",
               ROOT / "tournaments" / "sample" / "random_b"]


def play(rules: Rules, seed: int, policy_seed: int) -> tuple[Any, list[tuple[int, str]]]:
    """A whole game: the final state and (seat, action text) of every action."""
    rng = random.Random(policy_seed)
    game = new_game(rules, seed=seed)
    actions = []
    while not game.is_over:
        seat = game.to_act
        action = random_choice(game, rng)
        actions.append((seat, str(action)))
        game = game.apply(action)
    return game, actions


def write_replay(path: Path, rules: Rules, seed: int, *, match_id: str = "m1",
                 bots: Sequence[tuple[str, str]] = (), policy_seed: int = 1,
                 faults: dict[int, str] | None = None) -> MatchResult:
    """Play and write one match's replay; returns its MatchResult. `faults`
    marks the first decision of each given seat with that fault kind (the
    action recorded is still the one played, as the referee's default is)."""
    game, actions = play(rules, seed, policy_seed)
    n = rules.players
    names = list(bots) or [(f"bot{s}", "1.0") for s in range(n)]
    faults = faults or {}
    lines: list[dict[str, Any]] = [{
        "type": "header", "version": REPLAY_VERSION, "match_id": match_id, "seed": seed,
        "rules": rules.to_dict(),
        "bots": [{"seat": s, "name": names[s][0], "version": names[s][1], "language": "python",
                  "content_hash": "0" * 64} for s in range(n)],
        "time_control": {"per_move": 1.0, "bank": 10.0, "increment": 0.1, "startup": 15.0},
        "fault_policy": {"mode": "strike", "max_strikes": 3}, "transport": "unix",
        "sandbox": ["process"] * n,
    }]
    fault_lines: dict[int, list[str]] = {s: [] for s in range(n)}
    decisions = [0] * n
    deals_done = 0
    g = new_game(rules, seed=seed)
    from arena.game import parse_action

    for i, (seat, text) in enumerate(actions):
        decisions[seat] += 1
        kind = faults.get(seat) if decisions[seat] == 1 else None
        note = f"decision {decisions[seat]}: no reply within 1.000s" if kind else ""
        if kind:
            fault_lines[seat].append(note)
        lines.append({"type": "action", "n": i, "deal": g.deal_number, "seat": seat,
                      "action": text, "time": round(0.0004 + (i % 7) * 0.0001, 6),
                      "fault": kind, "note": note})
        g = g.apply(parse_action(text))
        while deals_done < len(g.deals):
            record = g.deals[deals_done].to_dict()
            record.pop("redeals", None)  # as the referee writes it (spec.DealSummary)
            lines.append({"type": "deal", **record})
            deals_done += 1
    places = game.places
    statuses = ["ok"] * n
    lines.append({
        "type": "result", "finish": [list(f) for f in game.finish], "totals": list(game.totals),
        "places": list(places), "statuses": statuses,
        "faults": [{k: (1 if faults.get(s) == k else 0) for k in FAULT_KINDS} for s in range(n)],
        "fault_log": [fault_lines[s] for s in range(n)], "decisions": decisions,
        "reason": "complete", "duration": 1.0,
    })
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines),
                    encoding="utf-8")
    seats = tuple(
        SeatResult(seat=s, bot=names[s][0], version=names[s][1], total=game.totals[s],
                   place=places[s], status="ok", decisions=decisions[s],
                   time_total=0.01 * decisions[s], time_max=0.01,
                   faults=tuple((k, 1 if faults.get(s) == k else 0) for k in FAULT_KINDS),
                   fault_log=tuple(fault_lines[s]), sandbox="process", moves=decisions[s])
        for s in range(n))
    deals = tuple(DealSummary(**{k: (tuple(v) if isinstance(v, list) else v)
                                 for k, v in d.to_dict().items() if k != "redeals"})
                  for d in game.deals)
    return MatchResult(match_id=match_id, seed=seed, seats=seats, deals=deals,
                       finish=game.finish, duration=1.0, replay_path=str(path))


def stored_tournament(
    folder: Path, *, bots: Sequence[Path] = SAMPLE_BOTS, duplicate_sets: int = 1,
    target: int = 500, preset: str = "standard", fault_every: int = 0,
    replay_for: Callable[[int], bool] = lambda i: True, finish: int | None = None,
    fast: bool = False, schedule: str = "auto", rules_extra: str = "",
) -> Path:
    """A tournament folder with every planned match stored as played (the
    first `finish` of them, if given). Every `fault_every`-th match (0: none)
    gives seat 0 a timeout, with a kept seat log. Replays are written for the
    matches `replay_for(index)` accepts; the others share the first one's
    file (a store of thousands of matches without thousands of files).
    `fast`: no fsync per stored result (a benchmark's ten thousand)."""
    folder.mkdir(parents=True, exist_ok=True)
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(
        f'name = "{folder.name}"\nseed = 11\nduplicate_sets = {duplicate_sets}\n'
        f'bootstrap = 0\nsandbox = "process"\nschedule = "{schedule}"\nbots = [{listed}]\n'
        f'[rules]\npreset = "{preset}"\ntarget = {target}\n{rules_extra}', encoding="utf-8")
    config = load_config(folder)
    with Store(config.store_path) as store:
        if fast:
            store._db.execute("PRAGMA synchronous=OFF")
        field = coordinator.prepare(config, store)
        rows = store.matches({m.match_id for m in field.plan})
        names = {b.id: (b.name, b.version) for b in field.bots}
        rules = Rules.from_dict(config.match.rules_dict()) if rules_extra else \
            Rules.preset(preset).replace(target=target)
        shared: Path | None = None
        for i, row in enumerate(rows[:finish]):
            store.mark_running([row.match_id])
            path = folder / "replays" / f"{row.match_id}.jsonl"
            faults = {0: "timeout"} if fault_every and i % fault_every == 0 else {}
            if replay_for(i) or shared is None:
                result = write_replay(path, rules, row.seed, match_id=row.match_id,
                                      bots=[names[b] for b in row.bot_ids],
                                      policy_seed=i, faults=faults)
                shared = shared or path
            else:
                result = _copy_result(store, shared, row.match_id, faults)
            if faults:
                logs = folder / "logs"
                logs.mkdir(exist_ok=True)
                (logs / f"{row.match_id}-seat0-{names[row.bot_ids[0]][0]}.log").write_text(
                    "bot log: thinking...\n", encoding="utf-8")
            store.finish(result)
        coordinator.save_ratings(store, field)
    return folder


_template: dict[str, MatchResult] = {}


def _copy_result(store: Store, shared: Path, match_id: str, faults: dict[int, str]) -> MatchResult:
    """The shared replay's result under another match id (no new file)."""
    del store
    key = str(shared)
    if key not in _template:
        from arena.referee.replay import read_replay

        rep = read_replay(shared)
        assert rep.result is not None
        _template[key] = _result_of(rep)
    base = _template[key]
    seats = tuple(
        SeatResult(**{**s.__dict__, "faults": tuple((k, 1 if faults.get(s.seat) == k else 0)
                                                   for k in FAULT_KINDS),
                      "fault_log": (("decision 1: no reply within 1.000s",)
                                    if faults.get(s.seat) else ())})
        for s in base.seats)
    return MatchResult(**{**base.__dict__, "match_id": match_id, "seats": seats,
                          "replay_path": ""})


def _result_of(rep: Any) -> MatchResult:
    r = rep.result
    n = len(rep.header["bots"])
    seats = tuple(
        SeatResult(seat=s, bot=rep.header["bots"][s]["name"], version=rep.header["bots"][s]["version"],
                   total=r["totals"][s], place=r["places"][s], status="ok",
                   decisions=r["decisions"][s], time_total=0.01, time_max=0.01,
                   faults=tuple((k, 0) for k in FAULT_KINDS), sandbox="process")
        for s in range(n))
    deals = tuple(DealSummary(**{k: (tuple(v) if isinstance(v, list) else v)
                                 for k, v in d.items() if k not in ("type", "redeals")})
                  for d in rep.deals)
    return MatchResult(match_id=rep.header["match_id"], seed=rep.header["seed"], seats=seats,
                       deals=deals, finish=tuple(tuple(f) for f in r["finish"]), duration=1.0)
