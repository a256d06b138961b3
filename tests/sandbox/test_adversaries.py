"""The adversarial suite: real bots that play legally but also attack, in
whole matches against two random bots, at every sandbox level available.

For each: the match completes, the other seats play unharmed, nothing of
the bots is left running, and under bwrap and docker the attack itself
fails, as the attacking bot reports on its own log ("ATTACK ...")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox.api import Limits

from .attacks import (
    STRONG,
    Listener,
    assert_others_unharmed,
    confined,
    fault_count,
    play,
)
from .conftest import level_params

pytestmark = pytest.mark.slow


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


# -- resource attacks --------------------------------------------------------------------


@pytest.mark.parametrize("level", level_params())
def test_memory_hog_dies_alone(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "memory_hog")
    assert_others_unharmed(p)
    assert p.attacks("memory"), p.log[-2000:]          # it did try
    assert p.attacker.status == "forfeit" or fault_count(p) > 0
    held = [int(m) for r in p.attacks("memory") for m in re.findall(r"holding (\d+) MB", r)]
    assert max(held, default=0) <= Limits().memory_mb  # never got past the limit


@pytest.mark.parametrize("level", level_params())
def test_fork_bomb_is_refused_or_killed(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "fork_bomb")
    assert_others_unharmed(p)
    results = p.attacks("fork")
    if level in STRONG:
        assert results and results[0].startswith("refused after"), p.log[-2000:]
        assert int(results[0].split()[2].rstrip(":")) < Limits().pids
    else:  # process level: refused by a cgroup where one can be made, else killed
        assert (results and results[0].startswith("refused")) or p.attacker.status == "forfeit"


@pytest.mark.parametrize("level", level_params())
def test_cpu_burner_does_not_hurt_the_others(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "cpu_burner")
    assert_others_unharmed(p)
    assert p.attacks("cpu") == ["burning in a thread and a child process"]


@pytest.mark.parametrize("level", level_params())
def test_output_and_disk_flood_are_capped(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "output_flood")
    pids = re.findall(r"ATTACK start: pid (\d+)", p.log)
    try:
        assert_others_unharmed(p)
        assert len(p.log.encode()) <= Limits().log_bytes + 200
        assert "log truncated" in p.log
        tmp_result = p.attacks("disk tmp")[0]
        own = p.attacks("disk own folder")[0]
        assert tmp_result.startswith("stopped"), tmp_result
        if level in STRONG:
            assert int(tmp_result.split()[2]) <= Limits().tmpfs_mb
            assert "EROFS" in own or "EACCES" in own, own
        else:
            assert "EFBIG" in tmp_result  # RLIMIT_FSIZE, one file at a time
    finally:
        for pid in pids:  # process level: its files in the host's /tmp
            for f in Path("/tmp").glob(f"fill-{pid}-*"):
                f.unlink()


# -- reaching out ----------------------------------------------------------------------


@pytest.mark.parametrize("level", level_params())
def test_network_is_unreachable(tmp_path: Path, level: str, listener: Listener) -> None:
    p = play(tmp_path, level, "network_probe", listener)
    assert_others_unharmed(p)
    (result,) = p.attacks("tcp")
    if level in STRONG:
        assert result.startswith("failed"), result
        assert p.listener_hits == 0
    else:
        assert result == "connected" and p.listener_hits == 1  # process level: not stopped


@pytest.mark.parametrize("level", level_params())
def test_other_files_and_processes_are_invisible(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "snoop")
    assert_others_unharmed(p)
    reads = dict(re.findall(r"^ATTACK read ([^:]+): (.*)$", p.log, re.MULTILINE))
    assert set(reads) >= {"other bot", "other bot folder", "replay", "referee work dir",
                          "other seat log", "referee cmdline", "referee environ"}, p.log[-2000:]
    (visible,) = p.attacks("proc")
    if level in STRONG:
        assert all(v.startswith("failed") for v in reads.values()), reads
        assert int(visible.split()[0]) < 20  # its own pid namespace
    elif confined(level):  # process level, own mounts: files hidden; /proc shared, the referee's environ not
        files = ("other bot", "other bot folder", "replay", "referee work dir", "other seat log",
                 "referee environ")
        assert all(reads[k].startswith("failed") for k in files), reads
    else:
        assert reads["other bot"].startswith("ok")  # process level: not stopped


@pytest.mark.parametrize("level", level_params())
def test_stolen_tokens_do_not_get_a_seat(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "token_thief")
    assert_others_unharmed(p)
    (found,) = p.attacks("token search")
    uses = p.attacks("token use")
    assert uses and all(u not in ("match_start", "decision") for u in uses), uses
    (reach,) = p.attacks("sockets")
    if level in STRONG:
        assert found == "found 0 other tokens" and reach == "0 other sockets"
    elif confined(level):  # process level, own mounts: the tokens of other process-level bots
        # are in /proc, but not their sockets, and its own socket refuses them
        assert reach == "0 other sockets" and all(u == "refused" for u in uses), uses
    else:  # process level: tokens and sockets in reach, but the seats were taken
        assert reach == "2 other sockets" and len(uses) == 3 * int(found.split()[1])


# -- misbehaving processes ---------------------------------------------------------------


@pytest.mark.parametrize("level", level_params())
def test_sleeper_times_out(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "sleeper")
    assert_others_unharmed(p)
    assert dict(p.attacker.faults)["timeout"] > 0


@pytest.mark.parametrize("level", level_params())
def test_quitter_crashes(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "quitter")
    assert_others_unharmed(p)
    assert p.attacker.status == "forfeit"
    assert dict(p.attacker.faults)["crash"] > 0
    assert p.attacks("quit") == ["exiting at once"]


@pytest.mark.parametrize("level", level_params())
def test_sigterm_ignorer_is_killed_at_the_end(tmp_path: Path, level: str) -> None:
    p = play(tmp_path, level, "sigterm_ignorer")
    assert_others_unharmed(p)
    assert p.attacker.status == "ok"
    assert "ATTACK sigterm: ignoring SIGTERM" in p.log


# -- the referee's listeners ---------------------------------------------------------------


@pytest.mark.parametrize("level", level_params())
def test_a_stream_flood_before_hello_locks_no_one_out(tmp_path: Path, level: str) -> None:
    """Silent streams opened as fast as the referee ends them, before the
    flooder's own Hello. Each seat has its own socket: at bwrap and docker
    the flooder finds no other, fills only its own Hello slots, and is
    expelled for flooding. The others connect and play."""
    p = play(tmp_path, level, "stream_flood", extra={"when": "start", "seconds": 4.0})
    (reach,) = p.attacks("reach")
    if confined(level):
        assert reach == "0 other sockets"
        assert_others_unharmed(p)
        assert p.attacker.status == "forfeit" and p.attacker.decisions == 0
        # Whichever count passes its limit first expels it: the listener's
        # streams refused before a Hello, or the gate's frames that carry no
        # message (each silent stream is a HEADERS frame); which one depends
        # on how fast the referee refuses under the machine's load.
        assert any("streams that the referee refused (flooding)" in line
                   or ("HTTP/2 frames that carry no message" in line and "HEADERS" in line
                       and line.endswith("(flooding)"))
                   for line in p.attacker.fault_log), p.attacker.fault_log
    else:
        # Process level: the other seats' sockets are in reach (trusted bots
        # only, docs/sandbox.md); the match still ends and nothing is left.
        assert reach == "2 other sockets"
        assert p.result.reason in ("complete", "max_deals", "forfeit")


@pytest.mark.parametrize("level", level_params())
def test_a_stream_flood_while_playing_costs_the_flooder_its_seat(tmp_path: Path, level: str) -> None:
    """The same flood on its own socket once it is playing: every stream is
    refused at once, and the referee's CPU goes into refusing them, which
    the other seats' clocks pay for. On a private socket the flooder is
    expelled after server.FLOOD_LIMIT refusals."""
    p = play(tmp_path, level, "stream_flood", extra={"when": "playing", "seconds": 4.0})
    assert_others_unharmed(p)
    assert p.attacks("reach"), p.log[-2000:]
    if confined(level):
        assert p.attacker.status == "forfeit" and p.attacker.decisions >= 1
        assert dict(p.attacker.faults)["malformed"] == 1
        assert any("(flooding)" in line for line in p.attacker.fault_log)
