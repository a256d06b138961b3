"""Whole matches over real gRPC with real bot processes."""

from __future__ import annotations

import dataclasses
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.launch import group_alive
from arena.referee.replay import check, read_replay, replay_game
from arena.sandbox.botfile import BotSpec, load_bot

pytestmark = pytest.mark.slow


def _spec(bots: tuple[BotSpec, ...], tmp_path: Path, **kw: object) -> MatchSpec:
    return MatchSpec(
        match_id="m1", bots=bots, seed=kw.pop("seed", 11),  # type: ignore[arg-type]
        rules_options=(("target", 500),), sandbox="process",
        replay_path=str(tmp_path / "m1.jsonl"), work_dir=str(tmp_path),
        time_control=TimeControl(per_move=5.0, bank=10.0), **kw,  # type: ignore[arg-type]
    )


def test_three_random_bots_play_a_whole_match_and_the_replay_replays(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    result = run_match(_spec((random_bot,) * 3, tmp_path))

    assert result.reason in ("complete", "max_deals")
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    assert all(s.decisions > 0 and s.sandbox == "process" for s in result.seats)
    assert sorted(x for g in result.finish for x in g) == [0, 1, 2]
    assert result.deals and result.deals[-1].totals == tuple(s.total for s in result.seats)
    if result.reason == "complete":
        assert max(s.total for s in result.seats) >= 500
    best = min(result.seats, key=lambda s: s.place)
    assert best.place == 1 and best.total == max(s.total for s in result.seats)

    # The replay re-plays through the engine to the same totals.
    totals = check(result.replay_path)
    assert totals == tuple(s.total for s in result.seats)
    rep = read_replay(result.replay_path)
    assert rep.header["seed"] == 11 and len(rep.header["bots"]) == 3
    assert rep.header["bots"][0]["content_hash"] == random_bot.content_hash
    assert rep.header["rules"]["target"] == 500
    assert len(rep.actions) == sum(s.decisions for s in result.seats)
    assert replay_game(rep).is_over

    # Every bot process group is gone.
    for s in result.seats:
        assert s.log_path and Path(s.log_path).exists()


def test_same_seed_same_match(random_bot: BotSpec, tmp_path: Path) -> None:
    """The same seed and key (the bots' ARENA_SEED) give the same match."""
    a = run_match(_spec((random_bot,) * 3, tmp_path / "a", seed=5, key="k5"))
    b = run_match(_spec((random_bot,) * 3, tmp_path / "b", seed=5, key="k5"))
    assert a.deals == b.deals and a.finish == b.finish
    assert [r["action"] for r in read_replay(a.replay_path).actions] == [
        r["action"] for r in read_replay(b.replay_path).actions]


def test_no_bot_process_outlives_the_match(
    random_bot: BotSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arena.referee.match as match_mod

    pids: list[int] = []
    real = match_mod.start_bot

    def spy(*args: Any, **kw: Any) -> Any:
        handle = real(*args, **kw)
        pids.append(handle.pid)
        return handle

    monkeypatch.setattr(match_mod, "start_bot", spy)
    run_match(_spec((random_bot,) * 3, tmp_path, seed=2))
    assert len(pids) == 3
    assert not any(group_alive(p) for p in pids)


def test_over_tcp_and_a_flooding_bot_gets_one_malformed_fault(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    from arena.sandbox.botfile import load_bot

    flood = load_bot(Path(__file__).parent / "flood_bot")
    spec = _spec((random_bot, flood, random_bot), tmp_path, seed=3, transport="tcp")
    spec = MatchSpec(**{**spec.__dict__, "rules_options": (("max_deals", 2),)})
    result = run_match(spec)
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert dict(result.seats[1].faults) == {"timeout": 0, "crash": 0, "illegal": 0, "malformed": 1}
    assert "flooded" in result.seats[1].fault_log[0]
    assert all(n == 0 for s in (result.seats[0], result.seats[2]) for _, n in s.faults)
    assert len(result.deals) == 2


@pytest.mark.parametrize("options", [
    (("players", 4), ("lottery", True)),
    (("players", 2),),
], ids=["4-players", "2-players"])
def test_other_table_sizes(random_bot: BotSpec, tmp_path: Path, options: tuple) -> None:  # type: ignore[type-arg]
    players = dict(options)["players"]
    spec = MatchSpec(
        match_id="sizes", bots=(random_bot,) * players, seed=4, rules_preset="finnish",
        rules_options=(*options, ("max_deals", 2)), sandbox="process",
        replay_path=str(tmp_path / "r.jsonl"), time_control=TimeControl(per_move=5.0),
    )
    result = run_match(spec)
    assert len(result.seats) == players and len(result.deals) == 2
    assert all(s.status == "ok" and s.decisions > 0 for s in result.seats)
    assert check(result.replay_path) == tuple(s.total for s in result.seats)


def test_the_worker_entry_point_and_its_values_pickle(random_bot: BotSpec) -> None:
    import json
    import pickle
    from dataclasses import asdict

    from arena.referee import match as match_mod
    from arena.referee.spec import DealSummary, MatchResult, SeatResult

    assert pickle.loads(pickle.dumps(run_match)) is match_mod.run_match
    spec = MatchSpec(match_id="p", bots=(random_bot,) * 3, seed=1)
    assert pickle.loads(pickle.dumps(spec)) == spec
    result = MatchResult(
        match_id="p", seed=1, finish=((1,), (0, 2)), duration=1.0,
        seats=tuple(SeatResult(seat=i, bot="random", version="1", total=0, place=1, status="ok",
                               decisions=1, time_total=0.1, time_max=0.1,
                               faults=(("timeout", 0),)) for i in range(3)),
        deals=(DealSummary(1, 0, None, 0, 0, False, (0, 0, 0), (0, 0, 0), (0, 0, 0)),),
    )
    assert pickle.loads(pickle.dumps(result)) == result
    json.dumps(asdict(result))


def test_a_spec_that_cannot_be_played_is_refused_up_front(random_bot: BotSpec) -> None:
    from arena.referee import MatchSetupError

    with pytest.raises(MatchSetupError, match="3 players"):
        run_match(MatchSpec(match_id="x", bots=(random_bot,) * 2, seed=1))
    with pytest.raises(MatchSetupError, match="unknown rules preset"):
        run_match(MatchSpec(match_id="x", bots=(random_bot,) * 3, seed=1, rules_preset="nope"))
    # bwrap and docker bots have no network: over TCP none could connect.
    with pytest.raises(MatchSetupError, match="transport tcp needs the process sandbox level"):
        run_match(MatchSpec(match_id="x", bots=(random_bot,) * 3, seed=1, transport="tcp",
                            sandbox="bwrap"))


def test_a_sandbox_level_this_machine_lacks_fails_the_match_not_the_bots(
    random_bot: BotSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the bots' fault: no result with three crashed bots (a tournament
    would store it), but a match that could not be played."""
    from arena.referee import MatchSetupError
    from arena.sandbox import levels

    monkeypatch.setattr(levels, "available_levels", lambda: ("process",))
    with pytest.raises(MatchSetupError, match="sandbox level 'bwrap' is not available"):
        run_match(MatchSpec(match_id="x", bots=(random_bot,) * 3, seed=1, sandbox="bwrap"))


def test_an_image_only_bot_without_docker_fails_the_match_not_the_bot(
    random_bot: BotSpec, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A bot that names only an image can run at the docker level alone. With
    no Docker engine, that is this machine's state, not the bot's fault: the
    match fails (a tournament plays it on a later run) and scores no crash."""
    from arena.referee import MatchSetupError
    from arena.sandbox import levels

    (tmp_path / "bot.toml").write_text(
        'name = "img"\nversion = "1.0.0"\nlanguage = "python"\nimage = "arena-python:1"\n')
    image_only = load_bot(tmp_path)
    monkeypatch.setattr(levels, "available_levels", lambda: ("bwrap", "process"))
    with pytest.raises(MatchSetupError,
                       match=r"img@1.0.0 has only an `image`, no `run` command, and the docker level is not"):
        run_match(MatchSpec(match_id="x", bots=(random_bot, image_only, random_bot), seed=1))


def test_arena_seed_does_not_give_the_deal_seed_away(random_bot: BotSpec, tmp_path: Path) -> None:
    """With the deal seed a bot could deal every hand and the talon itself.
    Its ARENA_SEED is reproducible (the match's key) and different per seat,
    and the seed is not in its environment, nor is it a simple function of
    ARENA_SEED (tests/sandbox/test_seed_secrecy.py searches everything a bot
    sees at every level)."""
    from arena.referee.bot_seed import bot_seed
    from arena.sandbox.botfile import load_bot

    folder = tmp_path / "envbot"
    folder.mkdir()
    # The random bot's script inside the folder: a sandboxed bot sees nothing beside it.
    shutil.copy(Path(random_bot.path) / "bot.py", folder / "bot.py")
    (folder / "bot.toml").write_text(
        'name = "envbot"\nversion = "1"\nlanguage = "python"\n'
        f'run = ["sh", "-c", "env; exec {sys.executable} bot.py"]\n')
    envbot = load_bot(folder)
    seed = 7_318_273_645_112_901  # long: no other number holds it by chance
    spec = _spec((envbot,) * 3, tmp_path, seed=seed, key="the-key")
    spec = MatchSpec(**{**spec.__dict__, "rules_options": (("max_deals", 1),)})
    result = run_match(spec)
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    envs = [dict(line.split("=", 1) for line in p.read_text().splitlines() if "=" in line)
            for p in sorted(tmp_path.glob("m1-seat*-envbot.log"))]  # its log (a bot's folder keeps nothing)
    assert len(envs) == 3
    given = sorted(int(env["ARENA_SEED"]) for env in envs)
    assert given == sorted(bot_seed("the-key", seat) for seat in range(3))
    assert len(set(given)) == 3
    for env in envs:
        assert not any(str(seed) in value for value in env.values())
    for value in given:  # the old scheme was seed * 16 + seat
        assert all(value // k != seed and value - k != seed for k in (1, 2, 3, 4, 16))


@pytest.mark.parametrize("level", ["process", pytest.param("bwrap", marks=pytest.mark.bwrap),
                                   pytest.param("docker", marks=pytest.mark.docker)])
def test_match_limits_reach_the_bot_process(random_bot: BotSpec, tmp_path: Path, level: str) -> None:
    """MatchSpec.limits (tournament.toml [limits]) is what the sandbox applies."""
    from arena.sandbox import available_levels
    from arena.sandbox.api import Limits
    from arena.sandbox.botfile import load_bot

    if level not in available_levels():
        pytest.skip(f"sandbox level {level} is not available on this machine")
    reporter = load_bot(Path(__file__).parent / "limits_bot")
    limits = Limits(open_files=77, file_size_mb=3, memory_mb=300, cpu_seconds=77)
    spec = dataclasses.replace(_spec((reporter, random_bot, random_bot), tmp_path, limits=limits),
                               rules_options=(("target", 500), ("max_deals", 2)), sandbox=level)
    result = run_match(spec)
    assert result.seats[0].status == "ok" and result.seats[0].sandbox == level
    log = Path(result.seats[0].log_path).read_text()
    assert f"LIMITS nofile=77 fsize={3 * 1024 * 1024} data={300 * 1024 * 1024} cpu=77" in log, log


def test_a_bot_that_misses_the_start_up_limit_is_stopped_then(
    random_bot: BotSpec, tmp_path: Path
) -> None:
    """It forfeits at the start-up limit and is stopped there, not left
    running (and free to flood its socket) until the match ends.

    The timeline holds on a loaded CI machine: the start-up limit (8 s,
    counted from the last launch) leaves the other bots ample time to
    connect, the late bot wakes 10 s after its launch, and a pacing bot
    thinks 4 s on its first decision (within the 5 s per-move limit), so play
    lasts past the wake-up whatever the deal."""
    from arena.sandbox.botfile import load_bot

    late = tmp_path / "late"
    late.mkdir()
    (late / "bot.py").write_text(
        "import sys, time\ntime.sleep(10.0)\nprint('awake', file=sys.stderr, flush=True)\n"
        "time.sleep(60)\n")
    (late / "bot.toml").write_text('name = "late"\nversion = "1"\nlanguage = "python"\n'
                                   'run = "python3 bot.py"\n')
    pacer = tmp_path / "pacer"
    pacer.mkdir()
    (pacer / "bot.py").write_text(
        "import random, time\nfrom arena.sdk import Bot, run\n\n"
        "class Pacer(Bot):\n"
        "    first, rng = True, random.Random(5)\n"
        "    def act(self, obs):\n"
        "        if self.first:\n"
        "            self.first = False\n"
        "            time.sleep(4.0)\n"
        "        return self.rng.choice(obs.legal_actions)\n\n"
        "raise SystemExit(run(Pacer()))\n")
    (pacer / "bot.toml").write_text('name = "pacer"\nversion = "1"\nlanguage = "python"\n'
                                    'run = "python3 bot.py"\n')
    spec = _spec((random_bot, load_bot(late), load_bot(pacer)), tmp_path, seed=5)
    spec = dataclasses.replace(spec, time_control=TimeControl(per_move=5.0, bank=10.0, startup=8.0),
                               rules_options=(("target", 500), ("max_deals", 3)))
    result = run_match(spec)
    seat = result.seats[1]
    assert seat.status == "forfeit" and dict(seat.faults)["timeout"] == 1
    assert [result.seats[i].status for i in (0, 2)] == ["ok", "ok"], result.seats
    # The match outlasts the bot's 10 s nap: only a stop at the limit keeps it from waking.
    assert result.duration > 12.0, result.duration
    assert "awake" not in Path(seat.log_path).read_text()
