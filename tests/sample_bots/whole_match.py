"""A whole match of a sample bot in another language through the real
referee, checked the same way for every language. (How a bot talks and
ends against a scripted referee: tests/sdk/fake_referee.py.)"""

from __future__ import annotations

from pathlib import Path

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.replay import check
from arena.sandbox.botfile import load_bot


def assert_plays_a_whole_match(folder: Path, tmp: Path) -> None:
    """The bot in `folder` plays a whole Czech match against the greedy and
    random sample bots through the real referee, with no fault, and the
    replay re-plays to the same totals."""
    samples = Path(__file__).resolve().parents[2] / "sample_bots"
    bot = load_bot(folder)
    result = run_match(MatchSpec(
        match_id=bot.name, bots=(bot, load_bot(samples / "greedy"), load_bot(samples / "random")),
        seed=8, rules_preset="czech", rules_options=(("target", 500),), sandbox="process",
        work_dir=str(tmp), replay_path=str(tmp / f"{bot.name}.jsonl"),
        time_control=TimeControl(per_move=5.0, bank=20.0, startup=30.0),
    ))
    assert result.reason == "complete"
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    assert result.seats[0].bot == bot.name and result.seats[0].decisions > 0
    assert check(result.replay_path) == tuple(s.total for s in result.seats)
