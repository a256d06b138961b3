"""Ctrl-C of the other commands that start bots, in a real terminal (a
pseudo-terminal, as tests/tournament/test_ctrl_c_pty.py does for runs):
`arena bot check` and `arena bot add` (while the match sets up and while
its bots play) and `arena play` (while its bots play). Each stops with exit
status 130 and one line saying what was stopped, no traceback and no
"Exception ignored" (a grpc server cancelled while it started was left to
its __del__ after the event loop closed: `Exception ignored in
Server.__del__ ... Event loop is closed`, `coroutine 'AioServer.shutdown'
was never awaited`).

SIGTERM to the same commands (started as a background job is: SIGINT
ignored) and to `arena serve --lobby` with a lobby game of bots in play:
one line, exit status 143, and every process the command started gone. A
^C or SIGTERM while `arena play` prints its result: the result whole, then
one line."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from clihelp import ARENA, ROOT, cli
from tournament.terminal import (
    NOISE,
    Moment,
    assert_gone,
    below,
    bot_running,
    in_terminal,
)

pytestmark = [pytest.mark.slow, pytest.mark.serial]

GREEDY = ROOT / "sample_bots" / "greedy"
RANDOM = ROOT / "sample_bots" / "random"


def first_line(out: bytes, pid: int) -> bool:
    return b"\n" in out  # "checking ...": the match is being set up


def stopped(args: list[str], when: Moment, last: str, twice: bool = False) -> None:
    """^C at `when` (with `twice`, once more 0.2 s later, while the command
    stops: its match's cleanup runs on, not cut off with gRPC's tracebacks)."""
    code, out = in_terminal(args, when, twice)
    shown = f"{args}: exit status {code}, output:\n{out}"  # a string: shown whole
    assert code == 130, shown
    assert not any(word in out for word in NOISE), shown
    lines = [line.strip() for line in out.replace("^C", "").splitlines() if line.strip()]
    assert lines and lines[-1] == last, shown


@pytest.fixture(autouse=True)
def _arena() -> None:
    if not Path(ARENA[0]).exists():
        pytest.skip(f"no {ARENA[0]} (scripts/setup.sh makes it)")


def test_ctrl_c_of_bot_check(tmp_path: Path) -> None:
    args = ["bot", "check", str(GREEDY), "--sandbox", "process", "--deals", "20"]
    for when, twice in ((first_line, False), (bot_running, False), (first_line, True),
                        (bot_running, True)):
        stopped(args, when, "interrupted: the check was stopped; the bot was not judged", twice)


def _tournament_and_bot(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "t"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in (GREEDY, RANDOM, ROOT / "tournaments/sample/random_b"))
    (folder / "tournament.toml").write_text(
        f'name = "a"\nseed = 8123456789012345\nsandbox = "process"\nbots = [{listed}]\n')
    bot = tmp_path / "newbot"
    shutil.copytree(RANDOM, bot)
    toml = bot / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "newbot"'))
    return folder, bot


def test_ctrl_c_of_bot_add_adds_nothing(tmp_path: Path) -> None:
    folder, bot = _tournament_and_bot(tmp_path)
    for twice in (False, True):  # during its validation match (it prints nothing before)
        stopped(["bot", "add", str(folder), str(bot), "--deals", "20"], bot_running,
                "interrupted: the bot was not added", twice)
        assert not (folder / "bots" / "newbot").exists()
        assert "newbot" not in cli("tournament", "status", folder).stdout


def test_ctrl_c_of_play(tmp_path: Path) -> None:
    args = ["play", str(GREEDY), str(RANDOM), str(GREEDY), "--sandbox", "process",
            "--replay", str(tmp_path / "r.jsonl")]
    for twice in (False, True):
        stopped(args, bot_running, "interrupted: the match was stopped; it has no result", twice)
        assert not (tmp_path / "r.jsonl").exists()  # no replay of a match without a result


# Holds `arena play` after the first line of its result until the command's
# handler has noted a signal (the handler is a bound method of the command's
# OneMatchStop), and says so in a file: the ^C or SIGTERM then comes while
# the result is being printed, every time, whatever the machine's load.
HOLD_PRINT = '''
import os, signal, time
import arena.referee.transcript as transcript

_lines = transcript.result_lines


def _noted():
    handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    return any(getattr(getattr(h, "__self__", None), "signal", None) is not None for h in handlers)


def _held(result):
    for n, line in enumerate(_lines(result)):
        yield line
        if n == 0:
            open(os.environ["ARENA_TEST_PRINTING"], "w").close()
            end = time.monotonic() + 60
            while not _noted() and time.monotonic() < end:
                time.sleep(0.01)


transcript.result_lines = _held
'''


def _holding_print(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(HOLD_PRINT)
    printing = tmp_path / "printing"
    printing.unlink(missing_ok=True)
    return printing, {"PYTHONPATH": str(hook), "ARENA_TEST_PRINTING": str(printing)}


def test_ctrl_c_while_play_prints_its_result(tmp_path: Path) -> None:
    printing, env = _holding_print(tmp_path)
    replay = tmp_path / "r.jsonl"
    code, out = in_terminal(["play", str(GREEDY), str(RANDOM), str(GREEDY), "--sandbox", "process",
                             "--option", "max_deals=3", "--replay", str(replay)],
                            lambda out, pid: printing.exists(), env=env)
    assert code == 130, out
    assert not any(word in out for word in NOISE), out
    lines = [line.strip() for line in out.replace("^C", "").splitlines() if line.strip()]
    # The whole result (its seats, the repeat line), then the one line.
    assert lines[-1] == "interrupted: the match had finished; its result is above", out
    assert lines[-2].startswith("repeat with: --seed "), out
    assert sum(line.startswith(("1. seat", "2. seat", "3. seat")) for line in lines) == 3, out
    assert replay.exists()  # the match has a result: its replay stays


def sigterm(args: list[str], when: Moment, tmp_path: Path,
            env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run `arena ARGS` as a background job does (SIGINT ignored, its own
    session), SIGTERM it once `when(b"", pid)`; every process it started
    must then be gone. Returns (exit status, stdout, stderr)."""
    out, err = tmp_path / "out", tmp_path / "err"
    sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with out.open("w") as stdout, err.open("w") as stderr:
            proc = subprocess.Popen([*ARENA, *args], cwd=ROOT, stdout=stdout, stderr=stderr,
                                    start_new_session=True, env={**os.environ, **(env or {})})
    finally:
        signal.signal(signal.SIGINT, sigint)
    left: set[int] = set()
    try:
        end = time.monotonic() + 120
        while not when(b"", proc.pid):
            assert proc.poll() is None and time.monotonic() < end, err.read_text()
            time.sleep(0.02)
        left = below(proc.pid)
        os.kill(proc.pid, signal.SIGTERM)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert_gone(left)  # stopped, not orphaned: every process it had started
    text = err.read_text()
    assert not any(word in text for word in NOISE), text
    return code, out.read_text(), text


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def test_sigterm_of_bot_check(tmp_path: Path) -> None:
    args = ["bot", "check", str(GREEDY), "--sandbox", "process", "--deals", "20"]
    code, _, err = sigterm(args, bot_running, tmp_path)
    assert code == 143, err
    assert last_line(err) == "terminated: the check was stopped; the bot was not judged", err


def test_sigterm_of_bot_add_adds_nothing(tmp_path: Path) -> None:
    folder, bot = _tournament_and_bot(tmp_path)
    code, out, err = sigterm(["bot", "add", str(folder), str(bot), "--deals", "20"], bot_running,
                             tmp_path)
    assert code == 143, err
    assert last_line(err) == "terminated: the bot was not added", err
    assert not out.strip(), out
    assert not (folder / "bots" / "newbot").exists()
    assert "newbot" not in cli("tournament", "status", folder).stdout


def test_sigterm_of_play(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    code, _, err = sigterm(["play", str(GREEDY), str(RANDOM), str(GREEDY), "--sandbox", "process",
                              "--replay", str(replay)], bot_running, tmp_path)
    assert code == 143, err
    assert last_line(err) == "terminated: the match was stopped; it has no result", err
    assert not replay.exists() and not list(tmp_path.glob("r.jsonl*")), list(tmp_path.iterdir())


def test_sigterm_while_play_prints_its_result(tmp_path: Path) -> None:
    printing, env = _holding_print(tmp_path)
    code, out, err = sigterm(["play", str(GREEDY), str(RANDOM), str(GREEDY), "--sandbox", "process",
                              "--option", "max_deals=3"], lambda out, pid: printing.exists(),
                             tmp_path, env)
    assert code == 143, err
    assert last_line(err) == "terminated: the match had finished; its result is above", err
    assert last_line(out).startswith("repeat with: --seed "), out


def _answering(out: bytes, pid: int) -> bool:
    """The server answers a page: uvicorn is serving (its handlers in place)."""
    found = re.search(rb"serving on http://127\.0\.0\.1:(\d+)/", out)
    if not found or b"lobby: http" not in out:
        return False
    conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=30)
    try:
        conn.request("GET", "/lobby")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def test_ctrl_c_of_serve(tmp_path: Path) -> None:
    # At the first line (uvicorn not yet started), with it serving, again,
    # and twice with it serving (the second while it shuts down).
    for when, twice in ((lambda out, pid: b"lobby: http" in out, False), (_answering, False),
                        (lambda out, pid: bool(out), False), (_answering, True)):
        code, out = in_terminal(["serve", "--lobby", "--data", str(tmp_path / "lobby"), "--port", "0"],
                                when, twice)
        assert code == 130, out
        assert not any(word in out for word in NOISE), out
        assert last_line(out.replace("^C", "")) == "interrupted: the server was stopped", out


def test_sigterm_of_serve_stops_the_lobby_games_bots(tmp_path: Path) -> None:
    """A lobby game of bots in play (a person's seat filled by a bot, as the
    page's "start now" does), then SIGTERM: one line, 143, its bots gone."""
    out = tmp_path / "out"

    def game_in_play(_: bytes, pid: int) -> bool:
        found = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", out.read_text())
        if not found:
            return False
        if not hasattr(game_in_play, "started"):
            conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=30)
            form = {"Content-Type": "application/x-www-form-urlencoded"}
            conn.request("POST", "/lobby/games", urlencode(
                {"preset": "standard", "seat0": "person", "name0": "a", "seat1": "greedy",
                 "seat2": "greedy"}), form)
            created = conn.getresponse()
            created.read()
            assert created.status == 303, created.status
            cookie = created.getheader("set-cookie", "").split(";")[0]
            conn.request("POST", f"{created.getheader('location')}/start",
                         urlencode({"fill": "greedy"}), {**form, "Cookie": cookie})
            started = conn.getresponse()
            started.read()
            assert started.status == 303, started.status
            game_in_play.started = True  # type: ignore[attr-defined]
        return bot_running(b"", pid)

    code, _, err = sigterm(["serve", "--lobby", "--bot", str(GREEDY), "--sandbox", "process",
                            "--data", str(tmp_path / "lobby"), "--port", "0"], game_in_play,
                           tmp_path, {"PYTHONUNBUFFERED": "1"})
    assert code == 143, err
    assert last_line(err) == "terminated: the server was stopped", err
