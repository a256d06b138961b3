"""A watcher of a real `arena serve --lobby` over HTTP: create a game, start
it, read its watch stream's frames. Shared by the spectators' tests."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

FORM = {"Content-Type": "application/x-www-form-urlencoded"}

CONCEDE_BOT = '''"""Passes where it may, gives the first card it may, concedes at once."""
from arena.sdk import Bot, run


class Concede(Bot):
    name = "concede"
    version = "1"

    def act(self, obs):
        legal = obs.legal_actions
        for want in ("concede", "pass"):
            for a in legal:
                if str(a) == want:
                    return a
        return legal[0]


if __name__ == "__main__":
    raise SystemExit(run(Concede()))
'''


def concede_bot(folder: Path) -> Path:
    """A bot whose game tells nothing of any hand: with the talon unseen at
    an unopposed 100 and conceding allowed, every deal is the compulsory
    100, two passes, two face-down gives and a concession."""
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "concede"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    (folder / "bot.py").write_text(CONCEDE_BOT)
    return folder


def create(port: int, seats: list[tuple[str, str]], options: str = "") -> tuple[str, str]:
    """A game created by the lobby's form: its id and its creator's cookie."""
    form: dict[str, str] = {"preset": "standard", "options": options}
    for i, (choice, name) in enumerate(seats):
        form[f"seat{i}"] = choice
        form[f"name{i}"] = name
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/lobby/games", urlencode(form), FORM)
    r = conn.getresponse()
    r.read()
    assert r.status == 303, r.status
    game = str(r.getheader("Location")).rsplit("/", 1)[1]
    cookie = str(r.getheader("Set-Cookie")).split(";", 1)[0]
    conn.close()
    return game, cookie


def start(port: int, game: str, cookie: str, fill: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", f"/lobby/game/{game}/start", urlencode({"fill": fill}), {**FORM, "Cookie": cookie})
    r = conn.getresponse()
    r.read()
    assert r.status == 303, r.status
    conn.close()


def open_stream(port: int, game: str, source: str = "127.0.0.1") -> tuple[http.client.HTTPConnection, Any]:
    """The watch stream of `game` opened from the loopback address `source`
    (each address has its own rate limit): the connection and its response."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    conn.request("GET", f"/lobby/game/{game}/watch/stream")
    return conn, conn.getresponse()


def frames(response: Any) -> list[str]:
    """Every frame's text until the `over` frame (which is last)."""
    out: list[str] = []
    for raw in response:
        line = raw.decode().rstrip("\n")
        if not line.startswith("data: "):
            continue
        out.append(line[len("data: "):])
        if json.loads(out[-1])["type"] == "over":
            return out
    raise AssertionError(f"the stream ended without its over frame after {len(out)} frames")


def served_port(first_line: str) -> int:
    m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", first_line)
    assert m, first_line
    return int(m.group(1))
