"""What a finished deal is worth to one seat: the totals it leaves (RULES.md
§1 Deal score, End; §2 rounding, bolts; §3 barrels), then a value of that
position that knows the target, the barrels and bolts.

The search bot scores thousands of simulated deals per decision, so this is
its own small copy of the scoring rules, read from the rules and the
public observation only; tests compare it with the engine's results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.game import Card, Rules

WIN = 1000.0          # the value of finishing first; the others lose it
# Second place is worth no more than third: the bot plays for first place
# only. Measured (benchmarks/strength.py, paired standard games against two
# greedy bots, docs/bots.md): -600 for second finished first less often.
SECOND = -1000.0
# Before the end, how much of the lead is counted over the leading other
# seat rather than over the mean of the others (percent).
LEADER_PERCENT = 0


def round_score(value: int, mode: str) -> int:
    """An opponent's deal score rounded (RULES.md §2 rounding)."""
    if mode == "ten_half_down":
        r = value % 10
        return value - r if r <= 5 else value - r + 10
    r = value % 5
    return value - r if r < 2.5 else value - r + 5


def lottery_changes(obs: Mapping[str, Any], n: int) -> list[int]:
    """What a Finnish lottery picked in this deal adds to each seat at the
    deal's end (RULES.md §4: nobody right, the organiser 100; one right,
    that guesser 100; both, 50 each); zeros without one."""
    out = [0] * n
    lottery = obs.get("lottery")
    if not lottery or not lottery["picked"]:
        return out
    colour = "red" if lottery["picked"][-1] in "DH" else "black"
    right = [int(g["seat"]) for g in lottery["guesses"] if g["color"] == colour]
    if not right:
        out[int(lottery["organiser"])] += 100
    for s in right:
        out[s] += 100 // len(right)
    return out


class Scorer:
    """Deal outcomes -> the seat's value, for one decision's observation."""

    def __init__(self, rules: Rules, obs: Mapping[str, Any]) -> None:
        self.rules = rules
        self.me = int(obs["seat"])
        self.n = int(obs["players"])
        self.active = [int(s) for s in obs["active_seats"]]
        self.totals = [int(t) for t in obs["totals"]]
        states = obs["seat_states"] or []
        self.bolts = [int(s["bolts"]) for s in states] or [0] * self.n
        self.barrel_seat = next((int(s["seat"]) for s in states if s["on_barrel"]), None)
        self.barrel_deals = next((int(s["barrel_deals"]) for s in states if s["on_barrel"]), 0)
        self.blind_seat = next((int(s["seat"]) for s in states if s["blind"]), None)
        self.pre = lottery_changes(obs, self.n)
        # RULES.md §4 Finnish: a sitting dealer gains the talon's card points
        # (as far as this seat has seen the talon).
        if self.n == 4 and rules.dealer_talon_points:
            dealer = int(obs["dealer"])
            self.pre[dealer] += sum(Card.parse(c).points for c in obs["talon"] or [])

    def _with_pre(self, ch: list[int], declarer: int, made: bool) -> list[int]:
        """The lottery's gains join the deal's changes (arena.game settles them
        together); under the lock a failed declarer keeps none of its own."""
        out = [c + p for c, p in zip(ch, self.pre, strict=True)]
        r = self.rules
        if (not made and self.pre[declarer] > 0 and r.barrel == "lock"
                and self.totals[declarer] >= r.threshold):
            out[declarer] -= self.pre[declarer]
        return out

    # ------------------------------------------------------------ one deal

    def changes(self, declarer: int, contract: int, scores: Sequence[int], cards: Sequence[int],
                tricks: Sequence[int], blind: bool = False) -> tuple[list[int], bool, list[int]]:
        """(new totals, made, bolts after) for a played deal: `scores` are
        card points + marriages per seat, `cards` the card points alone."""
        r = self.rules
        d = declarer
        made = scores[d] >= contract
        czech = blind and (r.blind == "czech" or r.golden_horse)
        mult = 2 if blind else 1
        ch = [0] * self.n
        ch[d] = contract * mult if made else -contract * mult
        for s in self.active:
            if s != d:
                ch[s] = round_score(cards[s] * (2 if czech else 1) + (scores[s] - cards[s]),
                                    r.rounding)
        bolted = [s for s in self.active if s != d and tricks[s] == 0] if r.bolts else []
        return self._settle(d, contract, made, self._with_pre(ch, d, made), bolted,
                            2 if czech else 1)

    def conceded(self, declarer: int, bid: int) -> list[int]:
        """New totals when the declarer concedes (RULES.md §3 bombs)."""
        r = self.rules
        ch = [0] * self.n
        if r.bomb == "finnish":
            gift = 60
        else:
            ch[declarer] = -bid
            gift = round_score(bid // 2, r.rounding) if bid % 2 == 0 else round_score(
                (bid + 1) // 2, r.rounding)
        for s in self.active:
            if s != declarer:
                ch[s] = gift
        return self._settle(declarer, bid, False, self._with_pre(ch, declarer, False), [], 1)[0]

    def _settle(self, d: int, contract: int, made: bool, ch: list[int], bolted: list[int],
                weight: int) -> tuple[list[int], bool, list[int]]:
        r = self.rules
        old = self.totals
        thr = r.threshold
        for s in range(self.n):
            if s != d and ch[s] > 0:
                if (r.barrel == "lock" and old[s] >= thr) or (r.barrel == "sud" and self.barrel_seat == s):
                    ch[s] = 0
                elif r.barrel_cap:
                    ch[s] = max(0, min(ch[s], r.target - 10 - old[s]))
        if ch[d] > 0 and r.barrel == "sud" and self.barrel_seat == d and contract < 120:
            ch[d] = 0
        bolts = list(self.bolts)
        for s in bolted:
            before = bolts[s]
            bolts[s] += weight
            ch[s] -= 120 * (bolts[s] // 3 - before // 3)
        new = [old[s] + ch[s] for s in range(self.n)]
        if r.barrel == "sud":
            self._sud(d, contract, made, new)
        return new, made, bolts

    def _sud(self, d: int, contract: int, made: bool, new: list[int]) -> None:
        thr = self.rules.threshold
        sitter = self.barrel_seat
        won = sitter is not None and sitter == d and made and contract >= 120
        if won:
            sitter = None
        winner = d if won else None
        newly = [s for s in range(self.n) if s != sitter and s != winner and new[s] >= thr]
        if len(newly) >= 2:
            for s in newly:
                new[s] = thr - 120
        elif len(newly) == 1:
            new[newly[0]] = thr
            if sitter is not None and new[sitter] >= thr:
                new[sitter] -= 120
        elif sitter is not None and new[sitter] >= thr and self.barrel_deals + 1 >= 3:
            new[sitter] -= 120

    # ------------------------------------------------------------ the position

    def value(self, new: Sequence[int], made: bool, declarer: int | None,
              bolts: Sequence[int] | None = None) -> float:
        """The seat's value of the totals after a deal: a finished game is
        won or lost; otherwise its lead over the others, the totals near the
        target weighing more (the end is near), a bolt a third of its fine."""
        r = self.rules
        me = self.me
        if any(t >= r.target for t in new):
            first = declarer if (declarer is not None and made and new[declarer] >= r.target) else None
            if first is None:
                first = max(range(self.n), key=lambda s: (new[s], s == me))
            if first == me:
                return WIN
            ahead = sum(1 for s in range(self.n) if s != me and new[s] > new[me])
            return SECOND if ahead <= 1 else -WIN
        others = [s for s in self.active if s != me] or [s for s in range(self.n) if s != me]
        worths = [self._worth(new[s]) for s in others]
        w = LEADER_PERCENT / 100
        v = self._worth(new[me]) - (1 - w) * sum(worths) / len(worths) - w * max(worths)
        if bolts is not None and r.bolts:
            v -= 40 * ((bolts[me] % 3) - (self.bolts[me] % 3))
        return v

    def _worth(self, total: int) -> float:
        near = total - 0.6 * self.rules.target
        return total + (0.5 * near if near > 0 else 0.0)
