"""Ctrl-C of the other commands that start bots, in a real terminal (a
pseudo-terminal, as tests/tournament/test_ctrl_c_pty.py does for runs):
`arena bot check` and `arena bot add` (while the match sets up and while
its bots play) and `arena play` (while its bots play). Each stops with exit
status 130 and one line saying what was stopped, no traceback and no
"Exception ignored" (a grpc server cancelled while it started was left to
its __del__ after the event loop closed: `Exception ignored in
Server.__del__ ... Event loop is closed`, `coroutine 'AioServer.shutdown'
was never awaited`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clihelp import ROOT, cli
from tournament.test_ctrl_c_pty import ARENA, NOISE, Moment, bot_running, in_terminal

pytestmark = pytest.mark.slow

GREEDY = ROOT / "sample_bots" / "greedy"
RANDOM = ROOT / "sample_bots" / "random"


def first_line(out: bytes, pid: int) -> bool:
    return b"\n" in out  # "checking ...": the match is being set up


def stopped(args: list[str], when: Moment, last: str) -> None:
    code, out = in_terminal(args, when)
    assert code == 130, (args, out.replace("\r\n", "\n"))
    assert not any(word in out for word in NOISE), (args, out)
    lines = [line.strip() for line in out.replace("^C", "").splitlines() if line.strip()]
    assert lines and lines[-1] == last, (args, out)


@pytest.fixture(autouse=True)
def _arena() -> None:
    if not ARENA.exists():
        pytest.skip(f"no {ARENA} (scripts/setup.sh makes it)")


def test_ctrl_c_of_bot_check(tmp_path: Path) -> None:
    args = ["bot", "check", str(GREEDY), "--sandbox", "process", "--deals", "20"]
    for when in (first_line, bot_running, first_line, bot_running):
        stopped(args, when, "interrupted: the check was stopped; the bot was not judged")


def test_ctrl_c_of_bot_add_adds_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in (GREEDY, RANDOM, ROOT / "tournaments/sample/random_b"))
    (folder / "tournament.toml").write_text(
        f'name = "a"\nseed = 8123456789012345\nsandbox = "process"\nbots = [{listed}]\n')
    bot = tmp_path / "newbot"
    shutil.copytree(RANDOM, bot)
    toml = bot / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "newbot"'))
    for _ in range(2):  # during its validation match (it prints nothing before)
        stopped(["bot", "add", str(folder), str(bot), "--deals", "20"], bot_running,
                "interrupted: the bot was not added")
        assert not (folder / "bots" / "newbot").exists()
        assert "newbot" not in cli("tournament", "status", folder).stdout


def test_ctrl_c_of_play(tmp_path: Path) -> None:
    args = ["play", str(GREEDY), str(RANDOM), str(GREEDY), "--sandbox", "process",
            "--replay", str(tmp_path / "r.jsonl")]
    for _ in range(2):
        stopped(args, bot_running, "interrupted: the match was stopped; it has no result")
        assert not (tmp_path / "r.jsonl").exists()  # no replay of a match without a result
