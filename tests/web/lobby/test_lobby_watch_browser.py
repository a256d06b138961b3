"""A lobby game of bots watched in Chromium to its end, through a real
`arena serve --lobby`, at 1280 and 390 px: the watch link on the game's
page, the table drawn from every frame, no card of any hand in the page's
DOM at any frame (checked against the engine re-playing the game's replay),
no horizontal overflow at 390 px, the all-cards replay linked at the end.
Screenshots go to test-artefacts/screenshots/."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest

from arena.game import GameState
from arena.referee.replay import parse_replay, replay_states
from arena.web.lobby.watch import Watching

from .lobby_pages import _lobby
from .watch_client import create, start

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-artefacts" / "screenshots"

# Each table the page draws, as the page's DOM holds it, kept by the page itself.
RECORD = """
window.__seen = [];
new MutationObserver(() => {
  const t = document.querySelector("#table .table");
  if (!t) return;
  const n = Number(t.getAttribute("data-frame"));
  const last = window.__seen[window.__seen.length - 1];
  if (last && last.n === n) return;
  window.__seen.push({
    n,
    faceUp: [...document.querySelectorAll("[data-card]")].map((e) => e.getAttribute("data-card")).filter((c) => c),
    hands: [...t.querySelectorAll(".hand")].map((h) => [...h.querySelectorAll(".card")].map((c) => c.getAttribute("data-card"))),
    talonTaken: [...document.querySelectorAll("[data-talon-taken]")].map((e) => e.getAttribute("data-talon-taken")),
  });
}).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-frame"] });
"""


def _states_by_frame(replay_text: str) -> dict[int, GameState]:
    """The engine's state at each watch frame: the game re-played from its
    replay through the lobby's own feed (a frame for each public change)."""
    replay = parse_replay(replay_text.splitlines(), "replay.jsonl")
    feed, watcher = Watching().join("g")  # watched: every frame is made
    feed.rules = replay.rules
    out: dict[int, GameState] = {}
    for state, _ in replay_states(replay):
        feed.tell(state.public_observation())
        out[feed.n] = state  # the last state of the frame (the same public view)
        while not watcher.queue.empty():
            watcher.queue.get_nowait()
    return out


def _get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read().decode()
    conn.close()
    return r.status, body


@pytest.mark.parametrize("width", [1280, 390])
def test_a_game_of_bots_watched_to_the_end(browser: Any, run_arena: Any, tmp_path: Path, width: int) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    port = int(base.rsplit(":", 1)[1])
    SHOTS.mkdir(parents=True, exist_ok=True)
    game, cookie = create(port, [("person", "a"), ("greedy", ""), ("random", "")], "max_deals=2")
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.add_init_script(RECORD)
    page.goto(f"{base}/lobby/game/{game}")
    page.click("#watch")
    page.wait_for_selector("#watch-page")
    assert page.url == f"{base}/lobby/game/{game}/watch"
    assert _get(port, f"/lobby/game/{game}/replay.jsonl")[0] == 404  # no card before the end
    start(port, game, cookie, fill="random")
    page.wait_for_selector("#over #player", timeout=180_000)
    page.screenshot(path=str(SHOTS / f"lobby-watch-{width}.png"), full_page=True)
    if width == 390:
        scroll, client = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, f"the watch page overflows at 390 px by {scroll - client} px"
    seen = page.evaluate("window.__seen")

    replay_link = page.get_attribute("#over #replay", "href")
    assert replay_link == f"/lobby/game/{game}/replay.jsonl"
    status, text = _get(port, replay_link)
    assert status == 200
    states = _states_by_frame(text)
    assert len(seen) >= 20 and seen[-1]["n"] == max(states), (len(seen), seen[-1]["n"], max(states))
    for snap in seen:
        state = states[snap["n"]]
        in_hands = {str(c) for s in range(state.players) for c in state.hand(s)}
        shown = set(snap["faceUp"]) & in_hands
        assert not shown, f"frame {snap['n']}: the page shows {sorted(shown)} of a hand"
        assert [len(h) for h in snap["hands"]] == [len(state.hand(s)) for s in range(state.players)]
        assert all(c == "" for h in snap["hands"] for c in h), f"frame {snap['n']}: a hand face up"
        public_talon = state.public_observation().talon
        assert all(t.split() == list(public_talon) for t in snap["talonTaken"])
    # Seat 0 was nobody's: the bot that played it is named (the frames' names).
    assert page.locator('#table .seat[data-seat="0"] .seat-name').inner_text() == "0: random"
    # The game seen to its end; the all-cards player is linked, and serves it.
    assert page.get_attribute("#watch-page", "data-over") == "finished"
    player = page.get_attribute("#over #player", "href")
    page.goto(f"{base}{player}")
    page.wait_for_selector(".table")
    assert json.loads(text.splitlines()[-1])["type"] == "result"
    proc.stop()
