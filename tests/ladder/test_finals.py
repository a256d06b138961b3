"""A season's end (arena/ladder/finals.py): freezing refuses submissions and
plans no block; the batch rating is order-free; `arena ladder finals`
plays the top authors' bots as a duplicate round robin, publishes it with
the seed's commitment and reveal, and `arena verify` re-checks the bundle."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clihelp import cli, cli_ok, refused

from arena.ladder import finals
from arena.ladder.config import load_config
from arena.ladder.errors import Refused
from arena.ladder.season import Season
from arena.ladder.store import Store
from arena.tournament import LocalPool
from arena.tournament import load_config as load_tournament

from .archives import folder_files, tar_gz
from .ladders import bot_copy, short_ladder
from .test_season import wait_for

AUTHORS = (("alice", "greedy"), ("bob", "random"), ("carol", "random"), ("dave", "greedy"))


def _season_with_authors(tmp_path: Path) -> Path:
    """A ladder whose four authors' bots (and the references) each have a
    rated block, the season stopped."""
    folder = short_ladder(tmp_path / "l")
    config = load_config(folder)
    with Store(config.store_path) as store:
        season = Season(config, store, lambda: LocalPool(1, pin_cpus=False))
        season.start()
        try:
            for k, (author, sample) in enumerate(AUTHORS):
                user = store.add_user(author, f"arena_{k}" + "x" * 42)
                bot = bot_copy(tmp_path, sample, f"{author}bot")
                season.intake.submit(user, tar_gz(folder_files(bot)))

            def placed() -> bool:
                subs = store.submissions(state="active")
                return len(subs) == 6 and all(s.blocks >= 1 for s in subs)

            wait_for(placed, 240)
        finally:
            season.stop()
    return folder


@pytest.mark.slow
def test_freeze_finals_publish_and_verify(tmp_path: Path) -> None:
    folder = _season_with_authors(tmp_path)
    config = load_config(folder)
    with Store(config.store_path) as store:
        refused_finals = None
        try:
            finals.prepare(config, store, top=3)
        except finals.FinalsError as exc:
            refused_finals = str(exc)
        assert refused_finals is not None and "not frozen" in refused_finals
    refused(cli("ladder", "finals", folder, "--top", "3"), "not frozen")

    assert "frozen" in cli_ok("ladder", "freeze", folder).stdout
    assert "already frozen" in cli_ok("ladder", "freeze", folder).stdout
    with Store(config.store_path) as store:
        # Frozen: a submission is refused with its line and stores nothing;
        # a season started now plans no block.
        before = (len(store.submissions()), store.counts())
        season = Season(config, store, lambda: LocalPool(1, pin_cpus=False))
        season.start()
        try:
            user = store.user_named("alice")
            assert user is not None
            with pytest.raises(Refused, match="frozen for its finals") as caught:
                season.intake.submit(user, tar_gz(folder_files(
                    bot_copy(tmp_path, "random", "alicebot", "2"))))
            assert caught.value.status == 403
            time.sleep(2.5)  # two idle rounds of the lanes
            assert (len(store.submissions()), store.counts()) == before
            assert not list((folder / "incoming").glob("*"))
        finally:
            season.stop()
        chosen = finals.finalists(store, 3)
        live = sorted((s for s in store.submissions(state="active") if not s.reference),
                      key=lambda s: -((s.mu or 0) - 3 * (s.sigma or 0)))
        assert [s.id for s in chosen] == [s.id for s in live[:3]]

    out = tmp_path / "published"
    done = cli_ok("ladder", "finals", folder, "--top", "3", "--out", out, "-q")
    assert "arena verify" in done.stdout, done.stdout
    place = folder / "finals"
    tconfig = load_tournament(place)
    assert len(tconfig.bot_paths) == 3 and tconfig.schedule == "all_triples"
    assert tconfig.seed == finals.finals_seed(config.seed) and tconfig.seed != config.seed
    assert tconfig.match == config.match  # the season's rules, clock and limits
    board = json.loads((out / "leaderboard.json").read_text())
    assert len(board["rows"] if "rows" in board else board["bots"]) == 3
    verified = cli_ok("verify", out / "bundle")
    assert "verified: 6 matches" in verified.stdout, verified.stdout
    # Run again: resumed (nothing replanned, nothing played twice), published the same.
    cli_ok("ladder", "finals", folder, "--top", "3", "--out", tmp_path / "again", "-q")
    assert (tmp_path / "again" / "leaderboard.json").read_bytes() == \
        (out / "leaderboard.json").read_bytes()
    # Other finalists than planned: refused, the finals kept.
    refused(cli("ladder", "finals", folder, "--top", "4"), "remove")
    assert load_tournament(place).bot_paths == tconfig.bot_paths

    assert "unfrozen" in cli_ok("ladder", "freeze", folder, "--undo").stdout
    rated = cli_ok("ladder", "rate", folder).stdout
    assert all(f"{author}bot" in rated for author, _ in AUTHORS)


def test_batch_rating_does_not_depend_on_the_order_blocks_finished() -> None:
    from arena.tournament import fit_ratings
    from arena.tournament.rating.ratings import RatedMatch, Rating, rate_block

    matches = [RatedMatch(f"b{k}", k, seats, places) for k, (seats, places) in enumerate(
        [((1, 2, 3), (1, 2, 3)), ((2, 3, 4), (2, 1, 3)), ((1, 3, 4), (1, 3, 2)),
         ((1, 2, 4), (3, 1, 2)), ((2, 3, 1), (1, 2, 3)), ((4, 1, 2), (2, 3, 1))])]
    players = [1, 2, 3, 4]
    one = fit_ratings(matches, players)
    other = fit_ratings(list(reversed(matches)), players)
    for p in players:
        assert one[p].mu == pytest.approx(other[p].mu, abs=1e-6)
        assert one[p].sigma == pytest.approx(other[p].sigma, abs=1e-6)
    # The live table's update, block after block with drift, does depend on
    # the order: why the batch one is shown beside it.
    def live(order: list[RatedMatch]) -> dict[int, Rating]:
        current: dict[int, Rating] = {}
        for m in order:
            current = {**current, **rate_block(current, [m], 0.2)}
        return current

    forwards, backwards = live(matches), live(list(reversed(matches)))
    assert any(abs(forwards[p].mu - backwards[p].mu) > 0.01 for p in players)
