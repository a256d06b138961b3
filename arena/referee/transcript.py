"""Readable text of a match: deal-by-deal summaries and replay transcripts.

`result_lines(result)` summarises a MatchResult; `replay_lines(replay, seat)`
re-plays a replay through the engine and tells it deal by deal, from one
seat's view (only what that seat may know, docs/rules.md#hidden-information) or, with seat None,
with every hand shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.game import parse_action
from arena.game.actions import Pick, Redeal
from arena.game.records import DealRecord
from arena.referee.events import action_event, completed_trick
from arena.referee.replay import Replay, replay_states
from arena.referee.spec import MatchResult


def deal_line(d: DealRecord) -> str:
    if d.declarer is None:
        head = f"deal {d.deal_number:>3}  dealer {d.dealer}  no declarer"
    else:
        head = (f"deal {d.deal_number:>3}  dealer {d.dealer}  declarer {d.declarer}  bid {d.bid}"
                f"  contract {d.contract}  {'made' if d.made else 'FAILED'}")
    notes = f"  ({', '.join(d.notes)})" if d.notes else ""
    return f"{head}  changes {list(d.changes)}  totals {list(d.totals)}{notes}"


def result_lines(result: MatchResult) -> Iterator[str]:
    for d in result.deals:
        yield deal_line(d)
    yield ""
    yield f"match {result.match_id}  seed {result.seed}  {result.reason}  {result.duration:.1f}s"
    for s in sorted(result.seats, key=lambda s: (s.place, s.seat)):
        faults = ", ".join(f"{k} {n}" for k, n in s.faults if n) or "no faults"
        avg = s.time_total / s.decisions if s.decisions else 0.0
        cpu = "" if s.cpu_total is None or s.cpu_max is None or not s.decisions else (
            f" (CPU avg {s.cpu_total / s.decisions * 1000:.1f} ms, max {s.cpu_max * 1000:.1f} ms)")
        yield (f"  {s.place}. seat {s.seat} {s.bot}@{s.version}: {s.total}  [{s.status}]  "
               f"{s.decisions} decisions, avg {avg * 1000:.1f} ms, max {s.time_max * 1000:.1f} ms"
               f"{cpu}; {faults}; sandbox {s.sandbox}, {_pause_text(s.pause)}")
        for line in s.fault_log:
            yield f"       fault: {line}"
    note = mixed_levels_note(result)
    if note:
        yield note
    if result.replay_path:
        yield f"replay: {result.replay_path}"


def _pause_text(mechanism: str) -> str:
    """How a seat was kept from pondering (arena/referee/pondering.py)."""
    if mechanism == "off":
        return "pondering allowed"
    if mechanism == "none":
        return "could not be paused"
    return f"paused by {mechanism}"


def mixed_levels_note(result: MatchResult) -> str:
    """A warning when process-level bots played beside confined ones
    (MatchResult.sandbox_warning; docs/sandbox.md)."""
    return result.sandbox_warning


def _sees_notes(viewer: int | None, faulty: int) -> bool:
    """Whether `viewer` (None: all seats) may read `faulty`'s fault notes. A
    note can name that seat's legal actions, hence its cards: another seat's
    view gets only the fault's kind."""
    return viewer is None or viewer == faulty


def _shown(rec: dict[str, Any], viewer: int | None, after_obs: dict[str, Any] | None,
           deal_number: int) -> str:
    """The action text as `viewer` may see it: the referee's own event for
    that seat (arena.referee.events.action_event, from its observation after
    the action), as the seat's stream told it."""
    text = str(rec["action"])
    if viewer is None or viewer == rec["seat"] or after_obs is None:
        return text
    event = action_event(int(rec["seat"]), parse_action(text), viewer, after_obs, deal_number)
    return event.text.split(": ", 1)[-1]


def replay_lines(replay: Replay, seat: int | None) -> Iterator[str]:
    """The match told line by line from `seat`'s view (None: all seats).
    The whole replay is re-played before the first line: a damaged file is
    one ReplayError, with nothing printed before it."""
    states = list(replay_states(replay))
    h = replay.header
    n = len(h.get("bots", ()))
    bots = ", ".join(f"{b['seat']}: {b['name']}@{b['version']}" for b in h.get("bots", ()))
    # The seed deals every hand of the match: a seat's view withholds it.
    seed = h.get("seed") if seat is None else "(withheld in a seat's view)"
    yield f"match {h.get('match_id')}  seed {seed}  rules {h['rules'].get('preset')}  [{bots}]"
    yield f"view: {'all seats' if seat is None else f'seat {seat}'}"
    deals = {int(d["deal_number"]): d for d in replay.deals}
    viewers = list(range(n)) if seat is None else [seat]
    current: int | None = None
    talon_shown: list[str] = []
    looked: dict[int, bool] = {}  # per viewer: its hand has been shown this deal
    redealt = False  # the last action was an accepted redeal: new cards, same deal number
    phase = ""
    told = 0  # auction entries of this deal told so far
    for i, (game, rec) in enumerate(states):
        obs = {v: game.observation(v).to_dict() for v in viewers}
        first = obs[viewers[0]]
        number = int(first["deal_number"])
        if phase == "exchange" and first.get("phase") != "exchange" and number == current \
                and not redealt:  # (an exchange that ends the deal shows the next deal's hand)
            for v, o in obs.items():
                yield from _after_exchange(v, o)
        phase = str(first.get("phase"))
        if number != current or redealt:
            if number != current and current is not None and current in deals:
                yield _deal_result(deals[current])
            current = number
            talon_shown = []
            told = 0
            yield ""
            yield f"== deal {number}, dealer {first.get('dealer')}{' (redealt)' if redealt else ''}"
            for v, o in obs.items():
                looked[v] = bool(o.get("hand"))
                yield f"   seat {v} hand: {' '.join(o.get('hand') or ()) or '(not seen)'}"
            redealt = False
        for v, o in obs.items():
            if not looked[v] and o.get("hand"):  # a blind seat has looked at its cards
                looked[v] = True
                yield f"   seat {v} hand: {' '.join(o['hand'])}"
        # The talon as soon as a viewer knows it (the declarer's view when showing all).
        talon = next((list(o["talon"]) for o in obs.values() if o.get("talon")), [])
        if talon and talon != talon_shown:
            talon_shown = talon
            yield f"   talon: {' '.join(talon)}"
        # Entries the engine made itself: the compulsory opening 100 (docs/rules.md
        # §2) is in the auction before any seat acts; without this line a
        # deal seemed to start with the second seat's pass.
        auction = first.get("auction") or []
        for entry in auction[told:]:
            yield f"   seat {entry['seat']}: {entry['action']}  (compulsory opening)"
        told = len(auction)
        if rec is None:
            break
        nxt = states[i + 1][0].observation(viewers[0]).to_dict().get("auction") or []
        if len(nxt) == len(auction) + 1 and nxt[-1]["seat"] == rec["seat"]:
            told += 1  # this seat's bid or pass: told on its own line below
        if seat is not None and seat != rec["seat"] and game.private_offer and rec["action"] == "pass":
            continue  # another seat's answer to a private offer (docs/rules.md#hidden-information)
        after = states[i + 1][0].observation(seat).to_dict() if seat is not None else None
        fault = "" if not rec.get("fault") else (
            f"   [fault: {rec['fault']}: {rec.get('note', '')}]" if _sees_notes(seat, rec["seat"])
            else f"   [fault: {rec['fault']}]")
        yield f"   seat {rec['seat']}: {_shown(rec, seat, after, number)}{_took(rec)}{fault}"
        action = parse_action(str(rec["action"]))
        redealt = isinstance(action, Redeal)
        if seat is not None and isinstance(action, Pick) and after is not None:
            # The guesses lay face down until now (docs/rules.md#table-sizes).
            guesses = (after.get("lottery") or {}).get("guesses") or ()
            yield "      guesses: " + ", ".join(f"seat {g['seat']} {g['color']}" for g in guesses)
        trick = completed_trick(first, int(rec["seat"]), action)
        if trick is not None:
            points = sum(c.rank.points for _, c in trick[0])
            yield f"      trick to seat {trick[1]} ({points} points)"
    if current is not None and current in deals:
        yield _deal_result(deals[current])
    yield ""
    if replay.result is not None:
        r = replay.result
        yield f"result: totals {r.get('totals')}  places {r.get('places')}  statuses {r.get('statuses')}"
        # Why a seat forfeited or was penalized.
        for who, lines in enumerate(r.get("fault_log") or ()):
            if _sees_notes(seat, who):
                for line in lines or ():
                    yield f"   seat {who} fault: {line}"
        for ref in replay.refused:
            where = f" on seat {ref['seat']}'s socket" if ref.get("seat") is not None else ""
            yield f"   refused{where}: {ref.get('reason')}"
    else:
        yield "no result: the replay ends here (the match did not finish, or the file was cut short)"


def _took(rec: dict[str, Any]) -> str:
    """The decision's time on the referee's clock, and the bot's CPU time
    for it, as the replay records them ("" for a record without a time)."""
    if rec.get("time") is None:
        return ""
    seconds = float(rec["time"])
    wall = f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"
    cpu = rec.get("cpu")  # the bot's CPU time for it, where its sandbox had a clock
    return f"  ({wall}, CPU {float(cpu) * 1000:.1f} ms)" if cpu is not None else f"  ({wall})"


def _after_exchange(v: int, o: dict[str, Any]) -> Iterator[str]:
    """Seat v's hand once the exchange is over, with the cards it gave and
    was given (from its own observation: a card given face down between two
    other seats is not in it)."""
    gave = [f"{g['card']} to {g['to_seat']}" for g in o.get("given") or ()
            if g.get("from_seat") == v and g.get("card")]
    got = [f"{g['card']} from {g['from_seat']}" for g in o.get("given") or ()
           if g.get("to_seat") == v and g.get("card")]
    what = "; ".join(part for part in (
        f"gave {', '.join(gave)}" if gave else "", f"received {', '.join(got)}" if got else "")
        if part)
    hand = " ".join(o.get("hand") or ()) or "(not seen)"
    yield f"   seat {v} hand after the exchange: {hand}{f'  ({what})' if what else ''}"


def _deal_result(d: dict[str, Any]) -> str:
    fields: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v)
                              for k, v in d.items() if k != "type"}
    return "   => " + deal_line(DealRecord(**fields))
