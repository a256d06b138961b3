"""A season played in-process with real bot processes (arena/ladder/season.py):
the reference bots' blocks are played and rated, a submission is validated
onto the ladder, a bad one refused with its reason, a replaced version's
block discarded."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.ladder.config import load_config
from arena.ladder.season import Season
from arena.ladder.store import Store
from arena.tournament import LocalPool

from .archives import folder_files, tar_gz
from .ladders import bot_copy, short_ladder


def wait_for(check: Callable[[], bool], seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_season_validates_plays_and_rates(tmp_path: Path) -> None:
    folder = short_ladder(tmp_path / "l", references=("random", "greedy"))
    config = load_config(folder)
    store = Store(config.store_path)
    token_user = store.add_user("alice", "arena_" + "a" * 43)
    season = Season(config, store, lambda: LocalPool(1, pin_cpus=False))
    season.start()
    try:
        # A bot whose program does not start: refused with the first fault.
        broken = bot_copy(tmp_path, "random", "broken")
        (broken / "bot.toml").write_text((broken / "bot.toml").read_text().replace(
            'run = "python3 bot.py"', 'run = "python3 nothing.py"'))
        bad = season.intake.submit(token_user, tar_gz(folder_files(broken)))
        good = season.intake.submit(token_user, tar_gz(folder_files(bot_copy(tmp_path, "random", "mine"))))
        wait_for(lambda: store.submission(bad).state == "refused")  # type: ignore[union-attr]
        reason = store.submission(bad).reason  # type: ignore[union-attr]
        assert reason.startswith("the validation match failed:") and "\n" not in reason, reason
        wait_for(lambda: store.submission(good).state == "active")  # type: ignore[union-attr]
        log = next((folder / "submissions" / str(good) / "validation").glob("*-seat0-mine.log"))
        assert log.is_file()
        # Three bots on the ladder: blocks are played and rated.
        wait_for(lambda: store.counts().get("finished", 0) >= 1)
        block = store.blocks(status="finished")[-1]
        matches = store.block_matches(block.id)
        assert len(matches) == 6 and len({m.seed for m in matches}) == 1
        assert sorted(m.seats for m in matches) == sorted({m.seats for m in matches})
        assert all(Path(m.replay_path).is_file() for m in matches)
        rated = [s for s in store.submissions(state="active") if s.blocks]
        assert len(rated) == 3 and all(s.sigma is not None and s.sigma < 25 / 3 for s in rated)
        assert store.history(good)[0][1] == block.id
        # A new version of "mine": its old version's block in play is discarded.
        newer = season.intake.submit(
            token_user, tar_gz(folder_files(bot_copy(tmp_path, "random", "mine", "2"))))
        wait_for(lambda: store.submission(newer).state == "active")  # type: ignore[union-attr]
        assert store.submission(good).state == "replaced"  # type: ignore[union-attr]
        wait_for(lambda: all(b.status != "running" for b in store.blocks()
                             if good in b.seats))
        for b in store.blocks(submission_id=good):
            if b.status == "discarded":
                assert "mine 1 left the ladder" in b.reason
        assert store.submission(good).blocks == len(  # type: ignore[union-attr]
            [b for b in store.blocks(submission_id=good) if b.status == "finished"])
    finally:
        season.stop()
        store.close()
