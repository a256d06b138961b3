"""`arena play` and `arena replay show`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from clihelp import start
from typer.testing import CliRunner

from arena.cli import app

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "sample_bots" / "random")


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["play", "no/such/bot", RANDOM, RANDOM], "not a bot folder"),
    (["play", RANDOM, RANDOM, RANDOM, "--rules", "klondike"], "--rules: unknown rules preset 'klondike'"),
    (["play", RANDOM, RANDOM, RANDOM, "--option", "target"], "expected NAME=VALUE"),
    (["play", RANDOM, RANDOM, RANDOM, "--option", "colour=blue"], "colour"),
    (["play", RANDOM, RANDOM], "3 players"),
    (["play", RANDOM, RANDOM, RANDOM, "--sandbox", "vm"], "--sandbox 'vm'"),
    (["play", RANDOM, RANDOM, RANDOM, "--transport", "udp"], "--transport 'udp'"),
    (["replay", "show", "no-such-replay.jsonl"], "cannot read replay"),
    (["play", RANDOM, RANDOM, RANDOM, "--time-per-move", "nan"], "--time-per-move nan"),
    (["play", RANDOM, RANDOM, RANDOM, "--bank", "inf"], "--bank inf"),
    (["play", RANDOM, RANDOM, RANDOM, "--transport", "tcp"], "--transport tcp needs --sandbox process"),
    (["play", RANDOM, RANDOM, RANDOM, "--replay", str(ROOT)], "is a folder"),
    (["play", RANDOM, RANDOM, RANDOM, "--replay", str(ROOT / "README.md" / "m.jsonl")],
     "--replay"),
    (["play", RANDOM, RANDOM, RANDOM, "--logs", str(ROOT / "README.md")], "--logs"),
    (["play", "human:bad name", RANDOM, RANDOM], "seat 0 'human:bad name': a person's name"),
    (["play", "human:ann", "human:ann", RANDOM], "two people are called 'ann'"),
    (["play", "human", RANDOM, RANDOM, "--grace", "-1"], "--grace -1"),
    (["play", "human", RANDOM, RANDOM, "--human-time", "0"], "--human-time 0"),
    # A person's options with no person: were dropped without a word.
    (["play", RANDOM, RANDOM, RANDOM, "--port", "8000"],
     "--port: an option of a person's seat, and no seat is `human`"),
    (["play", RANDOM, RANDOM, RANDOM, "--human-time", "30"], "--human-time: an option of a person's"),
])
def test_bad_input_is_one_clear_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "klondike"], "--rules: unknown rules preset 'klondike'"),
    (["--option", "target=lots"], "--option: "),
    (["--option", "players=4"], "the rules need 4 players, the match has 3 bots"),
])
def test_bad_rules_are_refused_before_anything_is_created(
    tmp_path: Path, args: list[str], message: str
) -> None:
    replay, logs = tmp_path / "a" / "b" / "m.jsonl", tmp_path / "logs"
    code, _, err = _run("play", RANDOM, RANDOM, RANDOM, *args, "--replay", str(replay),
                        "--logs", str(logs))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("key", "value"), [("version", "1\\n<script>"), ("language", "=cmd|calc"),
                                          ("version", "1 beta")])
def test_version_and_language_are_plain_tokens(tmp_path: Path, key: str, value: str) -> None:
    """They are shown in leaderboards (Markdown, CSV, HTML) and logs."""
    fields = {"version": "1", "language": "python", key: value}
    (tmp_path / "bot.toml").write_text(
        f'name = "x"\nversion = "{fields["version"]}"\nlanguage = "{fields["language"]}"\n'
        'run = "python3 bot.py"\n')
    code, _, err = _run("play", str(tmp_path), RANDOM, RANDOM)
    assert code == 2 and f"key '{key}'" in err and "may use only letters" in err, err
    assert len(err.strip().splitlines()) == 1


def test_broken_bot_toml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('name = "x"\nversion = "1"\nlanguage = "py"\ncolour = 3\n')
    code, _, err = _run("play", str(tmp_path), RANDOM, RANDOM)
    assert code == 2 and "unknown key 'colour'" in err


@pytest.mark.slow
def test_play_then_show_the_replay(tmp_path: Path) -> None:
    replay = tmp_path / "m.jsonl"
    seed = 9_184_467_440_737_095_516
    code, out, err = _run("play", RANDOM, RANDOM, RANDOM, "--seed", str(seed), "--sandbox", "process",
                          "--option", "max_deals=3", "--transport", "tcp", "--replay", str(replay), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["seed"] == seed and len(result["deals"]) == 3 and result["reason"] == "max_deals"
    assert [s["status"] for s in result["seats"]] == ["ok", "ok", "ok"]

    code, out, err = _run("replay", "show", str(replay), "--seat", "2")
    assert code == 0, err
    lines = out.splitlines()
    # A seat's view never names the seed: it deals every hand of the match.
    assert str(seed) not in out and "seed (withheld in a seat's view)" in lines[0], lines[0]
    assert lines[1] == "view: seat 2"
    assert sum(line.startswith("== deal ") for line in lines) == 3
    assert sum("hand:" in line for line in lines) == 3          # only seat 2's hands
    assert lines[-1].startswith("result: totals ")

    code, out, _ = _run("replay", "show", str(replay))
    assert code == 0 and sum("hand:" in line for line in out.splitlines()) == 9
    assert f"seed {seed} " in out.splitlines()[0]  # all seats: the operator's view

    # Cut before its result: told as far as it goes, and said to be incomplete.
    records = replay.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(r for r in records if '"type":"result"' not in r) + "\n")
    code, out, err = _run("replay", "show", str(cut))
    assert code == 0, err
    assert out.splitlines()[-1].startswith("no result: the replay ends here")

    # A damaged record: its line and what is wrong, no traceback.
    deal_line = next(i for i, r in enumerate(records) if '"type":"deal"' in r)
    damaged = json.loads(records[deal_line])
    del damaged["totals"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*records[:deal_line], json.dumps(damaged), *records[deal_line + 1:]]) + "\n")
    code, out, err = _run("replay", "show", str(bad))
    assert code == 2 and f"bad.jsonl:{deal_line + 1}: deal record has no 'totals'" in err, err
    assert "Traceback" not in err + out

    # An action that does not re-play: its line, and nothing told before the error.
    first_action = next(i for i, r in enumerate(records) if '"type":"action"' in r)
    tampered = {**json.loads(records[first_action]), "action": "bid 990"}
    bad.write_text("\n".join([*records[:first_action], json.dumps(tampered),
                              *records[first_action + 1:]]) + "\n")
    code, out, err = _run("replay", "show", str(bad), "--seat", "1")
    assert code == 2 and out == "", out
    assert f"bad.jsonl:{first_action + 1}: action 0: illegal action bid 990" in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_negative_seed_is_a_usage_error() -> None:
    code, out, err = _run("play", RANDOM, RANDOM, RANDOM, "--seed", "-5")
    assert code == 2 and "--seed" in err and "Traceback" not in err + out


def test_a_sandbox_level_this_machine_lacks_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.sandbox import levels

    monkeypatch.setattr(levels, "available_levels", lambda: ("process",))
    code, out, err = _run("play", RANDOM, RANDOM, RANDOM, "--sandbox", "docker")
    assert code == 2, out
    assert "sandbox level 'docker' is not available" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


@pytest.mark.parametrize(("record", "message"), [
    ({"type": "header", "seed": 1, "rules": {}, "bots": 5}, "'bots' is 5, expected list"),
    ({"type": "header", "seed": 1, "bots": []}, "has no 'rules'"),
    ({"type": "header", "seed": "x", "rules": {}, "bots": []}, "'seed' is \"x\""),
    ({"type": "header", "seed": 1, "rules": {}, "bots": []}, "lists no bots"),
])
def test_a_damaged_replay_header_is_one_line(tmp_path: Path, record: dict[str, object],
                                              message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    code, out, err = _run("replay", "show", str(path))
    assert code == 2 and f"bad.jsonl:1: header record {message}" in err, err
    assert "Traceback" not in err + out


def test_a_replay_dealt_by_the_old_generator_is_refused_in_one_line(tmp_path: Path) -> None:
    # Version 1 replays were dealt by splitmix64: re-dealing their seed now
    # gives other cards, so their actions would fail somewhere in the middle.
    from arena.game import Rules

    header = {"type": "header", "version": 1, "seed": 1, "rules": Rules.preset("standard").to_dict(),
              "bots": [{"seat": i, "name": "b", "version": "1"} for i in range(3)]}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(header) + "\n")
    code, out, err = _run("replay", "show", str(path))
    assert code == 2 and "old.jsonl: replay version 1 cannot be re-played" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out
    header["version"] = 2
    path.write_text(json.dumps(header) + "\n")
    code, out, err = _run("replay", "show", str(path))
    assert code == 0, err


@pytest.mark.slow
def test_sigterm_stops_the_match_like_ctrl_c_and_leaves_no_replay(tmp_path: Path) -> None:
    """SIGTERM (a terminal closed, a supervisor stopping it) used to kill
    `arena play` outright, leaving the replay's part file behind."""
    import signal
    import subprocess
    import time

    from arena.sandbox.process import live_processes

    replays = tmp_path / "replays"
    proc = start(
        "play", RANDOM, RANDOM, RANDOM, "--sandbox", "process", "--seed", "5",
        "--replay", replays / "m.jsonl", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # As a background job (CI, nohup) starts: with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        deadline = time.monotonic() + 120
        while not list(replays.glob("*.part")):  # playing: the replay is being written
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        bots = [pid for pid, parent, _ in live_processes() if parent == proc.pid]
        assert len(bots) == 3
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert err.strip() == "terminated: the match was stopped; it has no result"
    assert list(replays.iterdir()) == []
    deadline = time.monotonic() + 20
    while (left := set(bots) & {pid for pid, _, _ in live_processes()}) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left


@pytest.mark.slow
def test_replay_show_tells_faults_and_keeps_another_seats_notes_to_their_kind(
        tmp_path: Path, fault_bot: Callable[[str], Path]) -> None:
    """An illegal bot's fault notes list its legal actions (its cards): the
    all-seats view and its own view show them, another seat's only the kind."""
    replay = tmp_path / "m.jsonl"
    illegal = str(fault_bot("illegal"))
    code, _, err = _run("play", illegal, RANDOM, RANDOM, "--seed", "4", "--sandbox", "process",
                        "--option", "max_deals=1", "--replay", str(replay))
    assert code == 0, err
    shown = {view: _run("replay", "show", str(replay), *(["--seat", view] if view else []))[1]
             for view in ("", "0", "1")}
    assert "seat 0 fault: " in shown[""] and "seat 0 fault: " in shown["0"]
    for view in ("", "0"):
        assert "is not legal (legal: " in shown[view], shown[view][-800:]
    assert "[fault: illegal]" in shown["1"] and "(legal: " not in shown["1"]
    assert "seat 0 fault: " not in shown["1"]


@pytest.mark.slow
def test_play_names_the_match_at_random_and_repeats_with_seed_and_key(tmp_path: Path) -> None:
    """The match id the bots are told is random, never the seed; the seed
    and key printed repeat the match exactly (the random bots' choices
    come from ARENA_SEED, made from the key)."""
    args = ["play", RANDOM, RANDOM, RANDOM, "--sandbox", "process", "--option", "max_deals=2"]
    code, out, err = _run(*args)
    assert code == 0, err
    (repeat,) = [line for line in out.splitlines() if line.startswith("repeat with: ")]
    seed, key = re.fullmatch(r"repeat with: --seed (\d+) --key ([0-9a-f]{32})", repeat).groups()
    (head,) = [line for line in out.splitlines() if line.startswith("match ")]
    match_id = head.split()[1]
    assert re.fullmatch(r"play-[0-9a-f]{12}", match_id) and seed not in match_id

    runs = []
    for _ in range(2):
        code, out, err = _run(*args, "--seed", seed, "--key", key, "--json")
        assert code == 0, err
        runs.append(json.loads(out))
    a, b = runs
    assert a["seed"] == b["seed"] == int(seed) and a["key"] == b["key"] == key
    assert a["match_id"] != b["match_id"]
    assert a["deals"] == b["deals"] and a["finish"] == b["finish"]
    assert [s["decisions"] for s in a["seats"]] == [s["decisions"] for s in b["seats"]]


def test_an_empty_key_is_a_usage_error() -> None:
    code, out, err = _run("play", RANDOM, RANDOM, RANDOM, "--key", " ")
    assert code == 2 and "--key: must not be empty" in err and "Traceback" not in err + out


@pytest.mark.slow
def test_pondering_flag_and_the_pause_mechanism_per_seat(tmp_path: Path) -> None:
    """Default: each seat is paused while another decides (its mechanism is
    recorded per seat, as the sandbox level is); --pondering: 'off'."""
    base = ["play", RANDOM, RANDOM, RANDOM, "--seed", "4", "--key", "7", "--sandbox", "process",
            "--option", "max_deals=1", "--json"]
    code, out, err = _run(*base)
    assert code == 0, err
    paused = json.loads(out)
    assert all(s["pause"] not in ("off", "") for s in paused["seats"])
    code, out, err = _run(*base, "--pondering")
    assert code == 0, err
    free = json.loads(out)
    assert [s["pause"] for s in free["seats"]] == ["off"] * 3
    assert [s["total"] for s in free["seats"]] == [s["total"] for s in paused["seats"]]
    code, out, err = _run(*base[:-1])
    assert code == 0, err
    assert re.search(r"seat \d random@[^ ]+: .*; sandbox process, (paused by|could not be paused)", out)


def test_replay_show_writes_a_names_control_characters_as_escapes(tmp_path: Path) -> None:
    """A lobby person's name is free text from anyone who reaches the lobby,
    and it is in the game's replay, which the lobby's page tells to read with
    `arena replay show`: its escape sequences (a title set by OSC ... BEL, a
    screen cleared, a line overwritten by CR) reached the reader's terminal
    as they were. They are written as \\xNN."""
    from web.stored import write_replay

    from arena.game import Rules

    replay = tmp_path / "lobby-game.jsonl"
    name = "eve\x1b]0;owned\x07\x1b[2J\rX"
    write_replay(replay, Rules.preset("standard").replace(max_deals=1), seed=3,
                 bots=[("ann", "human"), (name, "human"), ("greedy", "1.0")])
    code, out, err = _run("replay", "show", str(replay))
    assert code == 0, err
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", out), repr(out[:300])
    assert "1: eve\\x1b]0;owned\\x07\\x1b[2J\\x0dX@human" in out, out[:300]


@pytest.mark.slow
def test_the_referees_warnings_are_the_commands_own_lines(
        tmp_path: Path, fault_bot: Callable[[str], Path]) -> None:
    """A bot that first says hello with a wrong token: the referee refuses
    that stream and warns. `arena play` prints the warning as its own line
    ("arena play: warning: ..."), where it was Python's bare last-resort
    line, and the match is played to its result."""
    from clihelp import cli

    wrong = fault_bot("wrong_token")
    done = cli("play", wrong, RANDOM, RANDOM, "--sandbox", "process", "--option", "max_deals=1")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "arena play: warning: refused a connection on seat 0's socket: unknown token"], done.stderr
    assert "repeat with: --seed " in done.stdout
