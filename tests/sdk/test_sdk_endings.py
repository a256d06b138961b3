"""How an SDK bot (and the JavaScript sample bot) ends, against a scripted
referee over a real socket: exit status 0 only for a match played to its
end; a bot's own mistake prints a traceback that names it before the stream
closes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .fake_referee import python_bot, run_against

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIRST_LEGAL = "    def act(self, obs):\n        return obs.legal_actions[0]\n"


@pytest.mark.parametrize(("scenario", "code", "said"), [
    ("full", 0, ""),
    ("eof", 1, "the stream ended before the match did"),
    ("refused", 1, "refused by the referee: unknown token"),
    ("abort", 1, "stream ended: StatusCode.INTERNAL"),
])
def test_exit_status_says_whether_the_match_was_played_to_its_end(
    tmp_path: Path, scenario: str, code: int, said: str
) -> None:
    out = run_against(scenario, python_bot(tmp_path, FIRST_LEGAL), tmp_path)
    assert out.returncode == code, out.stderr
    assert said in out.stderr


@pytest.mark.parametrize(("returned", "message"), [
    ("None", "got NoneType: None"),
    ("7", "got int: 7"),
    ('("pass",)', "got tuple"),
])
def test_a_wrong_return_type_names_act(tmp_path: Path, returned: str, message: str) -> None:
    out = run_against("full", python_bot(tmp_path, f"    def act(self, obs):\n        return {returned}\n"),
                      tmp_path)
    assert out.returncode == 1
    assert "Traceback" in out.stderr
    assert f"TypeError: act() must return one of obs.legal_actions or its text, {message}" in out.stderr
    assert out.replies == []  # nothing was sent for it


def test_an_async_act_is_named(tmp_path: Path) -> None:
    out = run_against("full", python_bot(tmp_path, "    async def act(self, obs):\n        return 'pass'\n"),
                      tmp_path)
    assert out.returncode == 1
    assert "act() must be a plain function (def, not async def)" in out.stderr
    assert "never awaited" not in out.stderr


def test_catch_errors_covers_wrong_returns_and_hooks(tmp_path: Path) -> None:
    body = ("    def act(self, obs):\n        return None\n\n"
            "    def on_event(self, event):\n        raise RuntimeError('boom in on_event')\n\n"
            "    def on_match_end(self, end):\n        print('end seen', file=__import__('sys').stderr)\n")
    out = run_against("full", python_bot(tmp_path, body, catch_errors=True), tmp_path)
    assert out.returncode == 0, out.stderr
    assert "RuntimeError: boom in on_event" in out.stderr and "got NoneType" in out.stderr
    assert "end seen" in out.stderr
    # The first legal action was played in place of act's None.
    assert len(out.replies) == 1 and out.replies[0].seq == 1 and out.replies[0].HasField("action")


def test_an_exception_in_act_is_printed_in_full_before_the_stream_closes(tmp_path: Path) -> None:
    body = "    def act(self, obs):\n        raise RuntimeError('boom in act')\n"
    out = run_against("full", python_bot(tmp_path, body), tmp_path)
    assert out.returncode == 1
    assert out.stderr.rstrip().endswith("RuntimeError: boom in act")


@pytest.mark.skipif(shutil.which("node") is None
                    or not (ROOT / "sample_bots" / "javascript" / "node_modules").is_dir(),
                    reason="Node.js or the JavaScript bot's modules are not installed")
@pytest.mark.parametrize(("scenario", "code"), [("full", 0), ("eof", 1), ("refused", 1), ("abort", 1)])
def test_the_javascript_bot_exits_0_only_after_a_whole_match(
    tmp_path: Path, scenario: str, code: int
) -> None:
    bot = ROOT / "sample_bots" / "javascript" / "bot.js"
    out = run_against(scenario, ["node", str(bot)], tmp_path)
    assert out.returncode == code, out.stderr
