"""Decision marks (arena/referee/marks.py): each decision's share of a
seat's log is what the bot wrote between its request and the next one's,
by the referee's own byte positions, whatever the bot prints; and the
bot's-eye view (botseye.py) re-builds the observation and legal actions
that request carried, byte for byte."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
from clihelp import cli
from testbots import fault_bot_copy

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.botseye import DecisionError, decision_at, decision_view, request_observation
from arena.referee.marks import Mark, Marks, lines_of, marks_path, read_marks
from arena.referee.replay import read_replay
from arena.sandbox.botfile import load_bot
from arena.sandbox.logcap import CappedLog, PipeSource
from arena.wire.codec import pb

from .recording import LIMITS, recorder

SEQ = re.compile(rb"chatty says: decision seq=(\d+) ")


@pytest.mark.unit
def test_a_pipes_position_counts_what_is_still_in_it(tmp_path: Path) -> None:
    r, w = os.pipe()
    source = PipeSource(r)
    os.write(w, b"before the request\n")
    # Not read by anyone yet: still the bot's, written before the mark.
    assert source.position() == 19
    log = CappedLog(source, str(tmp_path / "x.log"), limit=25)
    os.write(w, b"after, and past the cap\n")
    assert source.position() == 43
    os.close(w)
    assert log.join(10)
    assert log.position() == 43
    data = (tmp_path / "x.log").read_bytes()
    marks = Marks(seat=0, cap=25, end=43, relayed=False,
                  decisions=(Mark(n=0, seq=1, at=0, limit=1, bank=0),
                             Mark(n=3, seq=2, at=19, limit=1, bank=0)))
    assert lines_of(data, marks, 0).text == b"before the request\n"
    assert not lines_of(data, marks, 0).cut
    second = lines_of(data, marks, 1)
    assert second.text == b"after," and second.cut  # the rest was past the cap
    assert marks.find(3) == 1 and marks.find(2) is None


@pytest.mark.slow
def test_marks_follow_the_requests_not_the_bots_text(tmp_path: Path) -> None:
    """A recorder (every message it got, on its log) and two bots that
    print forged marks play a real match over gRPC: each decision's lines
    hold exactly that decision's request, whose observation, legal actions
    and clock are the ones the bot's-eye view re-builds from the replay."""
    bots = (recorder(tmp_path / "rec", "passive"),
            load_bot(fault_bot_copy("chatty", tmp_path)),
            load_bot(fault_bot_copy("chatty", tmp_path, "chatty2")))
    replay_path = tmp_path / "m.jsonl"
    result = run_match(MatchSpec(
        match_id="marks", bots=bots, seed=5, rules_options=(("max_deals", 1),),
        sandbox="process", work_dir=str(tmp_path / "work"), replay_path=str(replay_path),
        time_control=TimeControl(per_move=5.0, bank=3.0, increment=0.25), limits=LIMITS))
    assert [s.status for s in result.seats] == ["ok"] * 3
    replay = read_replay(replay_path)

    rec_log = Path(result.seats[0].log_path).read_bytes()
    rec_marks = read_marks(marks_path(result.seats[0].log_path))
    assert len(rec_marks.decisions) == result.seats[0].decisions > 3
    for i, mark in enumerate(rec_marks.decisions):
        text = lines_of(rec_log, rec_marks, i).text
        got = [pb.RefereeMessage.FromString(base64.b64decode(line[4:]))
               for line in text.splitlines() if line.startswith(b"REC ")]
        requests = [m.decision for m in got if m.WhichOneof("body") == "decision"]
        assert [r.seq for r in requests] == [mark.seq]
        sent = requests[0]
        game, rec = decision_at(replay, mark.n)
        assert rec["seat"] == 0
        assert sent.observation.SerializeToString() == request_observation(game, 0)
        assert list(sent.legal_texts) == [str(a) for a in game.legal_actions()]
        assert (sent.time_limit_s, sent.bank_left_s) == (mark.limit, mark.bank)
        view = decision_view(replay, 0, mark.n, rec_marks, rec_log)
        assert bytes.fromhex(view["observation_bytes"]) == sent.observation.SerializeToString()
        assert view["legal"] == list(sent.legal_texts)

    for seat in (1, 2):
        log = Path(result.seats[seat].log_path).read_bytes()
        assert b"--- arena decision" in log  # it did try to forge them
        marks = read_marks(marks_path(result.seats[seat].log_path))
        assert len(marks.decisions) == result.seats[seat].decisions > 3
        for i, mark in enumerate(marks.decisions):
            assert SEQ.findall(lines_of(log, marks, i).text) == [str(mark.seq).encode()]
        last = marks.decisions[-1]
        view = decision_view(replay, seat, last.n, marks, log)
        assert f"chatty says: decision seq={last.seq} " in view["lines"]
        assert view["sent"] is True and view["seq"] == last.seq
        assert view["reply"] == replay.actions[last.n]["action"]
        with pytest.raises(DecisionError):  # another seat's decision is not this seat's view
            decision_view(replay, seat, rec_marks.decisions[0].n, marks, log)


@pytest.mark.slow
def test_arena_play_logs_keeps_each_seats_marks(tmp_path: Path) -> None:
    """`arena play --logs DIR` as a user runs it: each seat's log with its
    marks beside it, each decision's lines its own."""
    bot = fault_bot_copy("chatty", tmp_path)
    logs = tmp_path / "logs"
    done = cli("play", bot, bot, bot, "--sandbox", "process", "--option", "max_deals=1",
               "--logs", logs, "--replay", tmp_path / "m.jsonl", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    kept = sorted(logs.glob("*.log"))
    assert len(kept) == 3
    for path in kept:
        marks = read_marks(marks_path(path))
        data = path.read_bytes()
        assert marks.decisions
        for i, mark in enumerate(marks.decisions):
            assert SEQ.findall(lines_of(data, marks, i).text) == [str(mark.seq).encode()]
