from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from arena.tournament.plan.config import (
    GUESSABLE_SEED,
    TournamentConfigError,
    example_config,
    load_config,
    seed_warning,
    toml_string,
)


def test_valid_config_loads(make_bot, make_tournament) -> None:
    bots = [make_bot(n) for n in ("a", "b", "c")]
    folder = make_tournament(bots, extra='concurrency = 2\ncpu_slots = false\n'
                                          '[time_control]\nper_move = 0.5\n'
                                          '[faults]\nmode = "forfeit"\n')
    config = load_config(folder)
    assert config.name == "t" and config.seed == 7 and config.concurrency == 2
    assert config.cpu_slots is False and load_config(make_tournament(bots, name="u")).cpu_slots
    assert config.match.rules_preset == "standard" and config.match.rules_options == (("target", 500),)
    assert config.match.time_control.per_move == 0.5 and config.match.time_control.bank == 10.0
    assert config.match.time_control.pondering is False  # the default: fair clocks
    assert load_config(make_tournament(bots, name="p", extra='[time_control]\npondering = true\n')
                       ).match.time_control.pondering is True
    assert config.match.fault_policy.mode == "forfeit"
    assert [Path(p).name for p in config.bot_paths] == ["a", "b", "c"]


@pytest.mark.parametrize("extra, rules, fragment", [
    ("concurency = 2", "", "key 'concurency': unknown key (did you mean 'concurrency'?)"),
    ("duplicate_sets = 0", "", "key 'duplicate_sets': must be 1..10000, got 0"),
    ("concurrency = \"two\"", "", "key 'concurrency': must be an integer, got 'two'"),
    ("executor = \"spark\"", "", "key 'executor': unknown executor 'spark'"),
    ("sandbox = \"vm\"", "", "key 'sandbox': unknown level 'vm'"),
    ("replays = 1", "", "key 'replays': must be true or false, got 1"),
    ("cpu_slots = \"yes\"", "", "key 'cpu_slots': must be true or false, got 'yes'"),
    ("cpu_slot = false", "", "key 'cpu_slot': unknown key (did you mean 'cpu_slots'?)"),
    ("", "target = 750", "key 'rules.target'"),
    ("", "targett = 500", "key 'rules.targett'"),
    ("", "preset = \"klingon\"", "key 'rules.preset'"),
    ("", "players = 4", "key 'rules.players'"),
    ("[time_control]\nper_move = -1", "", "key 'time_control.per_move': must be > 0 seconds"),
    ("[time_control]\nper_mov = 1", "", "key 'time_control.per_mov': unknown key"),
    ("[time_control]\npondering = 1", "", "key 'time_control.pondering': must be true or false, got 1"),
    ("[faults]\nmode = \"explode\"", "", "key 'faults.mode'"),
    ("[faults]\nmax_strikes = true", "", "key 'faults.max_strikes'"),
    ("[limits]\nmemory = 64", "", "key 'limits.memory': unknown key (did you mean 'memory_mb'?)"),
    ("[limits]\npids = 0", "", "key 'limits.pids': must be > 0, got 0"),
    ("[limits]\nmemory_mb = 1.5", "", "key 'limits.memory_mb': must be a whole number, got 1.5"),
    ("[limits]\ncpus = \"all\"", "", "key 'limits.cpus': must be a number, got 'all'"),
    # TOML allows nan and inf; `nan < 0` is False, so range checks alone let them in.
    ("[time_control]\nincrement = nan", "",
     "key 'time_control.increment': must be a finite number, got nan"),
    ("[time_control]\nbank = inf", "", "key 'time_control.bank': must be a finite number"),
    ("[limits]\ncpus = inf", "", "key 'limits.cpus': must be a finite number, got inf"),
    ("[limits]\nstop_grace = -nan", "", "key 'limits.stop_grace': must be a finite number"),
    ("", "target = nan", "key 'rules.target': must be a finite number, got nan"),
    ("description = [1.0, -inf]", "", "key 'description[1]': must be a finite number"),
])
def test_bad_values_give_one_line_naming_file_and_key(
        make_bot, make_tournament, extra: str, rules: str, fragment: str) -> None:
    bots = [make_bot(n) for n in ("a", "b", "c")]
    folder = make_tournament(bots, extra=extra, rules=rules or "target = 500")
    with pytest.raises(TournamentConfigError) as info:
        load_config(folder)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(folder / "tournament.toml") + ": ")
    assert fragment in message
    assert not (folder / "tournament.sqlite").exists()


def test_limits_reach_every_match_spec(make_bot, make_tournament) -> None:
    from arena.sandbox.api import Limits
    from arena.tournament.run.coordinator import match_spec
    from arena.tournament.store import MatchRow

    bots = [make_bot(n) for n in ("a", "b", "c")]
    folder = make_tournament(bots, extra="[limits]\nmemory_mb = 256\npids = 32\ncpus = 0.5\n")
    config = load_config(folder)
    assert config.match.limits == Limits(memory_mb=256, pids=32, cpus=0.5)
    assert load_config(make_tournament(bots, name="t2")).match.limits == Limits()
    row = MatchRow(match_id="m", set_no=0, table_no=0, order_no=0, seed=1, bot_ids=(1, 2, 3),
                   status="planned", attempts=0, result=None, replay_path="", error="")
    spec = match_spec(config, row, {1: None, 2: None, 3: None})
    assert spec.limits == config.match.limits


def test_missing_bot_and_duplicate_names(make_bot, make_tournament, tmp_path) -> None:
    a = make_bot("a")
    folder = make_tournament([a, tmp_path / "nowhere", make_bot("c")])
    with pytest.raises(TournamentConfigError, match=r"key 'bots\[1\]'.*nowhere.*no such directory"):
        load_config(folder)
    folder = make_tournament([a, a, make_bot("c")], name="t2")
    with pytest.raises(TournamentConfigError, match=r"key 'bots\[1\]': .* is listed twice \(also bots\[0\]\)"):
        load_config(folder)
    with pytest.raises(TournamentConfigError, match=r"listed twice"):
        load_config(folder, check_bots=False)  # the read commands too
    copy = tmp_path / "copy_of_a"
    shutil.copytree(a, copy)
    folder = make_tournament([a, copy, make_bot("c")], name="t3")
    with pytest.raises(TournamentConfigError, match=r"key 'bots\[1\]': bot name 'a' is also used"):
        load_config(folder)


def test_missing_required_keys_and_bad_toml(tmp_path) -> None:
    (tmp_path / "tournament.toml").write_text('seed = 1\nbots = []\n')
    with pytest.raises(TournamentConfigError, match="key 'name': missing"):
        load_config(tmp_path)
    (tmp_path / "tournament.toml").write_text('name = "x"\nseed = \n')
    with pytest.raises(TournamentConfigError, match="not valid TOML"):
        load_config(tmp_path)
    with pytest.raises(TournamentConfigError, match="missing"):
        load_config(tmp_path / "absent")


def test_example_config_is_valid(make_bot, tmp_path) -> None:
    bots = [make_bot(n) for n in ("a", "b", "c")]
    folder = tmp_path / "ex"
    folder.mkdir()
    (folder / "tournament.toml").write_text(
        example_config("ex", [f"../src/{b.name}" for b in bots], 8_123_456_789_012_345))
    config = load_config(folder)
    assert config.name == "ex" and len(config.bot_paths) == 3 and config.duplicate_sets == 2
    assert config.seed == 8_123_456_789_012_345 and seed_warning(config) == ""
    # Every key the config accepts is in the example, so a user sees them all.
    data = tomllib.loads((folder / "tournament.toml").read_text())
    assert set(data) >= {"name", "description", "seed", "bots", "rules", "time_control",
                         "faults", "limits", "new_version_deals", "seed_public"}
    assert data["seed_public"] is False and config.seed_public is False
    from dataclasses import fields

    from arena.sandbox.api import Limits
    assert set(data["limits"]) == {f.name for f in fields(Limits)}


def test_a_short_seed_is_warned_about(make_bot, make_tournament) -> None:
    """A bot could try short seeds one by one against its first hand."""
    bots = [make_bot(n) for n in ("a", "b", "c")]
    assert "seed 1000 is short" in seed_warning(load_config(make_tournament(bots, seed=1000)))
    assert seed_warning(load_config(make_tournament(bots, name="u", seed=GUESSABLE_SEED))) == ""


def test_not_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tournament.toml").write_bytes(b'name = "caf\xe9"\nseed = 1\n')
    with pytest.raises(TournamentConfigError, match=r"tournament.toml: not UTF-8 text") as info:
        load_config(tmp_path)
    assert "\n" not in str(info.value)


def test_reading_results_does_not_need_the_bot_folders(make_bot, make_tournament) -> None:
    bots = [make_bot(n) for n in ("a", "b", "c")]
    folder = make_tournament(bots)
    shutil.rmtree(bots[1])
    with pytest.raises(TournamentConfigError, match=r"key 'bots\[1\]'.*not a bot folder"):
        load_config(folder)
    config = load_config(folder, check_bots=False)
    assert config.bot_paths == tuple(str(b.resolve()) for b in bots)


@pytest.mark.parametrize("entry", ['../q"bot', "back\\slash", "tab\there", "del\x7f", "ünï"])
def test_example_config_escapes_bot_paths(entry: str) -> None:
    data = tomllib.loads(example_config("x", [entry, "plain"], 1))
    assert data["bots"] == [entry, "plain"]
    assert tomllib.loads("v = " + toml_string(entry))["v"] == entry
