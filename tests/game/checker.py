"""Random-play conformance checker: plays a whole game with seeded random
choices and checks, at every step, the invariants every preset must keep
(issue 2, "Random-play conformance")."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from arena.game import IllegalActionError, new_game
from arena.game.actions import Discard, Play, sort_key
from arena.game.cards import Card

from .helpers import Game, random_choice
from .oracle import POINTS, candidate_actions, trick_winner

MAX_STEPS = 200_000  # far above any real game (max_deals 200 x ~40 decisions)


def snapshot(g: Game) -> str:
    """Everything observable about a state, as one string."""
    seats = len(g.totals)
    return json.dumps(
        {
            "obs": [g.observation(s).to_dict() for s in range(seats)],
            "legal": [str(a) for a in g.legal_actions()],
            "to_act": g.to_act,
            "totals": list(g.totals),
            "deals": len(g.deals),
            "over": g.is_over,
        },
        sort_keys=True,
    )


@dataclass
class DealTally:
    plays: list[tuple[int, Card]] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    won: dict[int, int] = field(default_factory=dict)
    tricks: int = 0


@dataclass
class Report:
    deals: int = 0
    played_deals: int = 0
    steps: int = 0
    illegal_checked: int = 0
    tricks_checked: int = 0


class Checker:
    """Plays one game; raises AssertionError naming the first broken invariant."""

    def __init__(self, rules: Any, seed: int, *, illegal_per_step: int = 2,
                 snapshot_every: int = 11, **new_game_kwargs: object) -> None:
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed * 104729 + 17)
        self.illegal_per_step = illegal_per_step
        self.snapshot_every = snapshot_every
        self.kwargs = new_game_kwargs
        self.candidates = candidate_actions()
        self.report = Report()
        self.actions: list[Any] = []

    def where(self, g: Game) -> str:
        return f"seed {self.seed}, step {self.report.steps}, deal {len(g.deals) + 1}"

    def run(self) -> Game:
        g = new_game(self.rules, seed=self.seed, **self.kwargs)
        start_totals = list(g.totals)
        self.start_totals = start_totals
        tally = DealTally()
        while not g.is_over:
            assert self.report.steps < MAX_STEPS, f"game does not end ({self.where(g)})"
            legal = g.legal_actions()
            assert legal, f"no legal action before the end ({self.where(g)})"
            assert g.to_act is not None, f"nobody to act before the end ({self.where(g)})"
            keys = [sort_key(a) for a in legal]
            assert keys == sorted(keys), f"legal actions not in sorted order ({self.where(g)}): {legal}"
            assert len(set(legal)) == len(legal), f"duplicate legal actions ({self.where(g)})"
            self.check_illegal(g, legal)
            action = random_choice(g, self.rng)
            before = snapshot(g) if self.report.steps % self.snapshot_every == 0 else None
            pre = g
            g = g.apply(action)
            if before is not None:
                assert snapshot(pre) == before, f"apply mutated the old state ({self.where(pre)})"
            self.actions.append(action)
            self.report.steps += 1
            tally = self.track(pre, action, g, tally)
        assert g.to_act is None and tuple(g.legal_actions()) == (), "a finished game offers actions"
        for cand in self.candidates[:3]:
            try:
                g.apply(cand)
            except IllegalActionError:
                continue
            raise AssertionError(f"{cand} accepted after the end of the game")
        self.check_end(g, start_totals)
        return g

    def check_illegal(self, g: Game, legal: tuple[Any, ...]) -> None:
        allowed = set(legal)
        tried = 0
        while tried < self.illegal_per_step:
            cand = self.rng.choice(self.candidates)
            if cand in allowed:
                continue
            tried += 1
            try:
                g.apply(cand)
            except IllegalActionError:
                self.report.illegal_checked += 1
            else:
                raise AssertionError(f"illegal {cand} accepted ({self.where(g)}); legal: {legal}")

    def track(self, pre: Game, action: Any, post: Game, tally: DealTally) -> DealTally:
        seat = pre.to_act
        if isinstance(action, Discard):
            tally.discards.extend(action.cards)
        if isinstance(action, Play):
            o = pre.observation(seat)  # read-only attribute access: cheaper than to_dict()
            trick = [(int(t["seat"]), Card.parse(t["card"])) for t in o.trick]
            trick.append((seat, action.card))
            tally.plays.append((seat, action.card))
            if len(trick) == len(o.active_seats) and len(o.active_seats) > 0:
                # the trick is complete: check its winner against docs/rules.md#core
                winner = trick_winner(trick, o.trump) if len(trick) > 1 else seat
                pts = sum(POINTS[c] for _, c in trick)
                tally.won[winner] = tally.won.get(winner, 0) + pts
                tally.tricks += 1
                if len(post.deals) == len(pre.deals):
                    after = post.observation(seat)
                    if after.tricks:
                        got = after.tricks[-1]
                        assert int(got["winner"]) == winner, (
                            f"trick {[str(c) for _, c in trick]} trump {o.trump!r}: engine says "
                            f"seat {got['winner']} won, docs/rules.md#core says {winner} ({self.where(pre)})"
                        )
                        self.report.tricks_checked += 1
        if len(post.deals) > len(pre.deals):
            self.check_deal(pre, post, tally)
            return DealTally()
        return tally

    def check_deal(self, pre: Game, post: Game, tally: DealTally) -> None:
        # One action may close several records: the deal just played and then,
        # e.g., a Finnish redeal penalty when the next deal is redealt twice
        # by itself (compulsory four 9s).
        prev = list(pre.deals[-1].totals) if pre.deals else self.start_totals
        for i, rec in enumerate(post.deals[len(pre.deals):]):
            self.report.deals += 1
            moved = [p + c for p, c in zip(prev, rec.changes, strict=True)]
            assert moved == list(rec.totals), (
                f"totals {list(rec.totals)} != previous {prev} + changes {list(rec.changes)} "
                f"({self.where(pre)})"
            )
            prev = list(rec.totals)
            if i > 0:
                assert rec.declarer is None, f"a second record in one step was played: {rec}"
        assert list(post.totals) == prev, "state totals differ from the last deal record"
        if not tally.plays:
            return
        self.report.played_deals += 1
        cards = [c for _, c in tally.plays] + tally.discards
        assert len(set(cards)) == len(cards), f"a card was played twice in a deal ({self.where(pre)})"
        players = len(post.totals)
        if players != 2 or len(cards) == 24:
            assert len(cards) == 24, f"{len(cards)} cards played+discarded, not 24 ({self.where(pre)})"
            assert sum(POINTS[c] for c in cards) == 120
            assert sum(tally.won.values()) + sum(POINTS[c] for c in tally.discards) == 120

    def check_end(self, g: Game, start_totals: list[int]) -> None:
        seats = len(g.totals)
        places = [s for place in g.finish for s in place]
        assert sorted(places) == list(range(seats)), f"finish {g.finish} does not rank every seat once"
        totals = list(g.totals)
        for place in g.finish:
            assert len({totals[s] for s in place}) == 1, f"tied seats with different totals: {g.finish} {totals}"
        later = [totals[p[0]] for p in g.finish[1:]]
        assert later == sorted(later, reverse=True), f"finish {g.finish} not by total {totals}"
        sums = [start_totals[s] + sum(d.changes[s] for d in g.deals) for s in range(seats)]
        assert sums == totals, f"totals {totals} != start + sum of changes {sums}"
