"""`arena ladder serve` as an organiser runs it (a real process on a
loopback port, real bot processes), and `arena submit` and a browser as
authors use them: each refusal of a write answered with one line and
nothing stored; an upload from the command line and one from the browser
validated onto the table; a bot's log shown to its owner only.

The tests of this module share one server and one bot submitted from the
command line (module fixtures; an xdist group keeps them on one worker),
whatever order they run in; the rate-limit test, which spends the
address's writes, has a server of its own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from clihelp import cli, start
from web.browser import browser

from arena.ladder.config import load_config
from arena.ladder.store import Store

from .archives import folder_files, special, tar_gz, zip_bytes
from .ladders import bot_copy, short_ladder

ROOT_DIR = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ladder-serve")]

TOKENS = {"alice": "arena_" + "a" * 43, "bob": "arena_" + "b" * 43, "carol": "arena_" + "c" * 43}
WRITES = 60


@dataclass
class Server:
    url: str
    folder: Path
    tmp: Path
    proc: subprocess.Popen[str]


@contextmanager
def serving(tmp: Path, writes: int) -> Iterator[Server]:
    """`arena ladder serve` of a short ladder with the users of TOKENS, on a free port."""
    folder = short_ladder(tmp / "l", quotas={"submissions_per_day": 3, "upload_bytes": 200_000,
                                             "writes_per_minute": writes})
    store = Store(load_config(folder).store_path)
    for name, token in TOKENS.items():
        store.add_user(name, token)
    store.close()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = start("ladder", "serve", folder, "--port", "0", cwd=None, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
    assert m, f"arena ladder serve said {line!r}"
    try:
        yield Server(m.group(1), folder, tmp, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    log = proc.stderr.read()
    for token in TOKENS.values():  # secrets never reach the log
        assert token not in log


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("ladder-serve"), WRITES) as s:
        yield s


@pytest.fixture(scope="module")
def alicebot(server: Server) -> tuple[Path, Path, str]:
    """alice's bot submitted with `arena submit` and followed onto the table:
    (its folder, alice's token file, what the command printed)."""
    bot = bot_copy(server.tmp, "greedy", "alicebot")
    token_file = server.tmp / "alice.token"
    token_file.write_text(TOKENS["alice"] + "\n")
    out = cli("submit", f"{server.url}/ladder/", bot, "--token-file", token_file, timeout=180)
    assert out.returncode == 0, out.stderr
    return bot, token_file, out.stdout


def call(url: str, *, body: bytes | None = None, token: str | None = None,
         headers: dict[str, str] | None = None,
         opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str, Any]:
    """(status, body text, headers) of one request; an HTTP error is an answer too."""
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for k, v in (headers or {}).items():
        request.add_header(k, v)
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=30) as r:
            return r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), exc.headers


def state_of(server: Server, sid: int, token: str, *, until: tuple[str, ...] = ("active", "refused"),
             seconds: float = 120) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while True:
        status, text, _ = call(f"{server.url}/api/ladder/submissions/{sid}", token=token)
        assert status == 200, text
        data: dict[str, Any] = json.loads(text)
        if data["state"] in until:
            return data
        assert time.monotonic() < end, f"submission {sid} still {data['state']}"
        time.sleep(0.3)


def stored(server: Server) -> tuple[list[int], list[str], list[str]]:
    """Submission ids in the store, the submission folders and what is
    left in the staging folder."""
    store = Store(load_config(server.folder).store_path)
    try:
        ids = [s.id for s in store.submissions()]
    finally:
        store.close()
    subs = sorted(p.name for p in (server.folder / "submissions").glob("*")) \
        if (server.folder / "submissions").is_dir() else []
    incoming = sorted(p.name for p in (server.folder / "incoming").glob("*")) \
        if (server.folder / "incoming").is_dir() else []
    return ids, subs, incoming


def signed_in(server: Server, name: str) -> tuple[urllib.request.OpenerDirector, str]:
    """A browser-like client signed in as `name`: its opener (cookies) and the session's CSRF token."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    status, page, _ = call(f"{server.url}/ladder/signin", opener=opener)
    assert status == 200
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf
    body = f"csrf={csrf.group(1)}&token={TOKENS[name]}".encode()
    status, page, _ = call(f"{server.url}/ladder/signin", body=body, opener=opener,
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200 and f"<h1>{name}</h1>" in page, page[:300]
    _, upload, _ = call(f"{server.url}/ladder/upload", opener=opener)
    found = re.search(r'data-csrf="([^"]+)"', upload)
    assert found
    return opener, found.group(1)


def test_a_bot_submitted_from_the_cli_is_validated_onto_the_table(
        server: Server, alicebot: tuple[Path, Path, str]) -> None:
    bot, token_file, printed = alicebot
    assert re.search(r"submission \d+: alicebot 1, \d+ bytes sent", printed), printed
    assert "  active" in printed and "on the ladder:" in printed
    _, text, _ = call(f"{server.url}/api/ladder/table.json")
    rows = {r["bot"]: r for r in json.loads(text)["rows"]}
    assert rows["alicebot"]["author"] == "alice" and {"random", "greedy"} <= set(rows)
    _, page, _ = call(f"{server.url}/ladder/")
    assert "alicebot" in page and "Traceback" not in page
    # The same content again: refused, with the reason, exit status 2.
    again = cli("submit", server.url, bot, "--token-file", token_file, "--no-wait")
    assert again.returncode == 2 and "409" in again.stderr and "the same content" in again.stderr
    # A token on no channel: one line naming where to put one.
    none = cli("submit", server.url, bot, env={**os.environ, "XDG_CONFIG_HOME": str(server.tmp)})
    assert none.returncode == 2 and "no token" in none.stderr


def test_a_bots_log_is_its_owners_only(server: Server, alicebot: tuple[Path, Path, str]) -> None:
    status, text, _ = call(f"{server.url}/api/ladder/table.json")
    alicebot = next(r for r in json.loads(text)["rows"] if r["bot"] == "alicebot")
    sub_url = f"{server.url}/ladder/submission/{alicebot['id']}"
    alice, _ = signed_in(server, "alice")
    _, page, _ = call(sub_url, opener=alice)
    log = re.search(r'href="(/ladder/log/[^"]+)" id="validation-log"', page)
    assert log, "the owner sees the validation match's log link"
    status, text, _ = call(server.url + log.group(1), opener=alice)
    assert status == 200, text  # the bot wrote nothing to stderr: an empty log, but its own
    bob, _ = signed_in(server, "bob")
    status, text, _ = call(server.url + log.group(1), opener=bob)
    assert status == 403 and "owner only" in text
    status, text, _ = call(server.url + log.group(1))
    assert status == 403
    _, page, _ = call(sub_url, opener=bob)
    assert "validation-log" not in page


def test_every_refused_write_is_one_line_and_stores_nothing(
        server: Server, alicebot: tuple[Path, Path, str]) -> None:
    before = stored(server)
    api = f"{server.url}/api/ladder/submissions"
    good = tar_gz(folder_files(bot_copy(server.tmp, "random", "bobbot")))
    base = folder_files(bot_copy(server.tmp, "random", "bobbad"))
    cases: list[tuple[str, bytes, str | None, int, str]] = [
        ("no token", good, None, 401, "no token"),
        ("wrong token", good, "arena_" + "z" * 43, 401, "opens nothing"),
        ("absolute path", tar_gz({**base, "/etc/x": b"1"}), TOKENS["bob"], 400, "archive refused"),
        ("dot-dot", tar_gz({**base, "../x": b"1"}), TOKENS["bob"], 400, "archive refused"),
        ("symlink", tar_gz(base, extra=[special("l", b"2", "/etc/passwd")]), TOKENS["bob"], 400,
         "archive refused"),
        ("hard link", tar_gz(base, extra=[special("h", b"1", "bot.py")]), TOKENS["bob"], 400,
         "archive refused"),
        ("device", tar_gz(base, extra=[special("d", b"3")]), TOKENS["bob"], 400, "archive refused"),
        ("zip symlink", zip_bytes({**base, "l": b"/etc"}, modes={"l": 0o120777}), TOKENS["bob"],
         400, "archive refused"),
        ("bomb", tar_gz({**base, "big": b"\0" * 60_000_000}), TOKENS["bob"], 400,
         "unpacks to more than"),
        ("too large", b"\0" * 300_000, TOKENS["bob"], 413, "bytes allowed"),
        ("not an archive", b"hello", TOKENS["bob"], 400, "not a tar.gz or a zip"),
        ("no bot.toml", tar_gz({"bot.py": b"x"}), TOKENS["bob"], 400, "no bot.toml"),
        ("another's name", tar_gz(folder_files(bot_copy(server.tmp, "random", "alicebot", "9"))),
         TOKENS["bob"], 403, "another author's bot"),
    ]
    for what, body, token, code, fragment in cases:
        status, text, _ = call(api, body=body, token=token)
        assert status == code and fragment in text, (what, status, text)
        assert len(text.strip().splitlines()) == 1 and "Traceback" not in text, (what, text)
    # The browser's upload: a session, a CSRF token of that session, this origin.
    bob, csrf = signed_in(server, "bob")
    upload = f"{server.url}/ladder/upload"
    status, text, _ = call(upload, body=good, opener=bob)
    assert status == 403 and "CSRF" in text
    status, text, _ = call(upload, body=good, opener=bob, headers={"X-CSRF-Token": "x" * 43})
    assert status == 403 and "CSRF" in text
    status, text, _ = call(upload, body=good, opener=bob,
                           headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"})
    assert status == 403 and "another site" in text
    _, alice_csrf = signed_in(server, "alice")
    status, text, _ = call(upload, body=good, opener=bob, headers={"X-CSRF-Token": alice_csrf})
    assert status == 403, "another session's CSRF token opens nothing"
    status, text, _ = call(upload, body=good)
    assert status in (401, 403)
    assert stored(server) == before, "nothing of a refused request is stored"
    # The daily quota (3): two more for carol, then 429 with Retry-After.
    for version in ("1", "2"):
        body = tar_gz(folder_files(bot_copy(server.tmp, "random", "carolbot", version)))
        status, text, _ = call(api, body=body, token=TOKENS["carol"])
        assert status == 201, text
    body = tar_gz(folder_files(bot_copy(server.tmp, "random", "carolbot", "3")))
    status, text, headers = call(api, body=body, token=TOKENS["carol"])
    assert status == 201, text
    after = stored(server)
    body = tar_gz(folder_files(bot_copy(server.tmp, "random", "carolbot", "4")))
    status, text, headers = call(api, body=body, token=TOKENS["carol"])
    assert status == 429 and "quota" in text and int(headers["Retry-After"]) > 0, text
    assert stored(server) == after


def test_a_frozen_ladder_takes_no_submission_and_shows_it(
        server: Server, alicebot: tuple[Path, Path, str]) -> None:
    api = f"{server.url}/api/ladder/submissions"
    # Read (and so cached for readers not signed in) before the freeze, by
    # another process: the page still shows it at once.
    status, text, _ = call(f"{server.url}/ladder/live")
    assert status == 200 and 'id="frozen"' not in text
    assert "frozen" in cli("ladder", "freeze", server.folder).stdout
    try:
        before = stored(server)
        body = tar_gz(folder_files(bot_copy(server.tmp, "random", "bobfrozen")))
        status, text, _ = call(api, body=body, token=TOKENS["bob"])
        assert status == 403 and "frozen for its finals" in text, text
        assert len(text.strip().splitlines()) == 1
        assert stored(server) == before
        status, text, _ = call(f"{server.url}/ladder/live")
        assert status == 200 and 'id="frozen"' in text
    finally:
        assert "unfrozen" in cli("ladder", "freeze", server.folder, "--undo").stdout
    status, text, _ = call(f"{server.url}/ladder/live")
    assert status == 200 and 'id="frozen"' not in text
    # The batch rating, on demand: every active bot, as a page and as JSON.
    status, page, _ = call(f"{server.url}/ladder/ratings")
    assert status == 200 and 'id="batch-table"' in page and "alicebot" in page
    status, text, _ = call(f"{server.url}/api/ladder/ratings.json")
    rows = json.loads(text)["rows"]
    assert status == 200 and "alicebot" in {r["bot"] for r in rows}
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))


def test_a_finished_blocks_replays_are_served_through_the_engines_seat_views(
        server: Server, alicebot: tuple[Path, Path, str]) -> None:
    """A block's matches once it is over: the player page, and each seat's
    view byte for byte what arena.web.replays builds from the engine's
    observations (tests/web/test_views.py: no byte of it moves when cards
    that seat cannot see are changed), never a view made here."""
    from arena.web.replays import player_json

    end = time.monotonic() + 180
    while True:
        store = Store(load_config(server.folder).store_path)
        try:
            done = store.blocks(status="finished")
            rows = store.block_matches(done[0].id) if done else []
        finally:
            store.close()
        if rows:
            break
        assert time.monotonic() < end, "no block finished"
        time.sleep(1)
    row = rows[0]
    status, page, _ = call(f"{server.url}/ladder/match/{row.match_id}")
    assert status == 200 and row.match_id in page
    replay = Path(row.replay_path)
    served = {}
    for view in ("all", "0", "1", "2"):
        status, text, _ = call(f"{server.url}/api/ladder/match/{row.match_id}/{view}.json")
        assert status == 200, text
        expected = player_json(replay, None if view == "all" else int(view))
        assert text.encode() == expected, view
        served[view] = text
    assert len(set(served.values())) == 4, "each seat is served a view of its own"
    status, text, _ = call(f"{server.url}/api/ladder/match/{row.match_id}/3.json")
    assert status == 404 and len(text.strip().splitlines()) == 1
    # "²" passes str.isdigit, not int(): it was a 500 on both.
    status, text, _ = call(f"{server.url}/api/ladder/match/{row.match_id}/%C2%B2.json")
    assert status == 404 and len(text.strip().splitlines()) == 1, text
    status, page, _ = call(f"{server.url}/ladder/match/{row.match_id}?view=%C2%B2")
    assert status == 200 and row.match_id in page  # an unknown view: the all-cards one


@pytest.mark.browser
def test_the_browser_signs_in_and_uploads_onto_the_table(server: Server) -> None:
    archive = server.tmp / "browserbot.tar.gz"
    archive.write_bytes(tar_gz(folder_files(bot_copy(server.tmp, "random", "browserbot"))))
    with browser() as b:
        page = b.new_page()
        page.goto(f"{server.url}/ladder/signin")
        page.fill("input[name=token]", TOKENS["bob"])
        page.click("#signin-go")
        page.wait_for_selector("#me")
        page.click("text=upload a bot")
        page.set_input_files("#archive", str(archive))
        page.click("#upload-go")
        page.wait_for_url(re.compile(r".*/ladder/submission/\d+$"), timeout=120_000)  # the upload is checked first: slow on a loaded machine
        mine = page.url
        end = time.monotonic() + 120
        while page.inner_text("#state") != "active":  # the page refreshes itself; so do we
            assert time.monotonic() < end and page.inner_text("#state") != "refused"
            time.sleep(1)
            page.goto(mine)
        page.goto(f"{server.url}/ladder/")
        assert page.locator("#ladder-table tr[data-bot='browserbot']").count() == 1
        # A bad archive: the form shows the server's one line.
        archive.write_bytes(b"not an archive")
        page.goto(f"{server.url}/ladder/upload")
        page.set_input_files("#archive", str(archive))
        page.click("#upload-go")
        page.wait_for_selector("#upload-error:not([hidden])")
        assert "not a tar.gz or a zip" in page.inner_text("#upload-error")
        # On a phone the tables are cards: every cell says what it is, nothing overflows.
        phone = b.new_page(viewport={"width": 390, "height": 844})
        shots = ROOT_DIR / "test-artefacts" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        for path, name in (("/ladder/", "table"), ("/ladder/ratings", "ratings"),
                           ("/ladder/bot/browserbot", "bot"), ("/ladder/author/bob", "author")):
            phone.goto(f"{server.url}{path}")
            cells = phone.locator("table.board tbody td")
            assert cells.count() > 0, path
            unlabelled = phone.evaluate(
                "[...document.querySelectorAll('table.board tbody td')]"
                ".filter(td => !td.hasAttribute('data-label')).length")
            assert unlabelled == 0, path
            assert phone.evaluate("document.documentElement.scrollWidth <= "
                                  "document.documentElement.clientWidth"), path
            phone.screenshot(path=str(shots / f"ladder-{name}-390.png"), full_page=True)


def test_past_the_rate_limit_writes_get_429_with_retry_after(tmp_path: Path) -> None:
    with serving(tmp_path, 5) as server:
        past_the_limit(server, 5)


def past_the_limit(server: Server, writes: int) -> None:
    api = f"{server.url}/api/ladder/submissions"
    for _ in range(writes + 1):
        status, text, headers = call(api, body=b"x", token="arena_" + "y" * 43)
        if status == 429:
            break
        assert status == 401, text
    assert status == 429 and "too many requests" in text, text
    assert 0 < int(headers["Retry-After"]) <= 60
    # Reading goes on: the table is not a write.
    status, _, _ = call(f"{server.url}/api/ladder/table.json")
    assert status == 200


def test_a_bots_eye_view_is_its_owners_only(server: Server, alicebot: tuple[Path, Path, str]) -> None:
    """The bot's-eye view of a decision of the validation match: alice's
    bot (seat 0) to alice; refused to bob and to anyone not signed in, and
    the other seats' decisions refused to alice (their bots are not hers)."""
    _, text, _ = call(f"{server.url}/api/ladder/table.json")
    sid = next(r for r in json.loads(text)["rows"] if r["bot"] == "alicebot")["id"]
    alice, _ = signed_in(server, "alice")
    _, page, _ = call(f"{server.url}/ladder/submission/{sid}", opener=alice)
    found = re.search(r'href="/ladder/log/([^/"]+)/0" id="validation-log"', page)
    assert found
    match_id = found.group(1)
    status, text, _ = call(f"{server.url}/api/ladder/match/{match_id}/0.json", opener=alice)
    assert status == 200, text
    acts = [s["a"] for s in json.loads(text)["steps"] if s["a"]]
    own = next(a["n"] for a in acts if a["seat"] == 0)
    other = next(a for a in acts if a["seat"] != 0)
    url = f"{server.url}/api/ladder/match/{match_id}/0/decision/{own}.json"
    status, text, _ = call(url, opener=alice)
    assert status == 200, text
    data = json.loads(text)
    assert data["observation"]["seat"] == 0 and data["seq"] is not None
    assert data["lines"] is not None and data["log_note"] == ""  # the validation log, with its marks
    bob, _ = signed_in(server, "bob")
    for opener in (bob, None):
        status, text, _ = call(url, opener=opener)
        assert status == 403 and "owner" in text and '"observation"' not in text
    status, text, _ = call(f"{server.url}/api/ladder/match/{match_id}/{other['seat']}/decision/"
                           f"{other['n']}.json", opener=alice)
    assert status == 403 and '"observation"' not in text
    # Her own seat at another seat's decision: no such decision of hers.
    status, text, _ = call(f"{server.url}/api/ladder/match/{match_id}/0/decision/{other['n']}.json",
                           opener=alice)
    assert status == 404 and '"observation"' not in text


def test_a_bad_number_in_a_ladder_url_is_a_404_of_one_line(server: Server) -> None:
    """"²" (str.isdigit admits it, int() does not) and 5,000 digits (past
    int()'s limit): each was a 500; a 404 of one line now."""
    long = "1" * 5000
    for path in ("/ladder/submission/%C2%B2", "/ladder/block/%C2%B2", f"/ladder/block/{long}",
                 f"/ladder/log/m1/{long}", f"/api/ladder/match/m1/0/decision/{long}.json",
                 f"/api/ladder/match/m1/{long}/decision/1.json"):
        status, text, _ = call(f"{server.url}{path}")
        assert status == 404, (path[:40], status, text[:200])
        assert "ValueError" not in text and "Traceback" not in text, text[:200]
