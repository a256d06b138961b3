"""The game loop of a match: ask the seat to act, apply its action, tell
every seat what it may know of it (events.py), record it (replay.py).

    loop = GameLoop(rules, seed, seats, policy=spec.fault_policy)
    final = await loop.play()          # the engine's GameState at the end
    loop.deals                         # the engine's DealRecord of each finished deal

`GameLoop` plays over any seats (seats.Seat): the match (match.py) hands it
seats whose streams are gRPC streams to bot processes; memory.py's seats
answer in this process (tests, benchmarks/referee_work.py). Connections,
processes, the match start and end and the result stay the match's.

Every seat's view is the engine's observation for that seat (arena.game),
never rebuilt here; events are derived from two such views (events.py).
A watcher of the table (`watch`: the lobby's spectators) is given the
engine's public view (`GameState.public_observation()`) at the start and
after every action, and nothing else of the state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from arena.game import Rules, new_game
from arena.game.actions import Action, Bid, Pass, Play
from arena.game.observation import Observation
from arena.game.records import DealRecord
from arena.referee.decide import Decider
from arena.referee.events import after_events, completed_trick, public_events, seat_events
from arena.referee.messages import broadcast_deal, deal_pb
from arena.referee.pondering import Pacer
from arena.referee.replay import ReplayWriter
from arena.referee.seats import Seat
from arena.referee.spec import FaultPolicy
from arena.wire import codec

log = logging.getLogger("arena.referee")

# What is told the public view of each position (GameLoop.watch).
Watch = Callable[[Observation], None]

# Actions whose text is public and that reveal nothing private to anyone.
_QUIET = (Bid, Pass, Play)


def _view(game: Any, seat: int) -> Mapping[str, Any]:
    """`seat`'s observation as a read-only mapping, without the defensive
    deep copy of `to_dict()` (the largest single copy per decision): the
    referee only reads it (arena/game/observation.py `as_mapping`)."""
    view: Mapping[str, Any] = game.observation(seat).as_mapping()
    return view



class GameLoop:
    """One game of `rules` on deal seed `seed`, played by `seats` (one per
    player, in seat order) from the first deal to the end.

    `policy` judges faults (spec.FaultPolicy), `pacer` pauses the seats that
    do not decide (pondering.py; default: none of them has a process to
    pause), `replay` records every action and deal (default: none kept).
    After `play`: `deals` holds each finished deal, `n_actions` the actions
    played."""

    def __init__(self, rules: Rules, seed: int, seats: Sequence[Seat], *,
                 policy: FaultPolicy | None = None, pacer: Pacer | None = None,
                 replay: ReplayWriter | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.seats = list(seats)
        self.pacer = pacer if pacer is not None else Pacer(self.seats, pondering=True)
        self.decider = Decider(policy if policy is not None else FaultPolicy(), self.pacer)
        self.replay = replay if replay is not None else ReplayWriter("")
        self.deals: list[DealRecord] = []
        self.n_actions = 0
        # Told the public view of the table at the start and after each
        # action (None: nobody watches, no view is built).
        self.watch: Watch | None = None

    def _tell_watch(self, game: Any) -> None:
        if self.watch is None:
            return
        try:
            self.watch(game.public_observation())
        except Exception as exc:  # noqa: BLE001 - a watcher's failure is not the match's
            log.warning("the table's watcher failed (%s); it is told nothing more", exc)
            self.watch = None

    async def decide(self, seat: Seat, obs: Mapping[str, Any] | None,
                     legal: Sequence[Action]) -> tuple[Action, str | None, str, float]:
        """One decision of `seat` (decide.py): (action, fault kind or None,
        fault line, seconds it took)."""
        return await self.decider.decide(seat, obs, legal, self.n_actions)

    def _observe(self, game: Any) -> list[Mapping[str, Any] | None]:
        return [_view(game, s.index) if s.playing else None for s in self.seats]

    def _observe_after(self, game: Any, action: Action, before: Mapping[str, Any] | None,
                       obs: list[Mapping[str, Any] | None]) -> tuple[list[Mapping[str, Any] | None], bool]:
        """Observations after `action`, and whether the action was quiet.
        Always fresh for the seat to act next. A quiet action (a bid, pass or
        play that leaves the deal and phase unchanged) tells no seat anything
        private (docs/rules.md#hidden-information: such actions are public), so the other seats'
        views are then not rebuilt: their events come from the public action
        alone, and what `events.after_events` compares (deal, talon) has not
        changed for anyone."""
        nxt = game.to_act
        if (nxt is not None and before is not None and self.seats[nxt].playing
                and isinstance(action, _QUIET)):
            probe = _view(game, nxt)
            if probe["phase"] == before["phase"] and probe["deal_number"] == before["deal_number"]:
                out = list(obs)
                out[nxt] = probe
                return out, True
        return self._observe(game), False

    def _announce_turn(self, game: Any, watchers: list[Seat]) -> None:
        """Tell every seat that asked for it (Hello.turn_notices) whose turn
        it is as its own observation shows it (the engine's, fresh: the loop's
        copy of it is not rebuilt after a quiet action), with that seat's
        per-move time and the watcher's pending events, so that a table drawn
        from the stream (a person's page) is current. Nothing is sent to the
        seat that acts, nor of a forfeited seat, whose default action takes
        no time.

        While a private offer is pending (docs/rules.md#hidden-information) the watcher's view is
        the game as if it were declined, so it names the turn that follows
        the offer: that notice goes out now, before the offer is put, and is
        not sent again when the offer is declined (its bytes would be the
        same: a declined offer tells the watcher nothing). Held back until the
        offer was answered, the notice's delay would be the offer's thinking
        time, zero where none was made. `watchers`: the seats that asked."""
        for s in watchers:
            if not s.playing:
                continue
            view = _view(game, s.index)
            named = view["to_act"]
            if named is None or named == s.index or not self.seats[named].playing:
                continue
            # Not its bank: answering a private offer adds to it.
            per_move = self.seats[named].time_control.per_move
            observation = s.encoder.encode(view).SerializeToString()
            told = codec.turn_message(named, view["phase"], view["deal_number"], per_move,
                                      (), observation)
            if not s.pending and told == s.last_turn:
                continue  # told already, before a private offer that was declined
            s.post(codec.turn_message(named, view["phase"], view["deal_number"], per_move,
                                      s.pending, observation) if s.pending else told)
            s.last_turn = told  # without its events: what a second notice would repeat
            s.pending.clear()

    async def play(self) -> Any:
        """Play the game to its end; the engine's final GameState."""
        game = new_game(self.rules, seed=self.seed)
        self._tell_watch(game)
        obs = self._observe(game)
        # Events wait in seat.pending and ride with the seat's next message
        # (DecisionRequest.events, or inside a DealResult / MatchEnd).
        for seat, o in zip(self.seats, obs, strict=True):
            if o is not None:
                seat.pending.extend(codec.event_field(after_events({}, o)))
        n_deals = 0
        # Seats that asked for Turn notices (their Hello came before the game):
        # none in a tournament of bots that do not ask, and then no cost.
        watchers = [s for s in self.seats if s.turn_notices]
        while not game.is_over:
            actor = game.to_act
            assert actor is not None  # a game that is not over has a seat to act
            legal = game.legal_actions()
            seat = self.seats[actor]
            # Fresh: computed when this seat became the one to act.
            before_obs = obs[actor] if seat.playing else None
            # Before the actor's request goes out (and its bot thaws): the
            # seats that asked hear of the turn as it starts.
            if watchers:
                self._announce_turn(game, watchers)
            action, fault, line, elapsed = await self.decider.decide(seat, before_obs, legal, self.n_actions)
            cpu = await self.pacer.answered(seat)
            # The trick's cards and winner are public facts, the same from any
            # seat's view: take them from the actor's view before the action.
            ref = before_obs
            if ref is None and isinstance(action, Play):
                ref = game.observation(actor).to_dict()
            trick = completed_trick(ref, actor, action) if ref is not None else None
            deal_number = game.observation(actor).deal_number if ref is None else ref["deal_number"]
            # Declining an offer made because of a hidden hand is private
            # (docs/rules.md#hidden-information): only the actor hears of its `pass`.
            private = isinstance(action, Pass) and game.private_offer
            game = game.apply(action)
            self._tell_watch(game)
            if self.replay.active:
                self.replay.write({
                    "type": "action", "n": self.n_actions, "deal": deal_number,
                    "seat": actor, "action": str(action), "time": round(elapsed, 6),
                    "cpu": None if cpu is None else round(cpu, 6), "fault": fault, "note": line,
                })
            self.n_actions += 1
            new_obs, quiet = self._observe_after(game, action, before_obs, obs)
            # Serialized once for every seat that sees the same events.
            shared = public_events(actor, action, deal_number, trick)
            shared_bytes = codec.event_field(shared) if shared is not None else None
            for s, before, after in zip(self.seats, obs, new_obs, strict=True):
                if (before is None or after is None or not s.playing
                        or (private and s.index != actor)):
                    continue
                s.pending.extend(shared_bytes if shared_bytes is not None else codec.event_field(
                    seat_events(before, after, s.index, actor, action, trick)))
            deals = game.deals
            while n_deals < len(deals):
                summary = deals[n_deals]
                n_deals += 1
                self.deals.append(summary)
                self.replay.write({"type": "deal", **asdict(summary)})
                broadcast_deal(self.seats, deal_pb(summary))
            for s, before, after in () if quiet else zip(self.seats, obs, new_obs, strict=True):
                if before is None or after is None or before is after or not s.playing:
                    continue
                s.pending.extend(codec.event_field(after_events(before, after)))
            obs = new_obs
        return game
