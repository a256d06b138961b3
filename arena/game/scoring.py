"""Deal scores, total changes and the end of the game (docs/rules.md#core Deal
score, End; §2 rounding, bolts, samosval; §3 barrels, bombs, blind, golden
horse; §4 sitting dealer, lottery)."""

from __future__ import annotations

from arena.game.core import GAME_OVER, Core, put
from arena.game.records import DealRecord
from arena.game.rules import Rules


def round_score(value: int, mode: str) -> int:
    """Round an opponent's deal score (docs/rules.md#options rounding)."""
    return round_twice(2 * value, mode)


def round_twice(x2: int, mode: str) -> int:
    """Round the value x2/2 (halves occur for the Czech bomb's half bid).
    ten_half_down: last digit 0-5 down, above 5 up; five_nearest: nearest 5,
    an exact half (x.5 above a multiple of 2.5) rounds up."""
    if mode == "ten_half_down":
        r = x2 % 20
        base = (x2 - r) // 2
        return base if r <= 10 else base + 10
    r = x2 % 10
    base = (x2 - r) // 2
    return base if r < 5 else base + 5


def _czech_blind(c: Core) -> bool:
    """Czech blind / golden horse declarer: opponents' card points and bolts double."""
    return c.blind_seat is not None and c.blind_seat == c.declarer and (
        c.rules.blind == "czech" or c.horse_left > 0)


def end_of_play(c: Core) -> None:
    r = c.rules
    n = c.n
    d = c.declarer
    assert d is not None and c.contract is not None
    scores = [c.points_won[s] + c.bonus[s] for s in range(n)]
    scores[d] += sum(x.points for x in c.discarded)  # docs/rules.md#options discard: they count for the declarer
    made = scores[d] >= c.contract
    czech = _czech_blind(c)
    mult = 2 if c.blind_seat == d else 1
    changes = [0] * n
    changes[d] = c.contract * mult if made else -c.contract * mult
    for s in c.active:
        if s != d:
            cards = c.points_won[s] * (2 if czech else 1)
            changes[s] = round_score(cards + c.bonus[s], r.rounding)
    if n == 4 and r.dealer_talon_points:
        # docs/rules.md#table-sizes Finnish: the sitting dealer gains the talon's card points,
        # as they are: rounding (§2) is for opponents' deal scores only.
        talon_points = sum(x.points for x in c.dealt_talon)
        scores[c.dealer] = talon_points
        changes[c.dealer] = talon_points
    bolted: tuple[int, ...] = ()
    if r.bolts:
        bolted = tuple(s for s in c.active if s != d and c.tricks_won[s] == 0)
    settle(c, changes, scores, made, [], bolted, 2 if czech else 1)


def concede(c: Core) -> None:
    r = c.rules
    d = c.declarer
    assert d is not None and c.bid is not None
    n = c.n
    changes = [0] * n
    notes: list[str] = []
    opp = [s for s in c.active if s != d]
    if c.blind_seat == d and _czech_blind(c):
        # docs/rules.md#option-details golden horse (and, by analogy, Czech blind): -240, +120 each.
        changes[d] = -2 * c.bid
        gift = c.bid
        notes.append("blind_concede")
    elif c.blind_seat == d:
        gift = 120  # docs/rules.md#option-details Finnish blind: refusing gives each opponent 120
        notes.append("blind_concede")
    elif r.bomb == "finnish":
        gift = 60
        c.bombs_used = tuple(b + (1 if s == d else 0) for s, b in enumerate(c.bombs_used))
        notes.append("bomb")
    else:
        changes[d] = -c.bid
        gift = round_twice(c.bid, r.rounding)  # half the bid, rounded
        notes.append("bomb")
    for s in opp:
        changes[s] = gift
    c.contract = c.bid
    settle(c, changes, [0] * n, False, notes, (), 1)


def redeal_penalty(c: Core, penalty: int) -> None:
    """docs/rules.md#option-details Finnish: the second redeal in a row costs the dealer."""
    changes = [0] * c.n
    changes[c.dealer] = -penalty
    c.declarer = None
    c.bid = c.contract = None
    c.blind_seat = None
    settle(c, changes, [0] * c.n, False, ["redeal_penalty"], (), 1, next_deal=False)


def locked(rules: Rules, total: int) -> bool:
    """docs/rules.md#option-details lock: a seat with this total gains only as a
    declarer that makes its contract (public: the pages mark such a seat)."""
    return rules.barrel == "lock" and total >= rules.threshold


def _locked(c: Core, seat: int) -> bool:
    """docs/rules.md#option-details lock: the seat's total before the deal is at or above the threshold."""
    return locked(c.rules, c.totals[seat])


def _filter_gain(c: Core, seat: int, gain: int) -> int:
    """What a non-declarer keeps of a gain (docs/rules.md#option-details barrels)."""
    r = c.rules
    total = c.totals[seat]
    if _locked(c, seat):
        return 0
    if r.barrel == "sud" and c.barrel_seat == seat:
        return 0
    if r.barrel_cap:
        gain = max(0, min(gain, r.target - 10 - total))
    return gain


def settle(
    c: Core, changes: list[int], scores: list[int], made: bool, notes: list[str],
    bolted: tuple[int, ...], bolt_weight: int, next_deal: bool = True,
) -> None:
    r = c.rules
    n = c.n
    d = c.declarer
    old = c.totals
    pre = c.pre_changes
    if d is not None and not made and pre[d] > 0 and _locked(c, d):
        # docs/rules.md#option-details lock: a locked seat gains only as a declarer that makes its
        # contract, so a failed (or conceding) declarer keeps no lottery win.
        pre = put(pre, d, 0)
    changes = [changes[s] + pre[s] for s in range(n)]
    for s in range(n):
        if s != d and changes[s] > 0:
            changes[s] = _filter_gain(c, s, changes[s])
    if (d is not None and changes[d] > 0 and r.barrel == "sud" and c.barrel_seat == d
            and (c.contract or 0) < 120):
        changes[d] = 0  # docs/rules.md#option-details sud: amounts under 120 are not recorded
    if bolted:
        bolts = list(c.bolts)
        for s in bolted:
            before = bolts[s]
            bolts[s] += bolt_weight
            fines = bolts[s] // 3 - before // 3
            changes[s] -= 120 * fines
            notes.append(f"bolt {s}")
            if fines:
                notes.append(f"bolt_penalty {s}")
        c.bolts = tuple(bolts)
    new = [old[s] + changes[s] for s in range(n)]
    if r.barrel == "sud":
        _sud(c, old, new, notes, made)
    if r.samosval:
        for s in range(n):
            if new[s] in (555, -555):
                new[s] = 0
                notes.append(f"samosval {s}")
    if c.horse_left:
        if made:
            c.horse_made = True
        c.horse_left -= 1
        notes.append("golden_horse")
        if c.horse_left == 0 and not c.horse_made:
            new = [0] * n  # docs/rules.md#option-details: nobody made 120 in the three deals
            # The normal game starts afresh: nobody sits on a barrel at 0.
            c.barrel_seat = None
            c.barrel_deals = 0
            notes.append("golden_horse_reset")
    record = DealRecord(
        deal_number=c.deal_number, dealer=c.dealer, declarer=d, bid=c.bid or 0,
        contract=c.contract or 0, made=made, deal_scores=tuple(scores),
        changes=tuple(new[s] - old[s] for s in range(n)), totals=tuple(new),
        redeals=c.redeals, notes=tuple(list(c.notes) + notes),
    )
    c.totals = tuple(new)
    c.deals = c.deals + (record,)
    if _check_end(c, record) or not next_deal:
        return
    # Started by the dispatcher (state.py), which sits above every phase:
    # the end of a deal does not call back into the deal's start (flow.py).
    c.next_deal = True


def _sud(c: Core, old: tuple[int, ...], new: list[int], notes: list[str], made: bool) -> None:
    """docs/rules.md#option-details barrel `sud`: sit at the threshold, three attempts, one sitter."""
    thr = c.rules.threshold
    sitter = c.barrel_seat
    d = c.declarer
    won = sitter is not None and sitter == d and made and (c.contract or 0) >= 120
    if won:
        c.barrel_seat = None
        c.barrel_deals = 0
        sitter = None
    winner = d if won else None
    newly = [s for s in range(c.n) if s != sitter and s != winner and new[s] >= thr]
    if len(newly) >= 2:
        for s in newly:
            new[s] = thr - 120
            notes.append(f"barrel_bump {s}")
    elif len(newly) == 1:
        s = newly[0]
        new[s] = thr
        notes.append(f"barrel {s}")
        if sitter is not None and new[sitter] >= thr:
            # Only a player still sitting is bumped; one that fell off this deal is not.
            new[sitter] -= 120
            notes.append(f"barrel_bump {sitter}")
        c.barrel_seat = s
        c.barrel_deals = 0
        return
    if sitter is not None and c.barrel_seat == sitter:
        if new[sitter] < thr:
            c.barrel_seat = None
            c.barrel_deals = 0
        else:
            c.barrel_deals += 1
            if c.barrel_deals >= 3:
                new[sitter] -= 120
                c.barrel_seat = None
                c.barrel_deals = 0
                notes.append(f"barrel_fall {sitter}")


def _check_end(c: Core, record: DealRecord) -> bool:
    r = c.rules
    totals = c.totals
    if not (any(t >= r.target for t in totals) or len(c.deals) >= r.max_deals):
        return False
    c.over = True
    c.phase = GAME_OVER
    c.to_act = None
    d = record.declarer
    first = d if (d is not None and record.made and totals[d] >= r.target) else None
    c.finish = ranking(totals, first)
    return True


def ranking(totals: tuple[int, ...], first: int | None) -> tuple[tuple[int, ...], ...]:
    """Places best first; equal totals share a place (docs/rules.md#core End)."""
    out: list[tuple[int, ...]] = []
    if first is not None:
        out.append((first,))
    rest = sorted((s for s in range(len(totals)) if s != first), key=lambda s: (-totals[s], s))
    for s in rest:
        if out and out[-1][0] != first and totals[out[-1][0]] == totals[s]:
            out[-1] = out[-1] + (s,)
        else:
            out.append((s,))
    return tuple(out)
