"""Spectators over a real `arena serve --lobby` on loopback (real HTTP, real
bot processes): the refusals of a server open to the network (watchers per
game and in all: 503; streams a minute per address: 429), and the byte
test: two games whose public story is the same but whose cards are not
send the same watch frames, byte for byte, to the end."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest

from arena.web.lobby.watch import OPENS_PER_MINUTE, PER_GAME, TOTAL

from .watch_client import concede_bot, create, frames, open_stream, served_port, start

pytestmark = pytest.mark.slow

PEOPLE = [("person", "a"), ("person", "b"), ("person", "c")]


def _one_line(response: Any) -> str:
    body = response.read().decode()
    assert body.endswith("\n") and body.count("\n") == 1, body
    return body.strip()


def test_watchers_are_bounded_per_game_in_all_and_per_address(run_arena: Any, tmp_path: Path) -> None:
    proc = run_arena("serve", "--lobby", "--data", str(tmp_path / "lobby"), "--port", "0")
    port = served_port(proc.wait_line("serving on"))
    games = [create(port, PEOPLE)[0] for _ in range(TOTAL // PER_GAME + 1)]
    held: list[Any] = []
    addresses = (f"127.0.0.{k}" for k in range(10, 250))
    address, used = next(addresses), 0

    def watch(game: str) -> Any:
        nonlocal address, used
        if used == OPENS_PER_MINUTE:  # each address within its own rate limit
            address, used = next(addresses), 0
        used += 1
        conn, response = open_stream(port, game, address)
        held.append(conn)
        return response

    try:
        # One game: PER_GAME watchers, then one more is refused.
        for _ in range(PER_GAME):
            assert watch(games[0]).status == 200
        refused = watch(games[0])
        assert refused.status == 503
        assert _one_line(refused) == (f"game {games[0]} has {PER_GAME} watchers already (at most "
                                      f"{PER_GAME} at once): try again later")
        # The server: TOTAL watchers over all games, then one more is refused.
        for game in games[1:TOTAL // PER_GAME]:
            for _ in range(PER_GAME):
                assert watch(game).status == 200
        refused = watch(games[-1])
        assert refused.status == 503
        assert _one_line(refused) == (f"this server has {TOTAL} watchers already (at most {TOTAL} "
                                      "at once over all games): try again later")
        # A watcher that goes frees its place.
        held.pop(0).close()
        for _ in range(100):
            response = watch(games[-1])
            if response.status == 200:
                break
        assert response.status == 200
    finally:
        for conn in held:
            conn.close()
    # One address: OPENS_PER_MINUTE streams a minute, then 429 with Retry-After.
    statuses = []
    for _ in range(OPENS_PER_MINUTE):
        conn, response = open_stream(port, "0000", "127.0.0.250")  # no such game: 404, still counted
        statuses.append(response.status)
        conn.close()
    conn, response = open_stream(port, games[0], "127.0.0.250")
    assert statuses == [404] * OPENS_PER_MINUTE and response.status == 429
    assert int(response.getheader("Retry-After")) >= 1
    assert _one_line(response).startswith(
        f"Too many watch streams opened from this address (at most {OPENS_PER_MINUTE} a minute)")
    conn.close()
    # Another address is not held back by that one.
    conn, response = open_stream(port, games[0], "127.0.0.251")
    assert response.status == 200
    conn.close()
    # The watch page names no secret: its stream is the game's id alone, and no join link.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/lobby/game/{games[0]}/watch")
    page = conn.getresponse().read().decode()
    conn.close()
    assert f'data-stream="/lobby/game/{games[0]}/watch/stream"' in page and "/join/" not in page


def test_two_games_with_the_same_public_story_send_the_same_frames(run_arena: Any, tmp_path: Path) -> None:
    """Concede bots (watch_client.py) under rules where no card is ever
    turned face up: the public story of each deal is the same whatever the
    cards (the first dealer aside, drawn from the seed: games are played
    until two share it). Their watch frames are then the same bytes to the
    end of the game, while their cards differ (their replays)."""
    bot = concede_bot(tmp_path / "concede")
    proc = run_arena("serve", "--lobby", "--bot", str(bot), "--data", str(tmp_path / "lobby"),
                     "--port", "0", "--sandbox", "process")
    port = served_port(proc.wait_line("serving on"))
    options = "hidden_talon_on_100=true, bomb=czech, max_deals=3"
    by_dealer: dict[int, tuple[str, list[str]]] = {}
    for _ in range(8):
        game, cookie = create(port, [("person", "a"), ("concede", ""), ("concede", "")], options)
        conn, response = open_stream(port, game)  # before it starts: every frame
        assert response.status == 200
        start(port, game, cookie, fill="concede")
        got = frames(response)
        conn.close()
        over = json.loads(got[-1])
        assert over["status"] == "finished" and over["replay"] == f"/lobby/game/{game}/replay.jsonl"
        views = got[:-1]
        dealer = json.loads(views[0])["view"]["dealer"]
        if dealer in by_dealer:
            break
        by_dealer[dealer] = (game, views)
    else:
        pytest.fail(f"8 games and no two with the same first dealer: {sorted(by_dealer)}")
    first_game, first_views = by_dealer[dealer]
    assert len(views) > 3 * 4, "a deal's public story is at least four frames"
    assert views == first_views
    assert all(json.loads(v)["view"]["hands"] == [None, None, None] for v in views)
    # The cards were not the same: the gives the replays hold differ.
    gives = []
    for g in (first_game, game):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", f"/lobby/game/{g}/replay.jsonl")
        lines = [json.loads(x) for x in conn.getresponse().read().decode().splitlines()]
        gives.append([r["action"] for r in lines if r["type"] == "action" and r["action"].startswith("give")])
        conn.close()
    assert gives[0] and gives[1] and gives[0] != gives[1]


def test_an_open_watch_stream_does_not_hold_the_server_up(run_arena: Any, tmp_path: Path) -> None:
    """uvicorn waits for every request in flight when it is stopped, and a
    watch stream never ends by itself: one open watch page kept `arena
    serve --lobby` running after SIGTERM for good. Now the stream is told
    the server stops, ends, and the server exits."""
    import signal

    proc = run_arena("serve", "--lobby", "--data", str(tmp_path / "lobby"), "--port", "0")
    port = served_port(proc.wait_line("serving on"))
    game, _ = create(port, PEOPLE)
    conn, response = open_stream(port, game)
    assert response.status == 200
    assert response.readline() == b"retry: 3000\n"  # the stream is open and held
    proc.proc.send_signal(signal.SIGTERM)
    lines = [raw.decode() for raw in response]  # to its end
    assert "data: {\"type\":\"closed\",\"why\":\"the server is stopping\"}\n" in lines, lines
    code, _, err = proc.finish(timeout=60)  # a hang would end here, the test failed
    conn.close()
    assert code == 128 + signal.SIGTERM and "the server was stopped" in err and "Traceback" not in err, (code, err)
