"""The pages of `arena serve` over a real store and real replay files
(Starlette's TestClient: the whole app in process, no socket)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from clihelp import ROOT, cli, cli_here
from starlette.testclient import TestClient

from arena.referee.replay import read_replay
from arena.tournament.store import Store
from arena.web.app import create_app
from arena.web.player import player_data
from arena.web.replays import dumps


@pytest.fixture
def client(stored: Path) -> TestClient:
    return TestClient(create_app([stored]), raise_server_exceptions=False)


def match_ids(stored: Path) -> list[str]:
    with Store(stored / "tournament.sqlite") as store:
        return [m.match_id for m in store.matches()]


def error_of(text: str) -> str:
    m = re.search(r'id="error-message">(.*?)</p>', text, re.S)
    assert m, text[:300]
    return m.group(1)


def test_index_and_tournament_page(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and 'href="/t/demo/"' in r.text
    assert 'id="lobby-link"' not in r.text  # no lobby served (arena serve without --lobby)
    r = client.get("/t/demo/")
    assert r.status_code == 200
    assert 'data-count="finished">6<' in r.text
    for bot in ("greedy", "random", "random_b"):
        assert f'href="/t/demo/bot/{bot}"' in r.text
    assert "Auctions won" in r.text or "Contracts won" in r.text
    assert "<svg" in r.text and 'class="tick"' in r.text  # the chart has axes with ticks
    assert r.text.count("<circle") >= 6                     # a dot (value on hover) per match
    live = client.get("/t/demo/live")
    assert live.status_code == 200 and "Leaderboard" in live.text


def test_match_list_pages_and_filters(client: TestClient, stored: Path) -> None:
    r = client.get("/t/demo/matches")
    ids = re.findall(r'data-id="([^"]+)"', r.text)
    assert ids == match_ids(stored)
    assert r.text.count("watch ▶") == 6
    faulty = re.findall(r'data-id="([^"]+)"', client.get("/t/demo/matches?fault=timeout").text)
    assert faulty == [ids[0], ids[4]]  # every 4th match: seat 0 timed out
    assert "seat 0 timeout x1" in client.get("/t/demo/matches?fault=any").text
    none = client.get("/t/demo/matches?status=planned")
    assert re.findall(r'data-id="([^"]+)"', none.text) == []
    table = ids[0].split("-")[1]
    assert len(re.findall(r'data-id="', client.get(f"/t/demo/matches?table={table}").text)) == 6
    both = client.get("/t/demo/matches?bot=greedy&vs=random&set=0")
    assert len(re.findall(r'data-id="', both.text)) == 6


def test_head_to_head_counts(client: TestClient, stored: Path) -> None:
    r = client.get("/t/demo/h2h")
    assert r.status_code == 200
    cells = re.findall(r'bot=(\w+)&amp;vs=(\w+)"><b>(\d+)</b>/(\d+)', r.text)
    assert len(cells) == 6
    counts = {(a, b): (int(k), int(n)) for a, b, k, n in cells}
    for (a, b), (k, n) in counts.items():
        assert n == 6
        other = counts[(b, a)]
        assert k + other[0] <= n  # ties count for neither


def test_bot_page(client: TestClient, stored: Path) -> None:
    ids = match_ids(stored)
    with Store(stored / "tournament.sqlite") as store:
        first = store.matches([ids[0]])[0]
        names = {b.id: b.name for b in store.bots()}
    faulty_bot = names[first.bot_ids[0]]
    r = client.get(f"/t/demo/bot/{faulty_bot}")
    assert r.status_code == 200
    assert "content hash" in r.text and "Rating history" in r.text
    assert f'/t/demo/match/{ids[0]}?fault=0' in r.text     # the fault links to its moment
    assert "decision 1" in r.text
    assert f'/t/demo/log/{ids[0]}/0' in r.text              # and to the seat's kept log
    log = client.get(f"/t/demo/log/{ids[0]}/0")
    assert log.status_code == 200 and "bot log" in log.text


def test_player_and_its_data(client: TestClient, stored: Path) -> None:
    # The shortest of the stored games (11 deals; others run to 78, seconds
    # of data for each view): the check is the same on any.
    mid = min(match_ids(stored), key=lambda m: (stored / "replays" / f"{m}.jsonl").stat().st_size)
    r = client.get(f"/t/demo/match/{mid}?view=1&step=10")
    assert r.status_code == 200 and 'id="player"' in r.text
    rep = read_replay(stored / "replays" / f"{mid}.jsonl")
    for view, viewer in (("all", None), ("0", 0), ("2", 2)):
        data = client.get(f"/api/t/demo/match/{mid}/{view}.json")
        assert data.status_code == 200
        assert data.content == dumps(player_data(rep, viewer))
    assert json.loads(client.get(f"/api/t/demo/match/{mid}/1.json").content)["match"]["viewer"] == 1


@pytest.mark.parametrize("url", [
    "/t/demo/match/..%2F..%2Ftournament.toml",
    "/t/demo/match/%2Fetc%2Fpasswd",
    "/t/demo/match/%2E%2E",
    "/t/..%2F..%2Fetc/",
    "/r/..%2Ftournament.sqlite",
    "/r/%2Fetc%2Fpasswd",
    "/static/..%2F..%2Fpyproject.toml",
    "/static/../app.py",
    "/t/demo/log/..%2Ftournament/0",
    "/api/t/demo/match/..%2F..%2Ftournament/all.json",
    "//etc/passwd",
])
def test_paths_outside_what_is_served_are_refused(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code in (400, 404)
    assert "root:" not in r.text and "[rules]" not in r.text and "import" not in r.text
    assert "Traceback" not in r.text


def test_bad_input_is_an_error_page(stored: Path, tmp_path: Path,
                                    caplog: pytest.LogCaptureFixture) -> None:
    copy = tmp_path / "demo"
    shutil.copytree(stored, copy)
    mid = match_ids(copy)[2]
    damaged = copy / "replays" / f"{mid}.jsonl"
    lines = damaged.read_text().splitlines()
    lines[5] = lines[5].replace('"action":"', '"action":"play XX')
    damaged.write_text("\n".join(lines) + "\n")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("this is not a replay\n")
    client = TestClient(create_app([copy, broken]), raise_server_exceptions=False)
    cases = {
        f"/t/demo/match/{mid}": (422, "this replay cannot be shown"),
        f"/api/t/demo/match/{mid}/all.json": (422, "this replay cannot be shown"),
        "/t/demo/match/s999-tdeadbeef00-o0-00000000": (404, "no match 's999-tdeadbeef00-o0-00000000'"),
        "/t/nope/": (404, "no tournament named 'nope'"),
        "/t/demo/bot/nobody": (404, "no bot named 'nobody'"),
        "/t/demo/matches?page=0": (400, "page='0'"),
        "/t/demo/matches?page=99999999999999999999": (400, "page='99999999999999999999'"),
        "/t/demo/matches?set=99999999999999999999": (400, "set='99999999999999999999'"),
        "/t/demo/matches?bot=nobody": (400, "bot='nobody': no such bot"),
        "/t/demo/matches?page=2": (400, "page='2': past the last page (6 matches, 1 page of 50)"),
        "/t/demo/matches?table=../x": (400, "table="),
        f"/t/demo/match/{match_ids(copy)[0]}?view=7": (404, "view '7'"),
        "/r/broken": (422, "not a replay"),
    }
    for url, (status, words) in cases.items():
        caplog.clear()
        r = client.get(url)
        assert r.status_code == status, url
        text = r.text if url.startswith("/api/") else error_of(r.text)
        assert words in text.replace("&#39;", "'"), (url, text)
        assert "Traceback" not in r.text
        if not url.startswith("/api/"):
            assert f"<title>{status}: 1000 arena</title>" in r.text, url
        assert len([rec for rec in caplog.records if rec.name == "arena.web"]) == 1, url
    # The tournament folder disappears while served; then its store is damaged.
    shutil.rmtree(copy / "replays")
    (copy / "tournament.sqlite").write_bytes(b"not a database" * 100)
    for f in copy.glob("tournament.sqlite-*"):
        f.unlink()
    # Damage is said, on every page, never passed off as an empty tournament
    # ("no results yet", "0 matches", a match "not found" were shown).
    for url in ("/t/demo/", "/t/demo/matches", "/t/demo/h2h", f"/t/demo/match/{mid}"):
        r = client.get(url)
        assert r.status_code == 503, url
        assert "this tournament cannot be read" in error_of(r.text), url
        assert "not a usable tournament store" in error_of(r.text), url
    index = client.get("/").text
    assert "cannot be read" in index and "no results yet" not in index
    # An empty file (a run has just created it) is no results yet, not damage.
    (copy / "tournament.sqlite").write_bytes(b"")
    r = client.get("/t/demo/")
    assert r.status_code == 200 and "no results yet" in r.text
    assert "no results yet" in client.get("/").text
    shutil.rmtree(copy)
    r = client.get("/t/demo/")
    assert r.status_code == 404 and "is gone" in error_of(r.text)


@pytest.mark.slow
def test_cli_bad_input_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type":"header","seed":1}\n')
    cases = [
        (["serve", tmp_path / "missing"], "no such file or folder"),
        # A tournament's settings file was listed as a replay, linking to a 404.
        (["serve", ROOT / "tournaments" / "sample" / "tournament.toml"],
         f"a tournament's settings file; give its folder ({ROOT / 'tournaments' / 'sample'})"),
        (["replay", "html", broken, "-o", tmp_path / "x.html"], "header record"),
        # The lobby's options without --lobby were dropped without a word.
        (["serve", ROOT / "tournaments", "--bot", ROOT / "sample_bots" / "greedy"],
         "--bot: an option of the lobby; add --lobby"),
        (["serve", ROOT / "tournaments", "--human-time", "30"], "--human-time: an option of the lobby"),
        # Was "--data ...: [Errno 20] Not a directory: '...'".
        (["serve", "--lobby", "--data", broken / "lobby", "--port", "0"],
         f"--data {broken / 'lobby'}: cannot make the lobby's folder there: Not a directory ("),
        (["replay", "html", tmp_path / "nope.jsonl", "-o", tmp_path / "x.html"],
         "cannot read replay"),
    ]
    # The default folder, from a folder without one: was "tournaments: no
    # such file or folder", which did not say it was a default.
    done = cli("serve", cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"error: no tournaments folder in {tmp_path} (the default): "
                                  "give tournament folders or replay files"), done.stderr
    for argv, words in cases:  # in-process (cli_here): the first refusal above is a process
        done = cli_here(*argv)
        assert done.returncode == 2, (argv, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], done.stderr
    assert not (tmp_path / "x.html").exists()
