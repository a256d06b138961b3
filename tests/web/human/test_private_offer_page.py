"""While another seat decides an offer made because of its hidden hand (the
Swedish four 9s after the exchange here), no seat is told of it
(docs/protocol.md#turn-notices): the notice of the turn that follows the
offer (the declarer's contract) comes before the offer is put, as where none
is made, and nothing after it; the person's page shows that seat, guesses
nothing past its per-move time, and goes on when the game does. Real browser, real `arena play`, real bots;
the seed is one where the engine, played as these seats play, makes that
offer to a bot other than the declarer."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules, new_game
from arena.referee.replay import read_replay

from .seat_driver import play_to_the_end

pytestmark = [pytest.mark.slow, pytest.mark.browser]

URL = re.compile(r"open (http://127\.0\.0\.1:\d+/join/\S+)")
PER_MOVE = 5  # the bots' (and so the notices') per-move time; the bank covers the wait

# Passes where it may, else the first legal action; a private offer (its
# legal actions hold "redeal") it declines once the file "go" is in its
# folder (which a sandboxed bot sees, read-only): the test decides when.
OFFER_BOT = """import os, time
from arena.sdk import Bot, run


class Holder(Bot):
    name = {name!r}

    def act(self, obs):
        texts = obs.legal_texts
        if "redeal" in texts:
            end = time.monotonic() + 45
            while not os.path.exists("go") and time.monotonic() < end:
                time.sleep(0.05)
        return "pass" if "pass" in texts else texts[0]


raise SystemExit(run(Holder()))
"""


def _policy(texts: list[str]) -> str:
    return "pass" if "pass" in texts else texts[0]


def _seed() -> tuple[int, int, int, int]:
    """A seed whose first deal, every seat playing _policy, offers the four 9s
    to a bot seat that is not the declarer (also a bot): (seed, holder,
    declarer, the number of actions before the offer)."""
    rules = Rules.preset("swedish").replace(max_deals=1)
    for seed in range(2000):
        g, n = new_game(rules, seed=seed), 0
        while not g.is_over and not g.private_offer:
            n += 1
            legal = g.legal_actions()
            texts = [str(a) for a in legal]
            g = g.apply(legal[texts.index(_policy(texts))])
        if g.private_offer and g.to_act not in (0, g.declarer) and g.declarer not in (0, None):
            assert g.phase == "redeal"
            return seed, int(g.to_act), int(g.declarer), n  # type: ignore[arg-type]
    raise AssertionError("no seed with a four-9s offer")


def _act(page: Any, text: str) -> None:
    """Click the page's control for the legal action `text`."""
    verb, *args = text.split()
    if verb in ("play", "give", "pick"):
        page.locator(f'#hand button.card[data-card="{args[0]}"]').click()
        if page.locator("#actions[data-choice]").count():
            page.locator(f'#actions[data-choice] button[data-action="{text}"]').click()
    elif verb in ("bid", "contract"):
        while page.locator(f"#{verb}-amount").inner_text() != args[0]:
            page.locator(f"#{verb}-plus").click()
        page.locator(f"#{verb}-go").click()
    else:
        page.locator(f'#actions button[data-action="{text}"]').click()


def test_during_a_private_offer_the_page_shows_the_last_seat_it_was_told_of(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    seed, holder, declarer, before = _seed()
    bots = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "bot.py").write_text(OFFER_BOT.format(name=name))
        (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                         'run = "python3 bot.py"\n')
        bots.append(str(folder))
    names = {1: "one", 2: "two"}
    replay = tmp_path / "offer.jsonl"
    proc = run_arena("play", "human", *bots, "--no-open", "--rules", "swedish", "--seed", str(seed),
                     "--option", "max_deals=1", "--sandbox", "process", "--time-per-move", str(PER_MOVE),
                     "--bank", "60", "--replay", str(replay))
    url = URL.search(proc.wait_line("open http"))
    assert url
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    received: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(json.loads(f))))
    page.goto(url.group(1))
    # The person plays as the seed's search did, up to the declarer's second
    # card given (the last decision before the offer); the page is then told
    # of the declarer's contract, the turn that follows the offer if it is
    # declined, before the offer is put.
    contract = f"seat {declarer} ({names[declarer]}) to act (contract)"
    end = time.monotonic() + 90
    while not (len([f for f in received if "turn" in f.get("message", {})
                    and f["message"]["turn"]["phase"] == "exchange"]) == 2
               and page.locator("#status").inner_text().startswith(contract)):
        assert time.monotonic() < end, "the page never showed the declarer's contract"
        legal = page.locator("#seat-page").get_attribute("data-legal") or ""
        if legal:
            _act(page, _policy(legal.split("|")))
            page.wait_for_function("l => document.getElementById('seat-page').dataset.legal !== l",
                                   arg=legal)
        else:
            page.wait_for_timeout(50)

    # The declarer gives its card at once and the holder decides the offer
    # (the replay shows it below). The last the page was told: the declarer's
    # contract. It names that seat, and no other.
    who = rf"seat {declarer} \({names[declarer]}\)"
    assert re.match(rf"{who} to act \(contract\)", page.locator("#status").inner_text())
    assert page.locator("#seat-page").get_attribute("data-to-act") == str(declarer)
    assert page.locator(f'#table .seat.to-act[data-seat="{declarer}"]').count() == 1
    assert not page.locator(f"#table .seat.to-act:not([data-seat='{declarer}'])").count()
    assert not re.search(rf"seat {holder} \(\w+\) to act", page.locator("#status").inner_text())
    told = len(received)
    last = [f for f in received if f["type"] == "referee"][-1]["message"]
    assert "turn" in last and int(last["turn"]["seat"]) == declarer
    assert last["turn"]["phase"] == "contract"
    # Its per-move time (PER_MOVE) runs out while the offer waits: the page says
    # only that, not that the seat is on its bank (it may have answered).
    page.wait_for_function("() => !/left$/.test(document.getElementById('clock').textContent)",
                           timeout=30_000)
    clock = page.locator("#clock").inner_text()
    assert re.fullmatch(rf"{who}: past its per-move time", clock), clock
    assert "bank" not in clock
    assert len(received) == told  # nothing at all was told meanwhile
    assert not re.search(rf"seat {holder} \(\w+\) to act", page.locator("#status").inner_text())

    for folder in bots:
        (Path(folder) / "go").touch()  # declined: the declarer decides its contract, the page goes on after it
    page.wait_for_function("() => !document.getElementById('status').textContent.includes('(contract)')",
                           timeout=30_000)
    # The contract's notice is not sent a second time once the offer is declined.
    nxt = next(f for f in received[told:] if f["type"] == "referee")["message"]
    assert not ("turn" in nxt and nxt["turn"]["phase"] == "contract"), nxt
    play_to_the_end(page)
    code, _out, err = proc.finish()
    assert code == 0, err
    assert not errors
    rep = read_replay(replay)
    assert rep.result["statuses"] == ["ok"] * 3
    # The match went as the seed's search said: the declarer gave its second
    # card within its per-move time, and the holder was deciding the offer
    # from then until "go", past that time (so while the page said so above);
    # it declined in time (on its bank).
    give, offer = rep.actions[before - 1], rep.actions[before]
    assert give["seat"] == declarer and give["action"].startswith("give ") and give["time"] < PER_MOVE
    assert (offer["seat"], offer["action"], offer["fault"]) == (holder, "pass", None)
    assert offer["time"] > PER_MOVE
