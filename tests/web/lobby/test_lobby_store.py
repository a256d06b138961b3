"""The lobby's SQLite store: games, seats and people's records, in a real file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.referee.spec import DealSummary, MatchResult, SeatResult
from arena.web.lobby.store import LobbyStore

from .stores import make_schema_1_store


def _result(game: str, places: list[int], totals: list[int], deals: list[tuple[int, bool]]) -> MatchResult:
    seats = tuple(SeatResult(seat=i, bot=f"s{i}", version="1", total=t, place=p, status="ok", decisions=1,
                             time_total=0.0, time_max=0.0, faults=())
                  for i, (p, t) in enumerate(zip(places, totals, strict=True)))
    return MatchResult(
        match_id=game, seed=1, seats=seats, finish=(), duration=1.0, replay_path=f"/r/{game}.jsonl",
        deals=tuple(DealSummary(deal_number=n + 1, dealer=0, declarer=d, bid=100, contract=100, made=m,
                                deal_scores=(), changes=(), totals=()) for n, (d, m) in enumerate(deals)))


def test_a_persons_record_is_counted_from_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "lobby.sqlite"
    with LobbyStore(path) as store:
        store.add_game("g1", "standard", {"target": 500}, 7, [("person", "ann"), ("bot", "greedy"),
                                                               ("person", "bob")])
        store.add_game("g2", "czech", {}, 8, [("bot", "random"), ("person", "ann"), ("person", "cy")])
        store.add_game("g3", "standard", {}, 9, [("person", "ann"), ("bot", "random"), ("bot", "x")])
        store.finish("g1", _result("g1", [1, 2, 3], [520, 300, 90], [(0, True), (0, False), (2, True)]))
        store.finish("g2", _result("g2", [1, 3, 2], [1000, -40, 200], [(1, False), (0, True)]))
        # g3 never finished: it counts for nobody.
        store.set_seat("g2", 0, "bot", "greedy")

    with LobbyStore(path) as store:  # read back from the file
        people = {p.name: p for p in store.people()}
        assert set(people) == {"ann", "bob", "cy"}
        ann = people["ann"]
        assert (ann.games, ann.wins, ann.average_place, ann.contracts, ann.made) == (2, 1, 2.0, 3, 1)
        assert (people["bob"].games, people["bob"].wins, people["bob"].contracts, people["bob"].made) == \
            (1, 0, 1, 1)
        assert store.people()[0].name == "ann"  # the best win rate first (ann 1/2, others 0)
        g1 = store.game("g1")
        assert g1 is not None and g1["status"] == "finished" and g1["result"]["totals"] == [520, 300, 90]
        assert g1["rules"] == {"preset": "standard", "options": {"target": 500}}
        assert [s["name"] for s in store.game("g2")["seats"]] == ["greedy", "ann", "cy"]  # type: ignore[index]
        store.interrupted()  # a server that stopped: its unfinished game failed, the rest kept
        assert store.game("g3")["status"] == "failed"  # type: ignore[index]
        assert store.game("g1")["status"] == "finished"  # type: ignore[index]
        assert store.game("nope") is None


def test_per_move_times_are_stored_and_a_schema_1_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "lobby.sqlite"
    make_schema_1_store(path)
    with LobbyStore(path) as store:  # opened by this arena: migrated in place
        old = store.game("old")
        assert old is not None and old["per_move"] is None  # not recorded then
        assert [(s["name"], s["place"], s["per_move"]) for s in old["seats"]] == \
            [("ann", 1, None), ("greedy", 2, None), ("random", 3, None)]
        assert [(p.name, p.games, p.wins, p.contracts, p.made) for p in store.people()] == \
            [("ann", 1, 1, 2, 2)]  # her record is kept
        store.add_game("new", "standard", {}, 6, [("person", "ann"), ("person", "bob"), ("bot", "x")],
                       per_move=40.0, seat_per_move={0: 15.0})
        store.set_seat("new", 1, "bot", "greedy")  # bob never came: a bot plays the bots' clock
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
    assert db.execute("SELECT per_move FROM games WHERE id='new'").fetchone() == (40.0,)
    assert db.execute("SELECT seat, per_move FROM seats WHERE game='new' ORDER BY seat").fetchall() == \
        [(0, 15.0), (1, None), (2, None)]
    # A file of a schema this arena does not know (a newer one) is refused, not changed.
    db.execute("UPDATE meta SET value='3' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(ValueError, match=r"lobby store schema 3, expected 2 or an older one"):
        LobbyStore(path)
    assert sqlite3.connect(path).execute("SELECT value FROM meta").fetchone() == ("3",)


def test_a_new_game_never_takes_the_id_of_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game ids are 32 random bits: a draw that repeats one a game has (in
    play, or only in the store after a restart) is drawn again, not shared
    (the two games would write one replay file and one row)."""
    import asyncio

    from arena.web.human.routes import Tables
    from arena.web.lobby.games import PERSON, Lobby, LobbyConfig, SeatChoice

    draws = iter(["0000aaaa", "0000aaaa", "1111bbbb", "0000aaaa", "1111bbbb", "2222cccc"])
    monkeypatch.setattr("arena.web.lobby.games.secrets.token_hex", lambda _n: next(draws))

    async def scenario() -> list[str]:
        lobby = Lobby(LobbyConfig(folder=tmp_path / "lobby", bots={}), Tables())
        people = [SeatChoice(PERSON, n) for n in ("a", "b", "c")]
        ids = [lobby.create("standard", {}, list(people)).id for _ in range(2)]
        lobby.games.clear()  # a restart: the games are in the store only
        ids.append(lobby.create("standard", {}, list(people)).id)
        await lobby.close()
        return ids

    assert asyncio.run(scenario()) == ["0000aaaa", "1111bbbb", "2222cccc"]
