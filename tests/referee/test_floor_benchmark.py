"""benchmarks/referee.py's floor: the real referee over gRPC, with real bot
processes, sends each bot exactly the game messages the real match loop
sends, and takes a reply for every decision, without playing the game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from arena.referee.spec import MatchSpec, TimeControl
from arena.wire.codec import pb

from .recording import LIMITS, read_messages, recorder


@pytest.mark.slow
def test_the_scripted_match_sends_the_real_games_messages_to_real_bots(
    tmp_path: Path, load_script: Callable[[str, str], ModuleType],
) -> None:
    bench = load_script("benchmarks/referee.py", "referee_floor_bench")
    bots = tuple(recorder(tmp_path / f"bot{i}", "passive") for i in range(3))
    spec = MatchSpec(match_id="floor", bots=bots, seed=5, rules_options=(("max_deals", 2),),
                     time_control=TimeControl(per_move=10.0, bank=60.0, increment=1.0, startup=60.0),
                     sandbox="process", work_dir=str(tmp_path / "work"), limits=LIMITS)
    script, final = bench.recorded_game(spec)
    assert final.is_over and len(final.deals) == 2

    result = bench.scripted_match(spec, script, final)

    for seat in result.seats:
        sent = [data for index, data, _ in script if index == seat.seat]
        received = read_messages(result, seat.seat)
        bodies = [pb.RefereeMessage.FromString(m).WhichOneof("body") for m in received]
        assert bodies[0] == "match_start" and bodies[-1] == "match_end"
        # Between start and end: the recorded game's messages, byte for byte.
        assert received[1:-1] == sent
        assert seat.status == "ok" and not seat.fault_log
        assert seat.decisions == sum(1 for index, _, decision in script
                                     if index == seat.seat and decision) > 0
