"""Attacks on the referee's sockets (issue 20), by real bots in whole
matches at every level available: another seat's socket replaced or
connected to, and floods below the gRPC streams (raw HTTP/2 connections and
frames). The match completes, the attacker gets the fault, the other seats
play unharmed, nothing is left (`play` checks processes and containers)."""

from __future__ import annotations

import pytest

from arena.sandbox import process

from .attacks import Played, assert_others_unharmed, confined, play
from .conftest import level_params

pytestmark = pytest.mark.slow


def _expelled_for_flooding(p: Played) -> None:
    assert p.attacker.status == "forfeit", (p.attacker, p.log[-2000:])
    assert dict(p.attacker.faults)["malformed"] == 1, p.attacker
    assert any("(flooding)" in line for line in p.attacker.fault_log), p.attacker.fault_log


@pytest.mark.parametrize("level", level_params())
def test_another_seats_socket_cannot_be_replaced(tmp_path, level: str) -> None:  # type: ignore[no-untyped-def]
    """Before the others connect it tries to move their sockets aside and
    listen in their place (to read their cards and tokens in passing)."""
    if not confined(level):
        pytest.skip("the process level without a mount namespace of its own (not root) "
                    "reaches every socket of the machine: docs/sandbox.md")
    p = play(tmp_path, level, "socket_hijack", extra={"how": "replace"})
    assert p.attacks("reach") == ["0 other sockets"], p.log[-2000:]
    tries = [v for k, v in _attack_lines(p, "replace ")]
    assert len(tries) >= 2 and all(t.startswith("failed") for t in tries), tries
    assert_others_unharmed(p)
    assert p.attacker.status == "ok"


@pytest.mark.parametrize("level", level_params())
def test_another_seats_socket_cannot_be_reached(tmp_path, level: str) -> None:  # type: ignore[no-untyped-def]
    p = play(tmp_path, level, "socket_hijack", extra={"how": "hello"})
    tries = [v for k, v in _attack_lines(p, "hello ")]
    assert len(tries) >= 2 and all(t.startswith("failed") for t in tries), tries
    assert_others_unharmed(p)
    assert p.attacker.status == "ok"


def test_a_connection_from_another_seat_is_refused_and_expels_it(
    tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    """Where process-level bots share the machine's folders (the arena not
    run by root: no mount namespace), the attacker reaches the other seats'
    sockets and their tokens, and says Hello with them first. The referee
    asks the kernel who connected (SO_PEERCRED): not that seat's process,
    so it is refused, and the attacker, whose process it is, is expelled;
    the seats it aimed at connect and play."""
    monkeypatch.setattr(process, "private_mounts_available", lambda: False)
    p = play(tmp_path, "process", "socket_hijack", extra={"how": "hello"})
    assert p.attacks("reach") == ["2 other sockets"], p.log[-2000:]
    assert p.attacks("tokens") == ["2 other tokens"], p.log[-2000:]
    # What it got back it may not live to tell: it is stopped at its first try.
    tries = [v for k, v in _attack_lines(p, "hello ")]
    assert all(t in ("closed by the referee", "connected, then failed ECONNRESET") for t in tries), tries
    assert_others_unharmed(p)
    assert p.attacker.status == "forfeit" and p.attacker.decisions == 0
    assert any("connected to seat" in line and "not its own" in line
               for line in p.attacker.fault_log), p.attacker.fault_log


def _attack_lines(p: Played, prefix: str) -> list[tuple[str, str]]:
    import re

    return re.findall(rf"^ATTACK ({re.escape(prefix)}\S+): (.*)$", p.log, re.MULTILINE)


FLOODS = ("connections", "ping", "settings", "continuation", "data")


def _flood_params() -> list[object]:
    params: list[object] = []
    for level in level_params():
        for flood in FLOODS:
            lvl = level.values[0]  # type: ignore[attr-defined]
            if lvl == "docker" and flood not in ("ping", "connections", "data"):
                continue  # the gate is the same at every level; docker starts slowly
            params.append(pytest.param(lvl, flood, marks=level.marks,  # type: ignore[attr-defined]
                                       id=f"{lvl}-{flood}"))
    return params


@pytest.mark.parametrize(("level", "flood"), _flood_params())
def test_an_http2_flood_costs_the_flooder_its_seat(tmp_path, level: str, flood: str) -> None:  # type: ignore[no-untyped-def]
    p = play(tmp_path, level, "h2_flood", extra={"flood": flood, "seconds": 4.0},
             packages=("h2", "hpack", "hyperframe"))
    _expelled_for_flooding(p)  # at once: the bot is stopped before it can tell its count
    assert_others_unharmed(p)
