"""One test per bot fault, each with a real misbehaving bot process.

The offender (a bot from tests/bots/) sits at seat 1 between two random
sample bots. Every time: the match finishes, the offender has the right
status and fault counts, the other two seats are untouched (status ok, no
fault), and no process of the offender is left behind.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from testbots import fault_bot_copy

from arena.cli import bot_check
from arena.referee import FaultPolicy, MatchResult, MatchSpec, SeatResult, TimeControl, run_match
from arena.sandbox.botfile import BotSpec, load_bot

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MARKER = "arena-fault-bot"          # in every fault bot's command line (bot.toml `run`)
OFFENDER = 1


@dataclass
class Outcome:
    result: MatchResult
    log: str                         # the offender's captured stdout/stderr
    replay: list[dict[str, object]]

    @property
    def offender(self) -> SeatResult:
        return self.result.seats[OFFENDER]

    def faults(self) -> dict[str, int]:
        return dict(self.offender.faults)


@pytest.fixture(scope="module")
def random_bot() -> BotSpec:
    return load_bot(ROOT / "sample_bots" / "random")


def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped does not count: it runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def _processes_of_match(address: str) -> Iterator[int]:
    """Pids of live processes whose environment holds this match's ARENA_ADDRESS
    (the bot, and whatever it started: children inherit the environment)."""
    needle = f"ARENA_ADDRESS={address}".encode() + b"\0"
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if MARKER.encode() in cmdline and needle in environ + b"\0" and _alive(int(entry.name)):
            yield int(entry.name)


def play(
    name: str, random_bot: BotSpec, tmp_path: Path, *, policy: FaultPolicy | None = None,
    startup: float = 15.0, deals: int = 2, bank: float = 10.0, per_move: float = 2.0,
    increment: float = 0.0,
) -> Outcome:
    offender = load_bot(fault_bot_copy(name, tmp_path / "bots"))
    replay_path = tmp_path / "match.jsonl"
    result = run_match(MatchSpec(
        match_id=f"fault-{name}", bots=(random_bot, offender, random_bot), seed=5,
        # Two deals are plenty to reach every bot's misbehaviour (decision 1-4).
        # Limits are generous: a loaded machine must not make the random bots
        # late. The timeout tests pass a small bank, or each timeout would
        # wait it out.
        rules_options=(("max_deals", deals),),
        time_control=TimeControl(per_move=per_move, bank=bank, increment=increment, startup=startup),
        fault_policy=policy or FaultPolicy(),
        sandbox="process", work_dir=str(tmp_path), replay_path=str(replay_path),
    ))
    log = Path(result.seats[OFFENDER].log_path).read_text(errors="replace")
    replay = [json.loads(line) for line in replay_path.read_text().splitlines()]
    outcome = Outcome(result, log, replay)
    _check_common(outcome)
    return outcome


def _check_common(out: Outcome) -> None:
    result = out.result
    # The match finished with a full result for every seat.
    assert result.reason in ("complete", "max_deals", "forfeit"), result.reason
    assert sorted(s for place in result.finish for s in place) == [0, 1, 2]
    assert result.deals, "no deal was played to the end"
    assert out.replay[-1]["type"] == "result"
    # The other seats are unaffected.
    for seat in (0, 2):
        other = result.seats[seat]
        assert other.status == "ok", other
        assert all(n == 0 for _, n in other.faults), other
        assert other.fault_log == ()
        assert other.decisions > 0
    # A forfeited bot is ranked last, alone.
    if out.offender.status == "forfeit":
        assert result.finish[-1] == (OFFENDER,)
        assert out.offender.place == 3
    # Nothing the offender started is still running: its own pid (logged by
    # tests/bots/faultbot.py), any child it logged, and any process with the
    # marker on its command line and this match's address in its environment.
    pids = [int(p) for p in re.findall(r"faultbot: (?:pid|left child) (\d+)", out.log)]
    assert pids, f"the bot never logged its pid:\n{out.log}"
    assert [p for p in pids if _alive(p)] == []
    addresses = set(re.findall(r"faultbot: address (\S+)", out.log))
    assert addresses, f"the bot never logged its address:\n{out.log}"
    for address in addresses:
        assert list(_processes_of_match(address)) == []


def _only(faults: dict[str, int], **expected: int) -> None:
    assert faults == {"timeout": 0, "crash": 0, "illegal": 0, "malformed": 0, **expected}


# ---------------------------------------------------------------- time


def test_one_late_reply_is_a_timeout_and_the_late_answer_is_dropped(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("slow_once", random_bot, tmp_path, bank=2.0)
    assert out.offender.status == "ok"
    _only(out.faults(), timeout=1)
    assert out.offender.fault_log[0].startswith("decision 2:")
    # It went on playing after the timeout, and its late reply was sent while
    # the match ran: dropped (an old seq), not taken for a later decision.
    assert "sending the late reply for seq 2" in out.log
    assert out.offender.decisions > 2
    mine = [r for r in out.replay if r["type"] == "action" and r["seat"] == OFFENDER]
    assert [r["fault"] for r in mine].count("timeout") == 1
    assert [r for r in mine if r["fault"] not in (None, "timeout")] == []


def test_time_spent_on_a_faulty_answer_comes_out_of_the_bank(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    """Overtime counts whatever the answer: a bot cannot think on its bank for
    free and then send an illegal action (per move 2 s, bank 10 s, no increment)."""
    out = play("slow_illegal", random_bot, tmp_path)
    _only(out.faults(), illegal=1)
    (bank,) = (float(b) for b in re.findall(r"faultbot: bank left ([\d.]+)", out.log))
    assert bank <= 9.0, out.log  # 3 s of thinking: at least 1 s over the per-move time


def test_a_reply_sent_twice_every_time_is_not_flooding(random_bot: BotSpec, tmp_path: Path) -> None:
    """Each copy answers nothing; what counts as flooding is many such
    messages between two answers, not a few over a long match (more
    decisions here than server.INBOX_LIMIT)."""
    from arena.referee.server import INBOX_LIMIT

    out = play("double_reply", random_bot, tmp_path, deals=40)
    assert out.offender.decisions > INBOX_LIMIT + 10
    assert out.offender.status == "ok"
    _only(out.faults())


def test_sleeping_past_the_limit_every_time_forfeits(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("slow_always", random_bot, tmp_path, bank=2.0)
    assert out.offender.status == "forfeit"
    _only(out.faults(), timeout=3)        # FaultPolicy default: 3 strikes


def test_a_bot_that_stops_reading_its_stream_is_gone_once_a_write_stalls(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    """A bot that never reads fills its stream's flow-control window; the
    referee's next write to it then waits, bounded (seats.WRITE_TIMEOUT past
    the per-move time), and the seat is gone: a crash, which forfeits. Until
    then its decisions time out (strikes, allowed here without limit)."""
    # A short move keeps the offender's hundred-odd timeouts quick; the
    # increment refills the random bots' banks, so that a loaded machine
    # does not make them late (a fault earns no increment: the offender's
    # bank stays empty after its first timeout).
    out = play("deaf", random_bot, tmp_path, deals=40, per_move=0.05, increment=0.05,
               policy=FaultPolicy(max_strikes=100_000))
    assert out.offender.status == "forfeit"
    faults = out.faults()
    assert faults["crash"] == 1 and faults["illegal"] == faults["malformed"] == 0, faults
    assert faults["timeout"] > 50, faults  # the window held many unread requests first
    assert "stopped reading its stream" in out.offender.fault_log[-1], out.offender.fault_log
    # `arena bot check` counts that decision as a death, not an answer.
    assert bot_check._DIED.match(out.offender.fault_log[-1])
    assert "said hello; reading nothing" in out.log
    # The match went on for the others after the offender was gone.
    assert len(out.result.deals) == 40


# ---------------------------------------------------------------- crash


def test_exit_mid_game_is_a_crash_and_its_child_is_killed(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("crash", random_bot, tmp_path)
    assert out.offender.status == "forfeit"
    _only(out.faults(), crash=1)
    assert re.search(r"left child \d+ behind", out.log)


# ---------------------------------------------------------------- bad replies


def test_illegal_actions_are_strikes_until_forfeit(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("illegal", random_bot, tmp_path)
    assert out.offender.status == "forfeit"
    _only(out.faults(), illegal=3)
    assert all("bid 7 is not legal" in line for line in out.offender.fault_log)


def test_an_illegal_action_forfeits_at_once_under_the_forfeit_policy(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("illegal", random_bot, tmp_path, policy=FaultPolicy(mode="forfeit"))
    assert out.offender.status == "forfeit"
    _only(out.faults(), illegal=1)
    assert out.offender.decisions == 1


def test_nonsense_text_bogus_action_and_empty_reply_are_malformed(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("garbage", random_bot, tmp_path, policy=FaultPolicy(max_strikes=4))
    assert out.offender.status == "ok"
    _only(out.faults(), malformed=3)
    assert out.offender.decisions > 3      # it played on, legally


def test_undecodable_bytes_are_malformed_and_the_stream_survives(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("undecodable", random_bot, tmp_path)
    assert out.offender.status == "ok"
    _only(out.faults(), malformed=1)
    assert "match end after" in out.log     # the bot saw the end on the same stream


def test_a_message_over_the_size_limit_is_malformed(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("oversized", random_bot, tmp_path)
    assert out.offender.status == "ok"
    _only(out.faults(), malformed=1)
    assert "limit" in out.offender.fault_log[0]


def test_a_message_beyond_the_transport_limit_drops_the_bot(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    out = play("oversized_huge", random_bot, tmp_path)
    # gRPC itself refuses the message and ends the stream: a disconnect.
    assert out.offender.status == "forfeit"
    _only(out.faults(), crash=1)


# ---------------------------------------------------------------- tokens and seats


def test_a_wrong_token_is_refused_and_changes_nothing(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("wrong_token", random_bot, tmp_path)
    assert "refused: unknown token" in out.log
    assert out.offender.status == "ok"
    _only(out.faults())
    refused = [r for r in out.replay if r["type"] == "refused"]
    assert [r["reason"] for r in refused] == ["unknown token"]


def test_a_bot_that_never_shows_its_token_forfeits(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("wrong_token_only", random_bot, tmp_path, startup=20.0)
    assert out.log.count("refused: unknown token") >= 3
    assert out.offender.status == "forfeit"
    assert out.offender.decisions == 0
    assert sum(out.faults().values()) == 1      # one fault: it never connected


def test_a_second_connection_for_a_seat_is_refused(random_bot: BotSpec, tmp_path: Path) -> None:
    out = play("seat_thief", random_bot, tmp_path)
    assert "second connection with own token ended: refused" in out.log
    assert "connection with guessed token ended: refused: unknown token" in out.log
    # Its own stream was not disturbed: a clean match.
    assert out.offender.status == "ok"
    _only(out.faults())
    assert "match end after" in out.log
    reasons = [r["reason"] for r in out.replay if r["type"] == "refused"]
    assert len(reasons) == 2 and "unknown token" in reasons
    assert any("already connected" in r for r in reasons)


def test_the_marker_is_not_on_this_test_process_command_line() -> None:
    # The process scan above would be meaningless if the marker were on
    # the command line of the test process itself.
    assert MARKER.encode() not in Path(f"/proc/{os.getpid()}/cmdline").read_bytes()


def test_the_process_scan_finds_a_straggler(tmp_path: Path) -> None:
    # The scan must see a process it should complain about: one with the
    # marker and the match's address, as a bot's child left behind would be.
    address = f"unix:{tmp_path}/referee.sock"
    straggler = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", MARKER],
        env={**os.environ, "ARENA_ADDRESS": address},
    )
    try:
        for _ in range(100):            # until the child has exec'd python
            if list(_processes_of_match(address)) == [straggler.pid]:
                break
            time.sleep(0.05)
        assert list(_processes_of_match(address)) == [straggler.pid]
        assert list(_processes_of_match(address + "-other")) == []
    finally:
        straggler.kill()
        straggler.wait()
    assert list(_processes_of_match(address)) == []
