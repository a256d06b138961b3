"""Bots without gRPC: `protocol = "stdio"` (JSON lines through the arena's
bridge, arena/bridge/stdio.py), with real processes and the real referee.

The jq sample bot passes `arena bot check` and plays a tournament at every
level this machine has; a stdio bot's bad lines, lateness and crash are the
referee's faults exactly as a gRPC bot's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clihelp import ROOT, cli

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.spec import FaultPolicy
from arena.sandbox import available_levels
from arena.sandbox.botfile import BotSpec, load_bot

JQ_BOT = ROOT / "sample_bots" / "jq"
STDIO = ROOT / "tests" / "bots" / "stdio"
RANDOM = ROOT / "sample_bots" / "random"

pytestmark = pytest.mark.slow


def levels() -> list[object]:
    """The levels to run at, each skipped (with the reason) where missing."""
    have = available_levels()
    out: list[object] = []
    for level in ("process", "bwrap", "docker"):
        marks = [getattr(pytest.mark, level)] if level != "process" else []
        if level not in have:
            marks.append(pytest.mark.skip(reason=f"sandbox level {level!r} unavailable here"))
        out.append(pytest.param(level, marks=marks, id=level))
    return out


@pytest.fixture
def at_level(request: pytest.FixtureRequest) -> str:
    level: str = request.param
    if level == "docker":
        # The jq bot's image; `arena sandbox build-images` (scripts/docker.sh)
        # builds it, offline, from this machine's files. Built here if absent.
        from arena.sandbox import base_images as images
        from arena.sandbox import docker_level

        if not docker_level.image_present(images.SHELL_IMAGE):
            images.build(images.shell_recipe(), images.SHELL_IMAGE, docker_level.client())
    return level


def stdio_bot(tmp: Path, mode: str, *extra: str) -> BotSpec:
    folder = tmp / f"stdio-{mode}"
    shutil.copytree(STDIO, folder)
    toml = folder / "bot.toml"
    run = json.dumps(["python3", "bot.py", mode, *extra])
    toml.write_text(toml.read_text().replace('run = "python3 bot.py passive"', f"run = {run}"))
    return load_bot(folder)


@pytest.mark.parametrize("at_level", levels(), indirect=True)
def test_the_jq_bot_passes_bot_check(at_level: str) -> None:
    done = cli("bot", "check", JQ_BOT, "--sandbox", at_level)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"started (sandbox level: {at_level})" in done.stdout
    assert "protocol stdio" in done.stdout and "result: ok" in done.stdout


@pytest.mark.parametrize("at_level", levels(), indirect=True)
def test_the_awk_bot_of_the_docs_passes_bot_check(at_level: str) -> None:
    """mawk needs -W interactive (docs/bots.md): without it, it reads the
    bridge's pipe in blocks and never sees the first decision in time."""
    awk = ROOT / "tests" / "bots" / "awk"
    done = cli("bot", "check", awk, "--sandbox", at_level, "--deals", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"started (sandbox level: {at_level})" in done.stdout and "result: ok" in done.stdout


@pytest.mark.parametrize("at_level", [p for p in levels() if "process" not in str(p)],
                         indirect=True)
def test_the_jq_bot_plays_a_tournament(at_level: str, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    bots = ", ".join(f'"{ROOT / "sample_bots" / b}"' for b in ("jq", "greedy", "random"))
    (folder / "tournament.toml").write_text(
        f'name = "stdio"\nseed = 8123456789012345\nsandbox = "{at_level}"\nreplays = false\n'
        f'bootstrap = 5\nconcurrency = 2\nbots = [{bots}]\n[rules]\ntarget = 500\n'
        'max_deals = 1\n')
    run = cli("tournament", "run", folder)
    assert run.returncode == 0, run.stderr
    assert "6/6 matches finished (6 played now, 0 failed)" in run.stdout
    published = cli("leaderboard", "publish", folder, "--out", tmp_path / "board")
    assert published.returncode == 0, published.stderr
    rows = {r["bot"]: r for r in json.loads((tmp_path / "board" / "leaderboard.json")
                                            .read_text())["rows"]}
    jq = rows["jq"]
    assert jq["matches"] == 6 and jq["sandbox"] == at_level
    assert (jq["timeouts"], jq["crashes"], jq["illegal"], jq["malformed"]) == (0, 0, 0, 0)


def play(bot: BotSpec, tmp: Path, **kw: object) -> object:
    opponent = load_bot(RANDOM)
    spec = MatchSpec(match_id=f"stdio-{bot.name}", bots=(bot, opponent, opponent), seed=3,
                     rules_options=(("max_deals", 1),), sandbox="process", work_dir=str(tmp),
                     **kw)  # type: ignore[arg-type]
    return run_match(spec)


def test_bad_lines_are_malformed_faults_like_any_garbage(tmp_path: Path) -> None:
    bot = stdio_bot(tmp_path, "garbage")
    result = play(bot, tmp_path / "work", fault_policy=FaultPolicy(max_strikes=10),
                  time_control=TimeControl(per_move=5.0, bank=10.0))
    seat = result.seats[0]  # type: ignore[attr-defined]
    assert seat.status == "ok", seat.fault_log
    assert dict(seat.faults) == {"timeout": 0, "crash": 0, "illegal": 0, "malformed": 5}
    assert [line.split(":")[0] for line in seat.fault_log] == [
        f"decision {n}" for n in range(1, 6)]
    assert "does not parse" in seat.fault_log[4] or "teleport" in seat.fault_log[4]
    assert seat.moves > 0  # then it played on, legally
    log = Path(seat.log_path).read_text()
    for n in (1, 2, 3, 4):
        assert f"arena stdio bridge: line {n + 1} of the bot's output is not a BotMessage" in log
    assert "a line over 65536 bytes" in log
    assert "the stream ended" not in log  # it played to match_end: nothing went wrong then


def test_a_late_stdio_bot_times_out_and_an_exiting_one_crashes(tmp_path: Path) -> None:
    slow = play(stdio_bot(tmp_path, "slow"), tmp_path / "w1",
                time_control=TimeControl(per_move=0.3, bank=0.2))
    assert dict(slow.seats[0].faults)["timeout"] >= 1  # type: ignore[attr-defined]
    gone = play(stdio_bot(tmp_path, "crash"), tmp_path / "w2")
    seat = gone.seats[0]  # type: ignore[attr-defined]
    assert seat.status == "forfeit" and dict(seat.faults)["crash"] == 1
    assert "decision 3" in seat.fault_log[0], seat.fault_log
    assert "exiting with status 3" in Path(seat.log_path).read_text()


@pytest.mark.parametrize("at_level", levels(), indirect=True)
def test_files_of_the_bot_named_like_modules_do_not_replace_the_bridge(
        at_level: str, tmp_path: Path) -> None:
    """The bridge runs with the bot's folder as its working directory; with
    `python3 -m` that folder came first on the bridge's sys.path, so a bot
    that kept a queue.py, json.py or an arena/ of its own (its program never
    importing them) could not start: `exited with status 1 before
    connecting`. The bridge imports nothing from the bot's folder."""
    folder = stdio_bot(tmp_path, "passive").path
    for name in ("queue.py", "json.py", "argparse.py", "arena/__init__.py"):
        (Path(folder) / name).parent.mkdir(exist_ok=True)
        (Path(folder) / name).write_text(f'raise SystemExit("the bot\'s own {name} ran")\n')
    # The bot's own bot.py imports json too: run it so that it does not see them.
    toml = Path(folder) / "bot.toml"
    toml.write_text(toml.read_text().replace('"python3", "bot.py"', '"python3", "-P", "bot.py"'))
    if at_level == "docker":
        toml.write_text(toml.read_text() + 'image = "arena-shell:1"\n')
    done = cli("bot", "check", folder, "--sandbox", at_level, "--deals", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the bot's own" not in done.stdout and "result: ok" in done.stdout
