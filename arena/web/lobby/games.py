"""Games of the lobby: created with their rules and seats, joined by people
through single-use links, played by the referee with the bots the server
was given, stored with every seat's result.

A game starts by itself once every person's seat is taken and its page is
open; its creator may start it sooner, and a person's seat nobody took is
then played by a bot. People's seats are bridges (arena.web.human), so the
referee, its clocks, faults and hidden-information rules are the same as
for any match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import Any

from arena.manifest import BotSpec
from arena.referee.hosted import register_host, unregister_host
from arena.referee.spec import MatchResult, MatchSpec, TimeControl
from arena.web.human.play import HUMAN_TIME, human_spec
from arena.web.human.routes import Tables
from arena.web.human.seat import GRACE, HumanSeat
from arena.web.lobby.store import LobbyStore
from arena.web.lobby.watch import Watching
from arena.web.review import Reviews

log = logging.getLogger("arena.web.lobby")

PERSON = "person"
# Games waiting for their people at once. Anyone who reaches the lobby may
# create games; each waiting one holds a task that looks at its seats every
# second on the loop that also runs the playing games' referees (their bots'
# clocks), and nothing ends a game nobody joins.
WAITING_LIMIT = 32
# Games played at once. Each runs its bots (processes or containers) and its
# referee on this server's loop and CPUs; a game whose people are all there
# beyond this waits, "queued", its clocks not yet running, for one to end.
# Without it, anyone could create games and join them by script until the
# machine ran out of processes (a waiting game that starts frees its slot).
PLAYING_LIMIT = 4


class GameError(ValueError):
    """A game that cannot be created or started as asked; says why."""


@dataclass(frozen=True)
class LobbyConfig:
    folder: Path                               # lobby.sqlite, replays/, logs/
    bots: dict[str, BotSpec]                   # by name: the bots a seat may be given
    sandbox: str = "auto"
    grace: float = GRACE
    human_time: TimeControl = HUMAN_TIME
    bot_time: TimeControl = field(default_factory=TimeControl)
    # Offers a finished game's replay to the replay player; returns its URL
    # ("" if there is no player).
    publish_replay: Callable[[str, Path], str] | None = None


@dataclass(frozen=True)
class SeatChoice:
    kind: str      # PERSON or "bot"
    name: str      # the person's name, or the bot's
    # A person's seat anyone in the lobby may take (its open tables) rather
    # than only whoever the creator sends its join link.
    open: bool = False


@dataclass
class LobbyGame:
    id: str
    preset: str
    options: dict[str, object]
    seats: list[SeatChoice]
    seed: int
    human_time: TimeControl = HUMAN_TIME    # the clock of its people's seats
    seat_times: dict[int, TimeControl] = field(default_factory=dict)  # a person's own, by seat
    creator_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    humans: list[HumanSeat] = field(default_factory=list)
    status: str = "waiting"            # waiting | playing | finished | failed
    result: MatchResult | None = None
    error: str = ""
    task: asyncio.Task[None] | None = None
    cancelled: bool = False            # by its creator, while it waited

    def human(self, seat: int) -> HumanSeat | None:
        return next((h for h in self.humans if h.seat == seat), None)


class Lobby:
    def __init__(self, config: LobbyConfig, tables: Tables) -> None:
        self.config = config
        self.tables = tables
        config.folder.mkdir(parents=True, exist_ok=True)
        self.store = LobbyStore(config.folder / "lobby.sqlite")
        self.store.interrupted()
        self.games: dict[str, LobbyGame] = {}
        self._freed = asyncio.Event()       # set when a game stops playing
        self.players: dict[str, str] = {}   # game id -> its replay in the player
        self.watching = Watching()          # the spectators' feeds (watch.py)
        self.reviews = Reviews()            # "review this game", asked from a seat's page
        for g in self.store.games(limit=10_000):
            if g["status"] == "finished":
                self._publish(g["id"], Path(g["replay_path"]))

    def _new_id(self) -> str:
        """A game id no game here has (32 random bits: two games drawing one
        id would share a replay file and a row of the store)."""
        while True:
            game_id = secrets.token_hex(4)
            if game_id not in self.games and self.store.game(game_id) is None:
                return game_id

    def _publish(self, game_id: str, replay: Path) -> None:
        if self.config.publish_replay is not None and replay.is_file():
            url = self.config.publish_replay(f"lobby-{game_id}", replay)
            if url:
                self.players[game_id] = url

    # ------------------------------------------------------------ creating

    def create(self, preset: str, options: dict[str, object], seats: list[SeatChoice],
               per_move: float | None = None,
               seat_per_move: Mapping[int, float] | None = None) -> LobbyGame:
        """A new game; GameError if its rules or seats are not playable.
        `per_move`: seconds per move of its people's seats (None: the server's);
        `seat_per_move`: a person's seat's own seconds per move, by seat, over
        `per_move` (the bank stays the server's)."""
        from arena.referee.match import MatchSetupError, build_rules

        waiting = sum(1 for g in self.games.values() if g.status in ("waiting", "starting", "queued"))
        if waiting >= WAITING_LIMIT:
            raise GameError(f"{waiting} games are waiting for their people already (at most "
                            f"{WAITING_LIMIT} at once): start one, or let one be played first")
        if not any(s.kind == PERSON for s in seats):
            raise GameError("a lobby game needs at least one person (bots alone: arena play)")
        names = [s.name for s in seats if s.kind == PERSON]
        if len(set(names)) != len(names):
            raise GameError("two people of one game have the same name")
        for s in seats:
            if s.open and s.kind != PERSON:
                raise GameError(f"seat {s.name!r}: only a person's seat can be open to anyone")
            if s.kind != PERSON and s.name not in self.config.bots:
                raise GameError(f"no bot {s.name!r} on this server (bots: {', '.join(self.config.bots)})")
        game = LobbyGame(id=self._new_id(), preset=preset, options=options, seats=seats,
                         seed=secrets.randbelow(2**63),
                         human_time=self.config.human_time if per_move is None
                         else dc_replace(self.config.human_time, per_move=per_move))
        for i, seconds in (seat_per_move or {}).items():
            if not (0 <= i < len(seats) and seats[i].kind == PERSON):
                raise GameError(f"seat {i}: a per-move time is for a person's seat")
            game.seat_times[i] = dc_replace(game.human_time, per_move=seconds)
        try:
            build_rules(self._spec(game))
        except (MatchSetupError, ValueError) as exc:
            raise GameError(str(exc)) from None
        game.humans = [HumanSeat(seat=i, name=s.name, grace=self.config.grace)
                       for i, s in enumerate(seats) if s.kind == PERSON]
        self.games[game.id] = game
        self.tables.add(game.id, game.humans)
        self.store.add_game(game.id, preset, options, game.seed, [(s.kind, s.name) for s in seats],
                            per_move=game.human_time.per_move,
                            seat_per_move={i: t.per_move for i, t in game.seat_times.items()})
        game.task = asyncio.get_running_loop().create_task(self._run(game))
        log.info("game %s created: %s %s, seats %s", game.id, preset, options,
                 ", ".join(f"{s.kind} {s.name}" for s in seats))
        return game

    def _spec(self, game: LobbyGame) -> MatchSpec:
        placeholder = next(iter(self.config.bots.values()), None)
        bots = []
        for s in game.seats:
            bot = self.config.bots.get(s.name) if s.kind != PERSON else placeholder
            if bot is None:  # a lobby with no bots: people only (the seat is replaced)
                bot = BotSpec(name=s.name, version="human", language="human", path="")
            bots.append(bot)
        folder = self.config.folder
        return MatchSpec(
            match_id=f"lobby-{game.id}", bots=tuple(bots), seed=game.seed, rules_preset=game.preset,
            rules_options=tuple(game.options.items()), time_control=self.config.bot_time,
            sandbox=self.config.sandbox, replay_path=str(folder / "replays" / f"{game.id}.jsonl"),
            fault_logs_dir=str(folder / "logs"),
        )

    # ------------------------------------------------------------ open tables

    def open_tables(self) -> list[tuple[LobbyGame, list[HumanSeat]]]:
        """Waiting games with a seat open to anyone that nobody has taken, and those seats."""
        out = []
        for game in self.games.values():
            if game.status != "waiting":
                continue
            free = [h for h in game.humans if game.seats[h.seat].open and not h.joined]
            if free:
                out.append((game, free))
        return out

    def sit(self, game: LobbyGame, seat: int, name: str, peer: str) -> tuple[HumanSeat, str]:
        """A visitor takes an open seat of a waiting game: the seat and its
        session secret (as its join link would give); `name` (may be empty:
        the seat's) is the name the person's record is kept under. GameError
        saying why not: the game does not wait, the seat is by link only or
        taken, the name is another seat's."""
        if game.status != "waiting":
            raise GameError(f"game {game.id} is {game.status}: seats are taken while it waits")
        h = game.human(seat)
        if h is None or not 0 <= seat < len(game.seats) or not game.seats[seat].open:
            raise GameError(f"seat {seat} of game {game.id} is not open to anyone "
                            "(its person comes by the link its creator sends)")
        if h.joined:
            raise GameError(f"seat {seat} of game {game.id} is taken already")
        name = " ".join("".join(c for c in name if c.isprintable()).split())[:40] or game.seats[seat].name
        if any(s.kind == PERSON and s.name == name for i, s in enumerate(game.seats) if i != seat):
            raise GameError(f"another seat of game {game.id} is called {name!r}: choose another name")
        session = h.use_join(h.join_secret, peer)
        if session is None:  # taken between the check and now (cannot happen on one loop)
            raise GameError(f"seat {seat} of game {game.id} is taken already")
        if name != game.seats[seat].name:
            game.seats[seat] = dc_replace(game.seats[seat], name=name)
            h.name = name
            self.store.set_seat(game.id, seat, PERSON, name, keep_time=True)
        log.info("game %s: seat %d taken from the open tables as %r (from %s)", game.id, seat, name, peer)
        return h, session

    # ------------------------------------------------------------ starting

    def rematch(self, game: LobbyGame) -> LobbyGame:
        """A new game with the options, seats and clocks `game` was played
        with (new cards); GameError as `create`."""
        if game.status not in ("finished", "failed"):
            raise GameError(f"game {game.id} is {game.status}: a rematch follows a game that is over")
        return self.create(game.preset, dict(game.options), list(game.seats),
                           per_move=game.human_time.per_move,
                           seat_per_move={i: t.per_move for i, t in game.seat_times.items()})

    def cancel(self, game: LobbyGame) -> None:
        """Give up a game still waiting for its people: failed, "cancelled by its
        creator"; its join links answer nothing any more."""
        if game.status != "waiting":
            raise GameError(f"game {game.id} is {game.status}: only a waiting game can be cancelled")
        game.cancelled = True
        game.status, game.error = "failed", "cancelled by its creator"
        self.store.set_status(game.id, "failed", game.error)
        self.tables.remove(game.id)
        if game.task is not None:
            game.task.cancel()
        log.info("game %s: cancelled by its creator", game.id)

    def start_now(self, game: LobbyGame, fill_with: str) -> None:
        """Start without waiting: people's seats nobody took are played by `fill_with`."""
        if game.status != "waiting":
            raise GameError(f"game {game.id} is {game.status}, not waiting")
        missing = [h for h in game.humans if not h.joined]
        if missing and fill_with not in self.config.bots:
            raise GameError(f"no bot {fill_with!r} to fill {len(missing)} seat(s) with")
        for h in missing:
            game.seats[h.seat] = SeatChoice("bot", fill_with)
            self.store.set_seat(game.id, h.seat, "bot", fill_with)
            log.info("game %s: seat %d (%s) not taken; %s plays it", game.id, h.seat, h.name, fill_with)
        game.humans = [h for h in game.humans if h.joined]
        self.tables.add(game.id, game.humans)
        for h in game.humans:
            h.changed.set()
        game.status = "starting"

    async def _run(self, game: LobbyGame) -> None:
        try:
            while game.status == "waiting" and not all(h.joined and h.connected for h in game.humans):
                await _wait_any(game)
            while sum(1 for g in self.games.values() if g.status == "playing") >= PLAYING_LIMIT:
                game.status = "queued"
                self._freed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._freed.wait(), timeout=1.0)
            game.status = "playing"
            self.store.set_status(game.id, "playing")
            (self.config.folder / "replays").mkdir(exist_ok=True)
            loop = asyncio.get_running_loop()
            keys = {h.seat: register_host(h.play, loop) for h in game.humans}
            try:
                spec = human_spec(self._spec(game), game.humans, keys, game.human_time, game.seat_times)
                from arena.referee.match import build_rules, play_match

                # Spectators are told the engine's public view, never a seat's (watch.py).
                feed = self.watching.feed(game.id, build_rules(spec))
                feed.names = [s.name for s in game.seats]
                game.result = await play_match(spec, watch=feed.tell)
            finally:
                for key in keys.values():
                    unregister_host(key)
            self.store.finish(game.id, game.result)
            game.status = "finished"
            self._publish(game.id, Path(game.result.replay_path))
            log.info("game %s finished: %s", game.id, game.result.reason)
        except asyncio.CancelledError:
            if not game.cancelled:
                game.status, game.error = "failed", "the server stopped"
                with contextlib.suppress(Exception):
                    self.store.set_status(game.id, "failed", game.error)
            raise
        except Exception as exc:  # noqa: BLE001 - a game that cannot be played is told, not raised
            game.status, game.error = "failed", str(exc)
            log.warning("game %s failed: %s", game.id, exc)
            self.store.set_status(game.id, "failed", str(exc))
        finally:
            self._freed.set()
            if game.status in ("finished", "failed"):
                self.watching.finish(game.id, self.over(game.id))

    def over(self, game_id: str) -> dict[str, Any]:
        """What a watcher is told when the game is over: how it ended and,
        once finished, where its all-cards replay is (served only then)."""
        stored = self.store.game(game_id) or {}
        game = self.games.get(game_id)
        status = game.status if game is not None else str(stored.get("status", ""))
        finished = status == "finished"
        return {"status": status, "error": game.error if game is not None else stored.get("error", ""),
                "player": self.players.get(game_id, "") if finished else "",
                "replay": f"/lobby/game/{game_id}/replay.jsonl" if finished else "",
                "page": f"/lobby/game/{game_id}"}

    async def close(self) -> None:
        tasks = [g.task for g in self.games.values() if g.task is not None and not g.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.reviews.close)
        self.store.close()

    def view(self, game: LobbyGame) -> dict[str, Any]:
        return {"id": game.id, "preset": game.preset, "options": game.options, "status": game.status,
                "error": game.error, "seats": game.seats}


async def _wait_any(game: LobbyGame) -> None:
    """Until something changes at the game's seats (a join, a page), or a second passes."""
    for h in game.humans:
        h.changed.clear()
    waits = [asyncio.ensure_future(h.changed.wait()) for h in game.humans]
    try:
        await asyncio.wait(waits, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
