"""The ladder's store (arena/ladder/store.py) on a real SQLite file:
tokens stored hashed, versions replacing each other, blocks closed once."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.ladder import tokens
from arena.ladder.errors import LadderError
from arena.ladder.store import MatchRow, Ratings, Store
from arena.referee.spec import MatchResult, SeatResult


def seat(i: int, place: int) -> SeatResult:
    return SeatResult(seat=i, bot=f"b{i}", version="1", total=0, place=place, status="ok",
                      decisions=1, time_total=0.0, time_max=0.0, faults=())


def result(match_id: str, places: tuple[int, int, int]) -> MatchResult:
    return MatchResult(match_id=match_id, seed=1, seats=tuple(seat(i, p) for i, p in enumerate(places)),
                       deals=(), finish=(), duration=1.0)


def add(store: Store, user: int | None, bot: str, content: str = "h") -> int:
    return store.add_submission(user, bot, "1", content, "python", lambda i: f"s/{i}", 1, 1)


def test_tokens_are_stored_hashed_and_matched_exactly(tmp_path: Path) -> None:
    path = tmp_path / "ladder.sqlite"
    token = tokens.new_token()
    with Store(path) as store:
        user = store.add_user("alice", token)
        assert store.user_for_token(token) == user
        for wrong in ("", token[:-1], token + "x", token.upper(), "arena_" + "A" * 43, "x" * 500):
            assert store.user_for_token(wrong) is None
        with pytest.raises(LadderError, match="exists already"):
            store.add_user("alice", tokens.new_token())
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert token.encode() not in raw and tokens.digest(token).encode() in raw


def test_an_active_version_replaces_the_last_and_names_stay_with_their_author(tmp_path: Path) -> None:
    with Store(tmp_path / "l.sqlite") as store:
        alice = store.add_user("alice", tokens.new_token()).id
        bob = store.add_user("bob", tokens.new_token()).id
        one = add(store, alice, "mybot", "h1")
        store.set_state(one, "active")
        two = add(store, alice, "mybot", "h2")
        store.set_state(two, "active")
        assert store.submission(one).state == "replaced"  # type: ignore[union-attr]
        assert store.submission(two).state == "active"  # type: ignore[union-attr]
        store.set_state(one, "active")   # an older one validated late: replaced at once
        assert store.submission(one).state == "replaced"  # type: ignore[union-attr]
        with pytest.raises(LadderError, match="belongs to another author"):
            add(store, bob, "mybot")
        assert store.live_bots(alice) == {"mybot"} and store.live_bots(bob) == set()


def test_a_failed_placement_records_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "l.sqlite") as store:
        def place(_: int) -> None:
            raise OSError("disk full")
        with pytest.raises(OSError):
            store.add_submission(None, "ref", "1", "h", "python", lambda i: f"s/{i}", 1, 1,
                                 place=place)
        assert store.submissions() == [] and store.bot_owner("ref") == (False, None)


def _block(store: Store, seats: tuple[int, int, int]) -> int:
    return store.new_block(seats, lambda bid: (77, [(f"b{bid}-o{k}", k, seats) for k in range(2)]))


def _rate(ms: list[MatchRow], current: Ratings) -> Ratings:
    return {s: (30.0 - s, 5.0) for s in ms[0].seats}


def test_blocks_are_rated_once_discarded_when_replaced_failed_when_unplayed(tmp_path: Path) -> None:
    with Store(tmp_path / "l.sqlite") as store:
        seats = tuple(add(store, None, f"r{i}") for i in range(3))
        for s in seats:
            store.set_state(s, "active")
        done = _block(store, seats)  # type: ignore[arg-type]
        for m in store.block_matches(done):
            store.finish_match(result(m.match_id, (1, 2, 3)))
        closed = store.close_block(done, _rate)
        assert closed.status == "finished"
        assert store.close_block(done, _rate).status == "finished"  # once: no second rating
        assert [s.blocks for s in store.submissions()] == [1, 1, 1]
        assert store.history(seats[0])[0][:3] == (1, done, 30.0 - seats[0])

        unplayed = _block(store, seats)  # type: ignore[arg-type]
        store.fail_match(store.block_matches(unplayed)[0].match_id, "worker died")
        assert store.close_block(unplayed, _rate).status == "failed"

        replaced = _block(store, seats)  # type: ignore[arg-type]
        newer = add(store, None, "r0", "h2")
        store.set_state(newer, "active")
        closed = store.close_block(replaced, _rate)
        assert closed.status == "discarded" and "r0" in closed.reason
        assert [s.blocks for s in store.submissions()][:3] == [1, 1, 1]   # never counted


def test_recover_fails_running_blocks_and_queues_validations(tmp_path: Path) -> None:
    with Store(tmp_path / "l.sqlite") as store:
        seats = tuple(add(store, None, f"r{i}") for i in range(3))
        for s in seats:
            store.set_state(s, "active")
        running = _block(store, seats)  # type: ignore[arg-type]
        pending = add(store, None, "new")
        store.set_state(pending, "validating")
    with Store(tmp_path / "l.sqlite") as store:
        assert store.recover() == (1, 1)
        assert store.block(running).status == "failed"  # type: ignore[union-attr]
        assert store.submission(pending).state == "queued"  # type: ignore[union-attr]
