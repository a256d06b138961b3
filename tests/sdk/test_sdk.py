"""arena.sdk: the Observation view, run()'s setup errors, and every hook in a real match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.game import Rules, new_game
from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox.botfile import load_bot
from arena.sdk import Bot, Observation, run
from arena.wire import codec
from arena.wire.codec import pb

ROOT = Path(__file__).resolve().parents[2]


def _request() -> pb.DecisionRequest:
    game = new_game(Rules.preset("standard"), seed=1)
    legal = game.legal_actions()
    req = pb.DecisionRequest(seq=4, legal_texts=[str(a) for a in legal], time_limit_s=2.5,
                             bank_left_s=1.5, legal_actions=[codec.action_to_pb(a) for a in legal])
    codec.observation_to_pb(game.observation(game.to_act).to_dict(), req.observation)
    return req


def test_observation_gives_fields_as_attributes_and_items() -> None:
    req = _request()
    obs = Observation(req)
    assert obs.seq == 4 and obs.time_limit_s == 2.5 and obs.bank_left_s == 1.5
    assert obs.phase == obs["phase"] == "bidding"
    assert obs.hand == list(req.observation.hand) and len(obs.hand_cards) == 7
    assert [str(a) for a in obs.legal_actions] == obs.legal_texts == list(req.legal_texts)
    assert obs.declarer is None                      # unset optional field
    with pytest.raises(AttributeError, match="no field 'colour'"):
        obs.colour  # noqa: B018


def test_observation_uses_the_proto_field_names_and_keeps_the_old_talon_size() -> None:
    req = _request()
    obs = Observation(req)
    assert obs.talon_count == obs["talon_count"] == req.observation.talon_count == 3
    assert "talon_count" in obs.data and "talon_size" not in obs.data
    # The field's name before the proto renamed it still answers, with a warning.
    with pytest.warns(DeprecationWarning, match="'talon_size' is now called 'talon_count'") as record:
        assert obs.talon_size == 3
    assert record[0].filename == __file__  # points at the bot's line
    with pytest.warns(DeprecationWarning):
        assert obs["talon_size"] == 3


def test_run_without_the_environment_explains_and_returns_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ARENA_ADDRESS", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    assert run(Bot()) == 2
    assert "ARENA_ADDRESS and ARENA_TOKEN" in capsys.readouterr().err


@pytest.mark.slow
def test_every_hook_is_called_in_a_real_match(tmp_path: Path) -> None:
    hooks = load_bot(Path(__file__).parent / "hook_bot")
    rnd = load_bot(ROOT / "sample_bots" / "random")
    result = run_match(MatchSpec(
        match_id="sdk", bots=(rnd, hooks, rnd), seed=8, rules_options=(("max_deals", 2),),
        sandbox="process", work_dir=str(tmp_path), time_control=TimeControl(per_move=5.0),
    ))
    me = result.seats[1]
    assert me.status == "ok" and all(n == 0 for _, n in me.faults), me.fault_log
    report = json.loads(Path(me.log_path).read_text().strip().splitlines()[-1])
    seen = report["seen"]
    assert report["seat"] == 1 and report["tricks_ok"]
    assert seen["start"] == 1 and seen["end"] == 1 and seen["options"] == len(Rules.option_names())
    assert seen["act"] == me.decisions
    assert seen["deal_end"] == len(result.deals) == 2
    assert seen["event:deal"] == 2
    assert seen["event:action"] == sum(s.decisions for s in result.seats)
    assert seen["event:trick"] >= 8 and seen["event:talon"] >= 1
    assert report["places"] == [s.place for s in result.seats]


@pytest.mark.slow
def test_a_slow_match_end_hook_runs_to_its_end(tmp_path: Path) -> None:
    """After MatchEnd a bot has 3 s before it is stopped (docs/protocol.md):
    a hook that works 1.5 s finishes (a 1 s allowance would cut it off)."""
    folder = tmp_path / "slowend"
    folder.mkdir()
    (folder / "bot.py").write_text(
        "import sys, time\nfrom arena.sdk import Bot, run\n\n"
        "class SlowEnd(Bot):\n"
        "    def act(self, obs):\n"
        "        return obs.legal_actions[0]\n\n"
        "    def on_match_end(self, end):\n"
        "        time.sleep(1.5)\n"
        "        print('hook finished', file=sys.stderr, flush=True)\n\n"
        "raise SystemExit(run(SlowEnd()))\n")
    (folder / "bot.toml").write_text('name = "slowend"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    rnd = load_bot(ROOT / "sample_bots" / "random")
    result = run_match(MatchSpec(
        match_id="slowend", bots=(rnd, load_bot(folder), rnd), seed=8,
        rules_options=(("max_deals", 1),), sandbox="process", work_dir=str(tmp_path),
        time_control=TimeControl(per_move=5.0),
    ))
    me = result.seats[1]
    assert me.status == "ok" and all(n == 0 for _, n in me.faults), me.fault_log
    assert "hook finished" in Path(me.log_path).read_text()


@pytest.mark.slow
def test_a_bot_that_asks_for_turn_notices_gets_one_per_other_decision(tmp_path: Path) -> None:
    """`turn_notices = True`: `on_turn` for every decision of another seat
    (no private offers in the standard rules without redeal hands here),
    and still every event exactly once."""
    folder = tmp_path / "turns"
    folder.mkdir()
    (folder / "bot.py").write_text(
        "import json, sys\nfrom arena.sdk import Bot, run\n\n"
        "class Turns(Bot):\n"
        "    turn_notices = True\n"
        "    turns, actions, me = [], 0, None\n"
        "    def on_match_start(self, start):\n"
        "        self.me = start.seat\n"
        "    def act(self, obs):\n"
        "        return obs.legal_actions[0]\n"
        "    def on_event(self, event):\n"
        "        self.actions += event.kind == 'action'\n"
        "    def on_turn(self, turn):\n"
        "        assert turn.seat != self.me and turn.per_move_s == 5.0, turn\n"
        "        self.turns.append([turn.seat, turn.phase])\n"
        "    def on_match_end(self, end):\n"
        "        print(json.dumps({'turns': self.turns, 'actions': self.actions}), file=sys.stderr)\n\n"
        "raise SystemExit(run(Turns()))\n")
    (folder / "bot.toml").write_text('name = "turns"\nversion = "1"\nlanguage = "python"\n'
                                     'run = "python3 bot.py"\n')
    rnd = load_bot(ROOT / "sample_bots" / "random")
    result = run_match(MatchSpec(
        match_id="turns", bots=(rnd, load_bot(folder), rnd), seed=8,
        rules_options=(("max_deals", 2), ("redeal", "none")), sandbox="process",
        work_dir=str(tmp_path), time_control=TimeControl(per_move=5.0), replay_path=str(tmp_path / "m.jsonl"),
    ))
    me = result.seats[1]
    assert me.status == "ok" and all(n == 0 for _, n in me.faults), me.fault_log
    report = json.loads(Path(me.log_path).read_text().strip().splitlines()[-1])
    from arena.referee.replay import read_replay

    others = [r["seat"] for r in read_replay(result.replay_path).actions if r["seat"] != 1]
    assert [seat for seat, _ in report["turns"]] == others
    assert {phase for _, phase in report["turns"]} >= {"bidding", "play"}
    assert report["actions"] == sum(s.decisions for s in result.seats)
