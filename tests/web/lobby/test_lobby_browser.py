"""`arena serve --lobby`: two people in two browser contexts and one real bot
process play a game created in the lobby; seats are joined by single-use
links; people's records show in the lobby; the game opens in the player."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from arena.referee.replay import check, read_replay

from ..human.seat_driver import play_all_to_the_end, play_to_the_end, step
from .lobby_pages import _create, _lobby, reopen

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]


def test_two_people_and_a_bot_play_a_game_from_the_lobby(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    alice_ctx, bob_ctx = browser.new_context(), browser.new_context()
    creator = alice_ctx.new_page()
    # One deal: bob answers in it, leaves and comes back, the game ends.
    links = _create(creator, base, [("person", "alice"), ("person", "bob"), ("random", "")],
                    "max_deals=1")
    game_url = creator.url
    assert len(links) == 2 and all("/join/" in u for u in links)
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    alice.goto(links[0])
    # Someone else opening alice's link after her is refused (a link admits one browser).
    thief = browser.new_context().new_page()
    response = thief.goto(links[0])
    assert response is not None and response.status == 403
    # The game waits for bob; then starts by itself.
    creator = reopen(creator, game_url)
    assert creator.locator("#game-status").get_attribute("data-status") == "waiting"
    bob.goto(links[1])
    # Bob closes his tab once during the game and comes back within the grace.
    for _ in range(2000):  # play on until bob has answered once
        if bob.locator("#seat-page[data-sent]").count():
            break
        step(alice) or step(bob) or time.sleep(0.05)
    seat_url = bob.url
    bob.close()
    bob = bob_ctx.new_page()
    bob.goto(seat_url)
    play_all_to_the_end([alice, bob])
    assert "alice" in alice.locator("#result").inner_text()

    # The lobby's store has the game and both records.
    creator = reopen(creator, game_url)
    creator.wait_for_function("document.querySelector('#game-status').dataset.status === 'finished'",
                              timeout=30_000)
    creator = reopen(creator, f"{base}/lobby")
    people = {row.get_attribute("data-name"): row for row in creator.locator("#people tr[data-name]").all()}
    assert set(people) == {"alice", "bob"}
    assert all(people[n].locator(".games").inner_text() == "1" for n in people)
    wins = sum(int(people[n].locator(".wins").inner_text()) for n in people)
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    rows = db.execute("SELECT seat, kind, name, place FROM seats ORDER BY seat").fetchall()
    assert [(r[1], r[2]) for r in rows] == [("person", "alice"), ("person", "bob"), ("bot", "random")]
    assert wins == sum(1 for r in rows[:2] if r[3] == 1)
    replay = Path(db.execute("SELECT replay_path FROM games").fetchone()[0])
    rep = read_replay(replay)
    assert [b["name"] for b in rep.header["bots"]] == ["alice", "bob", "random"]
    assert rep.header["sandbox"][:2] == ["human", "human"]
    assert not any(n for s in (0, 1) for n in rep.result["faults"][s].values())  # bob came back in time
    assert check(replay) == tuple(rep.result["totals"])
    # The game is an ordinary replay that opens in the player.
    creator = reopen(creator, game_url)
    creator.click("#player")
    assert "/r/lobby-" in creator.url
    creator.wait_for_selector(".card", timeout=30_000)
    proc.stop()
    err = proc.proc.stderr.read() if proc.proc.stderr else ""
    assert "refused a second use of its join link" in err


def test_a_seat_nobody_took_is_played_by_a_bot(browser: Any, run_arena: Any, tmp_path: Path) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    ctx = browser.new_context()
    creator = ctx.new_page()
    links = _create(creator, base, [("person", "ann"), ("person", "carol"), ("random", "")],
                    "max_deals=1")
    game_url = creator.url
    ann = ctx.new_page()
    ann.goto(links[0])
    creator = reopen(creator, game_url)
    creator.select_option("select[name=fill]", "greedy")
    creator.click("#start-now")
    play_to_the_end(ann)
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    creator = reopen(creator, game_url)
    creator.wait_for_function("document.querySelector('#game-status').dataset.status === 'finished'",
                              timeout=30_000)
    assert db.execute("SELECT kind, name FROM seats WHERE seat = 1").fetchone() == ("bot", "greedy")
    # carol's link no longer opens a seat.
    response = ctx.new_page().goto(links[1])
    assert response is not None and response.status == 404
    proc.stop()


def test_bad_lobby_input_is_an_error_page_not_a_traceback(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    proc, base = _lobby(run_arena, tmp_path)
    page = browser.new_context().new_page()
    page.goto(f"{base}/lobby")
    page.click("#create details summary")
    page.fill("input[name=options]", "colour=blue")
    page.click("#create-go")
    assert "The game cannot be created" in page.locator("#error-message").inner_text()
    assert "colour" in page.locator("#error-message").inner_text()
    for path in ("/lobby/game/nope", "/join/nope", "/game/x/seat/0", "/lobby/game/nope/replay.jsonl"):
        response = page.goto(base + path)
        assert response is not None and response.status in (403, 404), path
        assert "Traceback" not in page.content()
    proc.stop()


def test_stopping_the_server_mid_game_fails_the_game_cleanly(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    """Ctrl-C during a game: the match is stopped on the server's own loop (its
    bots and referee shut down), the game is stored as failed, the exit is clean."""
    import signal

    proc, base = _lobby(run_arena, tmp_path)
    ctx = browser.new_context()
    creator = ctx.new_page()
    links = _create(creator, base, [("person", "dan"), ("random", ""), ("greedy", "")], "")
    dan = ctx.new_page()
    dan.goto(links[0])
    dan.wait_for_selector("#status.turn", timeout=60_000)
    proc.proc.send_signal(signal.SIGINT)
    code, _out, err = proc.finish(timeout=60)
    assert code in (0, 130), err  # not a crash of the interpreter (a half shut gRPC)
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    assert db.execute("SELECT status, error FROM games").fetchall() == [("failed", "the server stopped")]


def test_rule_controls_come_from_the_engine_and_are_checked_by_the_server(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    """The form's controls are the engine's options set to the chosen
    preset's values; what they post is the game's rules; the per-move time
    is the people's clock; bad values are an error page naming the field."""
    import html
    import json

    from arena.game import Rules
    from arena.game.rules import option_kinds

    proc, base = _lobby(run_arena, tmp_path)
    page = browser.new_context().new_page()
    page.goto(f"{base}/")  # the web app's index links to the lobby it serves
    page.click("#lobby-link a")
    page.wait_for_url(f"{base}/lobby")
    shown = page.locator("#rule-options .option").evaluate_all(
        "els => els.map(e => [e.dataset.option, e.dataset.kind])")
    assert sorted(shown) == sorted([k.name, k.kind] for k in option_kinds())  # grouped, each once
    # Another preset: the form reloads with its values.
    page.select_option("#preset", "czech")
    page.wait_for_url("**/lobby?preset=czech")
    czech = Rules.preset("czech")
    assert page.locator("select[name=opt_blind]").input_value() == czech.blind
    assert page.locator("input[name=opt_golden_horse]").is_checked() == czech.golden_horse
    assert page.locator("input[name=opt_bolts]").is_checked() == czech.bolts
    redeal = page.locator("input[name=opt_redeal]:checked").evaluate_all("els => els.map(e => e.value)")
    assert tuple(redeal) == czech.redeal
    # Change some options with the controls; one more with the text field.
    page.locator("input[name=opt_golden_horse]").set_checked(not czech.golden_horse)
    page.select_option("select[name=opt_blind]", "finnish")
    page.fill("input[name=opt_max_deals]", "3")
    page.fill("#per-move", "30")
    page.select_option("select[name=seat0]", "person")
    page.fill("input[name=name0]", "dora")
    page.click("#create-go")
    page.wait_for_selector("#links a.join")
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    rules = json.loads(db.execute("SELECT rules FROM games").fetchone()[0])
    assert rules == {"preset": "czech", "options": {
        "blind": "finnish", "golden_horse": str(not czech.golden_horse).lower(), "max_deals": "3"}}
    # The person's clock: 30 s per move plus the server's bank (120 s).
    link = page.locator("#links a.join").first.get_attribute("href")
    seat = browser.new_context().new_page()
    seat.goto(link)
    seat.wait_for_selector("#status.turn", timeout=60_000)
    minutes, seconds = map(int, re.fullmatch(r"(\d+):(\d\d) left",  # type: ignore[union-attr]
                                             seat.locator("#clock").inner_text()).groups())
    assert 120 < 60 * minutes + seconds <= 150
    seat.close()
    # Bad values, posted past the browser's own checks: the server says which.
    for fields, words in (({"per_move": "0"}, "per-move time '0'"),
                          ({"per_move": "abc"}, "per-move time 'abc'"),
                          ({"opt_max_deals": "0"}, "option 'max_deals'"),
                          ({"opt_blind": "purple"}, "option 'blind'"),
                          ({"opt_redeal": "sometimes"}, "option 'redeal'")):
        form = {"preset": "standard", "controls": "1", "seat0": "person", "name0": "x",
                "seat1": "random", "seat2": "greedy", "per_move": "20",
                **{f"opt_{c}": v for c, v in Rules.preset("standard").options_text().items()
                   if v not in ("true", "false") and c != "redeal"}}
        form.update(fields)
        response = page.request.post(f"{base}/lobby/games", form=form, max_redirects=0)
        assert response.status == 400, fields
        body = html.unescape(response.text())
        assert "The game cannot be created" in body and words in body, (fields, body)
        assert "Traceback" not in body
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1  # none of them was created
    proc.stop()


def test_each_persons_seat_may_have_its_own_per_move_time(
    browser: Any, run_arena: Any, tmp_path: Path
) -> None:
    """The form's per-seat time: alice plays under 15 s a move, bob under
    the game's 40 s (his field left empty); the bank stays the server's. The
    referee's record of the match (the replay header) and each person's own
    clock say so, and so do the lobby's store and the game's page; a bad
    per-seat value is an error page naming the seat. The lobby folder was
    kept by an arena before per-move times were stored (schema 1): the
    server migrates it and its old game still shows, "not recorded"."""
    import html

    from .stores import make_schema_1_store

    (tmp_path / "lobby").mkdir()
    make_schema_1_store(tmp_path / "lobby" / "lobby.sqlite")
    proc, base = _lobby(run_arena, tmp_path)
    alice_ctx, bob_ctx = browser.new_context(), browser.new_context()
    creator = alice_ctx.new_page()
    creator = reopen(creator, f"{base}/lobby")
    for i, (choice, name) in enumerate([("person", "alice"), ("person", "bob"), ("random", "")]):
        creator.select_option(f"select[name=seat{i}]", choice)
        creator.fill(f"input[name=name{i}]", name)
    creator.fill("#per-move", "40")
    creator.fill("input[name=time0]", "15")
    creator.click("#create details summary")
    creator.fill("input[name=options]", "max_deals=1")
    creator.click("#create-go")
    creator.wait_for_selector("#links a.join")
    links = creator.locator("#links a.join").evaluate_all("els => els.map(e => e.href)")
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    alice.goto(links[0])
    bob.goto(links[1])
    clocks: dict[str, int] = {}
    end = time.monotonic() + 60
    while len(clocks) < 2 and time.monotonic() < end:  # each one's own clock, on its first turn
        for who, page in (("alice", alice), ("bob", bob)):
            clock = page.locator("#clock:not([hidden]):not(.other)")
            if who not in clocks and clock.count():
                m = re.fullmatch(r"(\d+):(\d\d) left", clock.inner_text())
                assert m, clock.inner_text()
                clocks[who] = 60 * int(m.group(1)) + int(m.group(2))
        step(alice) or step(bob) or time.sleep(0.05)
    # Counting down from per-move + bank (120 s): at most 135 s for alice, 160 s for bob.
    assert 0 < clocks["alice"] <= 135 and 0 < clocks["bob"] <= 160, clocks
    play_all_to_the_end([alice, bob])
    db = sqlite3.connect(tmp_path / "lobby" / "lobby.sqlite")
    creator = reopen(creator, creator.url)
    rep = None
    for _ in range(300):
        row = db.execute("SELECT replay_path, status FROM games WHERE id != 'old'").fetchone()
        if row[1] == "finished":
            rep = read_replay(Path(row[0]))
            break
        time.sleep(0.1)
    assert rep is not None, "the game did not finish"
    own = rep.header["seat_time_controls"]
    assert set(own) == {"0", "1"}
    assert own["0"]["per_move"] == 15.0 and own["1"]["per_move"] == 40.0
    assert own["0"]["bank"] == own["1"]["bank"] == 120.0
    assert rep.header["time_control"]["per_move"] != 15.0  # the bot's clock is the server's
    # The lobby's store keeps them, and the game's page shows them.
    game_id = creator.url.rsplit("/", 1)[1]
    assert db.execute("SELECT per_move FROM games WHERE id=?", (game_id,)).fetchone() == (40.0,)
    assert db.execute("SELECT seat, per_move FROM seats WHERE game=? ORDER BY seat",
                      (game_id,)).fetchall() == [(0, 15.0), (1, None), (2, None)]
    creator = reopen(creator, creator.url)
    shown = creator.locator("#seats tr[data-seat] .per-move").all_inner_texts()
    assert shown == ["15 s (own)", "40 s", ""]
    creator = reopen(creator, f"{base}/lobby/game/old")  # the migrated file's game
    assert creator.locator("#seats tr[data-seat] .per-move").all_inner_texts() == ["not recorded", "", ""]
    assert creator.locator("#seats tr[data-seat='0'] td").nth(1).inner_text() == "ann"
    # A bad per-seat value, posted past the browser's own checks.
    form = {"preset": "standard", "seat0": "person", "name0": "x", "time0": "-3",
            "seat1": "random", "seat2": "greedy"}
    response = creator.request.post(f"{base}/lobby/games", form=form, max_redirects=0)
    body = html.unescape(response.text())
    assert response.status == 400 and "seat 0: per-move time '-3'" in body, body
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2  # the old one and the new
    proc.stop()
