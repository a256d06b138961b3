"""`arena bot check BOT`: one line per check, exit status 0 or 1."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--sandbox", "process", "--deals", "2"]


def check(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["bot", "check", *args])
    return result.exit_code, result.output.splitlines()


def test_a_broken_bot_toml_fails_on_one_line_without_a_match(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('name = "x"\nversion = "1"\nlanguage = "python"\ncolour = 3\n')
    code, lines = check(str(tmp_path), *FAST)
    assert code == 1
    fails = [line for line in lines if line.strip().startswith("FAIL")]
    assert len(fails) == 1 and "bot.toml" in fails[0] and "'colour'" in fails[0]
    assert lines[-1] == "result: FAILED"


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "nosuch"], "--rules: unknown rules preset 'nosuch'"),
    (["--startup", "-1"], "--startup -1.0: expected a positive number"),
    (["--time-per-move", "-1"], "--time-per-move -1.0: expected a positive number"),
    (["--time-per-move", "nan"], "--time-per-move nan"),
    (["--bank", "-2"], "--bank -2.0"),
    (["--sandbox", "vm"], "--sandbox 'vm'"),
    (["--option", "target"], "--option 'target': expected NAME=VALUE"),
    (["--option", "target=lots"], "--option: "),
    (["--option", "colour=red"], "--option: "),
    (["--option", "max_deals=9"], "--option max_deals: the check's length is --deals"),
])
def test_a_mistake_in_the_options_is_a_usage_error_not_the_bots_failure(
    args: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, ["bot", "check", str(ROOT / "sample_bots" / "random"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "checking" not in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_sandbox_level_this_machine_lacks_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.sandbox import levels

    monkeypatch.setattr(levels, "available_levels", lambda: ("process",))
    result = CliRunner().invoke(app, ["bot", "check", str(ROOT / "sample_bots" / "random"),
                                      "--sandbox", "docker"])
    assert result.exit_code == 2
    assert "--sandbox: sandbox level 'docker' is not available on this machine" in result.stderr


def test_a_missing_program_is_named(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text(
        'name = "x"\nversion = "1"\nlanguage = "rust"\nrun = "./target/release/bot"\n'
    )
    code, lines = check(str(tmp_path), *FAST)
    assert code == 1
    assert any(line.strip().startswith("FAIL") and "'./target/release/bot' not found" in line for line in lines)
    assert not any("build the bot first" in line for line in lines)
    (tmp_path / "Cargo.toml").write_text("[package]\n")  # a compiled bot, not built yet
    code, lines = check(str(tmp_path), *FAST)
    assert code == 1
    assert any("not found" in line and "(the folder has a Cargo.toml: build the bot first)" in line
               for line in lines)
    # Built, but without its executable bit (copied from a zip, say): it was
    # "no such executable" of a file that is there.
    from clihelp import cli

    built = tmp_path / "target" / "release" / "bot"
    built.parent.mkdir(parents=True)
    built.write_text("#!/bin/sh\n")
    built.chmod(0o644)
    done = cli("bot", "check", tmp_path, *FAST)
    assert done.returncode == 1
    assert (f"  FAIL  start: program './target/release/bot' in {tmp_path} is not executable "
            "(chmod +x ./target/release/bot)") in done.stdout.splitlines(), done.stdout


@pytest.mark.slow
def test_the_greedy_sample_bot_passes_every_check() -> None:
    code, lines = check(str(ROOT / "sample_bots" / "greedy"), *FAST)
    assert code == 0, "\n".join(lines)
    oks = [line for line in lines if line.strip().startswith("ok")]
    assert len(oks) == 6
    for what in ("bot.toml is valid", "started", "connected", "in time", "played legally",
                 "finished the match"):
        assert any(what in line for line in oks), what
    assert lines[-1] == "result: ok"


@pytest.mark.slow
def test_an_illegal_bot_fails_the_legality_line_only(fault_bot: Callable[[str], Path]) -> None:
    code, lines = check(str(fault_bot("illegal")), *FAST)
    assert code == 1
    fails = [line for line in lines if line.strip().startswith("FAIL")]
    assert len(fails) == 1 and "legality" in fails[0] and "bid 7 is not legal" in fails[0]
    # The bot's own output is shown to help its author.
    assert any(line.startswith("  | faultbot:") for line in lines)


@pytest.mark.slow
def test_a_bot_that_never_connects_fails_at_connect(fault_bot: Callable[[str], Path]) -> None:
    code, lines = check(str(fault_bot("wrong_token_only")), *FAST, "--startup", "5")
    assert code == 1
    fails = [line for line in lines if line.strip().startswith("FAIL")]
    assert len(fails) == 1 and "connect" in fails[0] and "did not connect" in fails[0]
    # Its three wrong tokens: why it never connected, told once.
    refused = [line for line in lines if line.startswith("  note  the referee refused")]
    assert refused == ["  note  the referee refused a connection on seat 0's socket: unknown token"]


@pytest.mark.slow
def test_a_crashing_bot_fails_at_finish(fault_bot: Callable[[str], Path]) -> None:
    code, lines = check(str(fault_bot("crash")), *FAST)
    assert code == 1
    fails = [line for line in lines if line.strip().startswith("FAIL")]
    # The referee sees either the exit or the stream closing first.
    assert len(fails) == 1 and "finish: the bot disconnected or crashed" in fails[0]
    # It answered 3 requests and died on the 4th: that one is not "answered".
    assert any("ok    answered 3 decisions in time" in line for line in lines), lines


def sdk_bot(root: Path, name: str, act_body: str, *, image: str = "", catch: bool = False) -> Path:
    """A bot folder whose `act` runs `act_body` (obs in scope), then plays a legal action."""
    folder = root / name
    folder.mkdir()
    (folder / "bot.py").write_text(
        "import sys, time\nfrom arena.sdk import Bot, run\n\n\n"
        f"class B(Bot):\n    def act(self, obs):\n        {act_body}\n"
        "        return obs.legal_actions[0]\n\n\n"
        f"raise SystemExit(run(B(){', catch_errors=True' if catch else ''}))\n")
    image_line = f'image = "{image}"\n' if image else ""
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                     f'run = "python3 bot.py"\n{image_line}')
    return folder


@pytest.mark.slow
def test_a_bot_that_dies_on_its_first_decision_is_not_said_to_answer_or_play_legally(
    tmp_path: Path,
) -> None:
    bot = sdk_bot(tmp_path, "firstdeath", "raise SystemExit(3)")
    code, lines = check(str(bot), *FAST)
    assert code == 1
    assert any("FAIL  answers: the bot answered no decision" in line for line in lines), lines
    assert not any("in time" in line or "played legally" in line for line in lines), lines


@pytest.mark.slow
def test_an_error_the_bot_died_of_is_its_failure_not_a_note(tmp_path: Path) -> None:
    # Dies on its second decision: the traceback is the crash, shown by the
    # log's tail under the FAIL line, not "an error it caught and played on".
    bot = sdk_bot(tmp_path, "raiser",
                  "if getattr(self, 'seen', False): raise ValueError('oops')\n        self.seen = True")
    code, lines = check(str(bot), *FAST)
    assert code == 1
    assert any("ok    answered 1 decision in time" in line for line in lines), lines
    assert any("FAIL  finish: the bot disconnected or crashed" in line for line in lines), lines
    assert not any("Python traceback(s)" in line for line in lines), lines
    assert any("ValueError: oops" in line for line in lines), lines


@pytest.mark.slow
def test_caught_errors_and_a_slow_pace_are_noted(tmp_path: Path) -> None:
    bot = sdk_bot(tmp_path, "shaky", "time.sleep(0.3)\n        raise ValueError('oops')", catch=True)
    code, lines = check(str(bot), "--sandbox", "process", "--deals", "1",
                        "--time-per-move", "0.2", "--bank", "60")
    notes = [line for line in lines if line.startswith("  note")]
    assert any("Python traceback(s)" in line for line in notes), lines
    assert any("over the 0.2s per move" in line for line in notes), lines
    assert code == 0 and lines[-1] == "result: ok"  # notes are not failures


@pytest.mark.slow
def test_a_missing_image_is_noted_when_auto_falls_back(tmp_path: Path) -> None:
    from arena.sandbox import available_levels

    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    bot = sdk_bot(tmp_path, "typo", "pass", image="arena-python:0")  # a tag not built
    code, lines = check(str(bot), "--deals", "1")
    assert code == 0, lines
    notes = [line for line in lines if line.startswith("  note")]
    assert any("names image 'arena-python:0', which the docker engine does not have" in line
               for line in notes), lines


@pytest.mark.slow
def test_a_bot_with_an_image_and_no_run_is_told_to_set_run(tmp_path: Path) -> None:
    from arena.sandbox import available_levels

    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    folder = tmp_path / "norun"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "norun"\nversion = "1"\nlanguage = "python"\n'
                                     'image = "arena-python:1"\n')
    code, lines = check(str(folder), "--deals", "1")
    assert code == 1
    fails = [line for line in lines if line.strip().startswith("FAIL")]
    assert len(fails) == 1 and "has no command of its own (CMD or ENTRYPOINT): set 'run'" in fails[0], lines


@pytest.mark.slow
@pytest.mark.parametrize(("options", "seats"), [(["target=500"], 3), (["players=4"], 4), (["players=2"], 2)])
def test_a_bot_is_checked_under_the_options_given(options: list[str], seats: int) -> None:
    args = [f"--option={o}" for o in options]
    code, lines = check(str(ROOT / "sample_bots" / "greedy"), *FAST, *args)
    assert code == 0, "\n".join(lines)
    assert lines[0].endswith(f"of standard {' '.join(options)} against {seats - 1} random bots)"), lines[0]
    assert any(f" of {seats}, total" in line for line in lines), lines


@pytest.mark.slow
def test_the_seed_is_random_and_printed_so_the_check_can_be_repeated() -> None:
    """A bot must not recognise the check by its deals: each run deals from
    a new random seed, printed with the key; given both, it repeats."""
    bot = str(ROOT / "sample_bots" / "random")
    seen = []
    for _ in range(2):
        code, lines = check(bot, *FAST)
        assert code == 0, lines
        (note,) = [line for line in lines if "repeat this check with" in line]
        seen.append(note.split("with ", 1)[1])
    assert seen[0] != seen[1]
    seed, key = seen[0].split()[1], seen[0].split()[3]
    code, lines = check(bot, *FAST, "--seed", seed, "--key", key)
    assert code == 0, lines
    assert any(f"seed {seed})" in line for line in lines), lines
    assert any(line.endswith(f"--seed {seed} --key {key}") for line in lines), lines


@pytest.mark.slow
def test_the_bots_output_reaches_the_terminal_with_its_control_characters_escaped(
    tmp_path: Path,
) -> None:
    # A submitted bot is checked by the organiser too: what it prints must not
    # act on the organiser's terminal (retitle it, clear it, move the cursor).
    bot = tmp_path / "noisy"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "noisy"\nversion = "1"\nlanguage = "python"\n'
                                  'run = "python3 bot.py"\n')
    (bot / "bot.py").write_text(
        "import sys\nsys.stderr.write('\\x1b]0;PWNED\\x07\\x1b[2J result: ok\\x9b\\n')\nsys.exit(3)\n")
    code, lines = check(str(bot), *FAST, "--startup", "5")
    assert code == 1
    assert "  | \\x1b]0;PWNED\\x07\\x1b[2J result: ok\\x9b" in lines, lines
    assert not any(c in "\n".join(lines) for c in "\x1b\x07\x9b"), lines


@pytest.mark.slow
def test_why_the_referee_refused_the_bot_is_a_note_not_a_stray_line(tmp_path: Path) -> None:
    """A stdio bot whose first line is not JSON: the referee refuses the
    stream its bridge sends on. Its warning was a bare line on stderr after
    the report, and a second line beside `bot add`'s one-line refusal."""
    from clihelp import cli, cli_ok, refused

    bot = tmp_path / "junk"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "junk"\nversion = "1"\nlanguage = "sh"\n'
                                  'protocol = "stdio"\nrun = "sh bot.sh"\n')
    (bot / "bot.sh").write_text("echo hello world\nsleep 2\n")
    done = cli("bot", "check", bot, "--sandbox", "process", "--deals", "1", "--startup", "10")
    assert done.returncode == 1 and done.stderr == "", done.stderr
    assert ("  note  the referee refused a connection on seat 0's socket: first message is not "
            "a BotMessage") in done.stdout.splitlines(), done.stdout

    folder = tmp_path / "t"
    random = ROOT / "sample_bots" / "random"
    cli_ok("tournament", "new", folder, "--bot", random, "--bot",
           ROOT / "tournaments" / "sample" / "random_b")
    toml = folder / "tournament.toml"
    toml.write_text(toml.read_text().replace('sandbox = "auto"', 'sandbox = "process"'))
    refused(cli("bot", "add", folder, bot), "refused, the validation match failed: connect: ")
    assert not (folder / "bots").exists()


@pytest.mark.slow
def test_an_error_printed_above_its_stack_is_shown_with_the_tail(tmp_path: Path) -> None:
    """Node.js (a JavaScript bot whose folder lacks node_modules) prints
    "Error: Cannot find module ..." and then 17 lines: the tail of 12 lines
    showed the stack only, never what was wrong."""
    from clihelp import cli

    bot = tmp_path / "nodelike"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "nodelike"\nversion = "1"\nlanguage = "sh"\n'
                                  'run = "sh bot.sh"\n')
    stack = "".join(f"echo '    at frame{i} (node:internal/modules:{i})' >&2\n" for i in range(15))
    (bot / "bot.sh").write_text("echo 'node:internal/modules/cjs/loader:1210' >&2\n"
                                "echo \"Error: Cannot find module '@grpc/grpc-js'\" >&2\n"
                                f"{stack}echo 'Node.js v20' >&2\nexit 1\n")
    done = cli("bot", "check", bot, "--sandbox", "process", "--deals", "1", "--startup", "10")
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    shown = out[out.index("last lines of the bot's output:") + 1:-1]
    assert shown[:2] == ["  | Error: Cannot find module '@grpc/grpc-js'", "  | ..."], shown
    assert shown[-1] == "  | Node.js v20" and len(shown) == 2 + 12, shown
    assert out[-1] == "result: FAILED"
