"""An in-process stand-in for the referee, with the same signature as
`arena.referee.run_match`, for fast tests of the tournament machinery.

A bot's strength comes from its bot.toml description ("strength 3"); the
seed gives each seat some card luck, the same for every seat order of a
duplicate set. "fail" in the description makes the runner raise;
"sleep 0.2" makes each match take that long (to kill a runner mid-way).
"""

from __future__ import annotations

import hashlib
import re
import time

from arena.referee.spec import FAULT_KINDS, DealSummary, MatchResult, MatchSpec, SeatResult


def _number(text: str, word: str, default: float) -> float:
    m = re.search(rf"{word}\s+(-?[0-9.]+)", text)
    return float(m.group(1)) if m else default


def _luck(seed: int, seat: int) -> int:
    digest = hashlib.sha256(f"{seed}:{seat}".encode()).digest()
    return digest[0] % 100  # 0..99: card luck of a seat's hand for this deal seed


def fake_run_match(spec: MatchSpec) -> MatchResult:
    for bot in spec.bots:
        if "fail" in bot.description:
            raise RuntimeError(f"cannot start {bot.name}")
    delay = max(_number(b.description, "sleep", 0.0) for b in spec.bots)
    if delay:
        time.sleep(delay)
    totals = [int(_number(b.description, "strength", 0) * 40) + _luck(spec.seed, seat)
              for seat, b in enumerate(spec.bots)]
    order = sorted(set(totals), reverse=True)
    places = [1 + sum(1 for t in totals if t > mine) for mine in totals]
    seats = tuple(
        SeatResult(seat=i, bot=b.name, version=b.version, total=totals[i], place=places[i],
                   status="ok", decisions=10, time_total=0.01, time_max=0.001,
                   faults=tuple((k, 1 if (k == "timeout" and "slowpoke" in b.description) else 0)
                                for k in FAULT_KINDS), sandbox="process")
        for i, b in enumerate(spec.bots))
    declarer = max(range(3), key=lambda i: (totals[i], -i))
    deals = (DealSummary(deal_number=1, dealer=0, declarer=declarer, bid=100, contract=100,
                         made=totals[declarer] >= 100, deal_scores=tuple(totals),
                         changes=tuple(totals), totals=tuple(totals)),)
    finish = tuple(tuple(i for i in range(3) if totals[i] == t) for t in order)
    return MatchResult(match_id=spec.match_id, seed=spec.seed, seats=seats, deals=deals,
                       finish=finish, duration=0.0, replay_path=spec.replay_path)
