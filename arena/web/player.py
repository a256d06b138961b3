"""The replay player's data: a recorded match re-played through the engine,
one table view per step, for one viewer.

    data = player_data(read_replay(path), viewer=None)   # all cards
    data = player_data(read_replay(path), viewer=1)      # what seat 1 knew

The whole match is re-played before anything is returned, so a damaged
replay is one ReplayError. The result is plain JSON data, serialised once
and drawn by `static/player.js`:

    format     1
    match      {match_id, preset, rules, players, bots: [{seat, name, version}],
                viewer}  (never the seed: docs/web.md "What a page shows")
    steps      [step]: step 0 is the position before the first action, step k the
               position after the k-th action this viewer saw
    deals      [DealRecord.to_dict()]  every finished deal (public results)
    result     {totals, places, statuses, reason, faults: [[kind, count]...] per seat,
                fault_log: per seat [lines] (another seat's notes omitted in a seat view:
                a note can name that seat's legal actions, hence its cards)}

A step is delta-encoded against the one before it (the views change a few
keys per action, and a match has a thousand steps or more):

    v   {key: value}  the view keys that changed (step 0: the whole view, views.py)
    a   None | {n, seat, text, time, fault, note}  the action that led here, as this
        viewer may see it (another seat's face-down give, discard or guess redacted
        by the referee's own `action_event`); `note` only for the viewer's own faults
    t   None | {cards: [{seat, card}], winner}  the trick this action completed
    r   None | int  index into `deals` of the deal this action finished

A seat's view skips the steps it could not know happened: another seat
declining a private offer (docs/rules.md#private-offers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arena.game import GameState, parse_action
from arena.referee.events import action_event, completed_trick
from arena.referee.replay import Replay, ReplayError, replay_states
from arena.web.views import View, table_view

FORMAT = 1


def viewers_of(replay: Replay) -> int:
    """How many seats the replay's match had."""
    return len(replay.header.get("bots") or ())


def player_data(replay: Replay, viewer: int | None,
                states: Iterable[tuple[GameState, dict[str, Any] | None]] | None = None,
                ) -> dict[str, Any]:
    """Every step of `replay` as `viewer` (a seat, or None for all cards) saw
    it. `states` (default: `replay_states(replay)`) lets a test re-play the
    records on another first deal."""
    n = viewers_of(replay)
    if viewer is not None and not 0 <= viewer < n:
        raise ReplayError(f"{replay.path}: seat {viewer} is not a seat of this {n}-player match")
    # Every position first (the engine applies each action once; a damaged
    # replay fails here, before anything is built).
    seq = list(replay_states(replay) if states is None else states)
    steps = build_steps(seq, viewer, include_start=True)
    return {
        "format": FORMAT,
        "match": _match_info(replay, viewer),
        "steps": steps,
        "deals": final_deals(replay),
        "result": _result(replay, viewer),
    }


_MISSING = object()


def build_steps(seq: Sequence[tuple[GameState, dict[str, Any] | None]], viewer: int | None,
                include_start: bool) -> list[dict[str, Any]]:
    """The steps of `seq`'s actions as `viewer` saw them: `seq[k]` is the game
    before the action record `seq[k][1]`, and its last entry the game after
    the last action to tell (its record, if any, is not told). The first
    position is a step only with `include_start` (the match's step 0); the
    first step built is the whole view, each next one the keys that changed.
    A long match is built a few deals at a time (chunks.py) by this same
    function, so its parts are byte for byte what the whole would be bar
    each part's first step, which is whole."""
    steps: list[dict[str, Any]] = []
    previous: View = {}
    pending: dict[str, Any] | None = None  # the action that leads to the next position
    trick: dict[str, Any] | None = None
    deal_index: int | None = None
    deals_before = len(seq[0][0].deals) if seq else 0
    last = len(seq) - 1
    for index, (game, rec) in enumerate(seq):
        finished = len(game.deals)
        if finished > deals_before and pending is not None:
            deal_index = finished - 1
        deals_before = finished
        if pending is not None or (index == 0 and include_start):
            view = table_view(game, viewer)
            steps.append({
                "v": {k: v for k, v in view.items() if previous.get(k, _MISSING) != v},
                "a": pending, "t": trick, "r": deal_index,
            })
            previous = view
        pending, trick, deal_index = None, None, None
        if rec is None or index == last:
            break
        seat = int(rec["seat"])
        if viewer is not None and seat != viewer and game.private_offer and rec["action"] == "pass":
            continue  # declined where only that seat could see the offer
        action = parse_action(str(rec["action"]))  # replay_states applied it: it parses
        after = seq[index + 1][0]
        shown_to = seat if viewer is None else viewer
        after_obs = after.observation(shown_to).as_mapping()
        text = action_event(seat, action, shown_to, after_obs, game.deal_number).text
        own = viewer is None or viewer == seat
        pending = {
            "n": int(rec["n"]), "seat": seat, "text": text.split(": ", 1)[-1],
            "time": _seconds(rec.get("time")), "fault": rec.get("fault") or None,
            "note": (rec.get("note") or None) if own else None,
        }
        before = game.observation(shown_to).as_mapping()
        done = completed_trick(before, seat, action)
        if done is not None:
            trick = {"cards": [{"seat": s, "card": str(c)} for s, c in done[0]],
                     "winner": done[1]}
    return steps


def final_deals(replay: Replay) -> list[dict[str, Any]]:
    """The replay's deal records as the player shows them."""
    return [{k: v for k, v in d.items() if k != "type"} for d in replay.deals]


def match_part(replay: Replay, viewer: int | None) -> dict[str, Any]:
    """Everything of the player's data but the steps (a long match's first
    page carries this and its first deals; chunks.py)."""
    n = viewers_of(replay)
    if viewer is not None and not 0 <= viewer < n:
        raise ReplayError(f"{replay.path}: seat {viewer} is not a seat of this {n}-player match")
    return {"format": FORMAT, "match": _match_info(replay, viewer), "deals": final_deals(replay),
            "result": _result(replay, viewer)}


def _seconds(value: Any) -> float | None:
    return round(float(value), 4) if isinstance(value, (int, float)) else None


def _match_info(replay: Replay, viewer: int | None) -> dict[str, Any]:
    h = replay.header
    rules = dict(h.get("rules") or {})
    info: dict[str, Any] = {
        "match_id": str(h.get("match_id") or ""),
        "preset": str(rules.get("preset") or rules.get("preset_name") or ""),
        "rules": rules,
        "players": viewers_of(replay),
        "bots": [{"seat": int(b["seat"]), "name": str(b["name"]), "version": str(b["version"])}
                 for b in h["bots"]],
        "viewer": viewer,
    }
    # Never the seed, even with all cards: it fixes every deal of the match,
    # which the other seat orders of its table play too (duplicate), and the
    # tournament keeps its seeds secret until every match is played.
    return info


def _result(replay: Replay, viewer: int | None) -> dict[str, Any] | None:
    r = replay.result
    if r is None:
        return None
    logs = r.get("fault_log") or []
    return {
        "totals": r.get("totals"), "places": r.get("places"), "statuses": r.get("statuses"),
        "reason": r.get("reason"), "faults": r.get("faults"),
        "fault_log": [list(lines or ()) if viewer is None or viewer == seat else []
                      for seat, lines in enumerate(logs)],
    }
