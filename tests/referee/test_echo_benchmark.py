"""benchmarks/referee.py's echo baselines really play ping-pong with client
processes over a unix socket: one client, and three answered in turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.mark.slow
@pytest.mark.parametrize("style", ["aio", "sync"])
@pytest.mark.parametrize("clients", [1, 3])
def test_echo_answers_every_exchange(style: str, clients: int,
                                     load_script: Callable[[str, str], ModuleType]) -> None:
    bench = load_script("benchmarks/referee.py", "referee_bench")
    rounds = 120
    times = asyncio.run(bench.echo_round_trips(rounds, b"request" * 80, 17, style, clients))
    # The server starts only once `clients` streams said hello, and an exchange
    # ends only when the stream asked answers: finishing means every client
    # connected and answered its turns. The first tenth is warm-up, left out.
    assert len(times) == rounds - rounds // 10
    assert all(t > 0 for t in times)
