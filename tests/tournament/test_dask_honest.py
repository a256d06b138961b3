"""The Dask coordinator re-plays every result a worker sends back before it
stores it (arena/tournament/executors/honest.py): one real match, forged in this
process every way a worker could, is refused with one line each."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from arena.referee import run_match
from arena.referee.spec import MatchSpec
from arena.sandbox.botfile import load_bot
from arena.tournament.executors import honest
from arena.tournament.executors.honest import ReplayMismatch, Returned

ROOT = Path(__file__).resolve().parents[2]


def spec_of(tmp: Path, seed: int = 11) -> MatchSpec:
    bots = tuple(load_bot(ROOT / p) for p in (
        "sample_bots/greedy", "sample_bots/random", "tournaments/sample/random_b"))
    return MatchSpec(match_id="s0-t0-o0", bots=bots, seed=seed, sandbox="process",
                     rules_options=(("target", 500), ("max_deals", 4)),
                     replay_path=str(tmp / "replays" / "s0-t0-o0.jsonl"))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchSpec, Returned]:
    tmp = tmp_path_factory.mktemp("honest")
    spec = spec_of(tmp)
    returned = honest.play_recorded(run_match, spec)
    return spec, returned


def lines(returned: Returned) -> list[dict[str, object]]:
    return [json.loads(line) for line in returned.replay.splitlines()]


def with_lines(returned: Returned, records: list[dict[str, object]]) -> Returned:
    return replace(returned, replay="".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.slow
def test_an_honest_result_is_stored_with_its_replay_where_the_spec_asks(played) -> None:
    spec, returned = played
    assert not Path(spec.replay_path).exists()  # the worker wrote it in a folder of its own
    honest.check(spec, returned)
    result = honest.stored(spec, returned)
    assert result.replay_path == spec.replay_path
    assert Path(spec.replay_path).read_text() == returned.replay
    assert list(Path(spec.replay_path).parent.glob("*.part")) == []


def forgeries(returned: Returned) -> dict[str, tuple[Returned, str]]:
    """Each forgery and the words its refusal must say."""
    r = returned.result
    seats = list(r.seats)
    best = max(range(3), key=lambda i: seats[i].total)
    loser = min(range(3), key=lambda i: seats[i].total)
    changed = [replace(s, total=s.total + 10) if s.seat == loser else s for s in seats]
    swapped = [replace(s, place=1) if s.seat == loser else s for s in seats]
    records = lines(returned)
    actions = [i for i, rec in enumerate(records) if rec["type"] == "action"]
    moved = [dict(rec) for rec in records]
    moved[actions[5]]["action"] = "pass" if moved[actions[5]]["action"] != "pass" else "bid 120"
    both = [dict(rec) for rec in records]
    for rec in both:  # the replay and the result changed together: the engine disagrees
        if rec["type"] == "result":
            rec["totals"] = [t + (10 if i == loser else 0) for i, t in enumerate(rec["totals"])]
    other_seed = [dict(rec) for rec in records]
    other_seed[0]["seed"] = r.seed + 1
    return {
        "total": (replace(returned, result=replace(r, seats=tuple(changed))),
                  f"its result records totals {[s.total for s in changed]}"),
        "place": (replace(returned, result=replace(r, seats=tuple(swapped))), "places"),
        "action": (with_lines(returned, moved), "action"),
        "replay and result": (replace(with_lines(returned, both),
                                      result=replace(r, seats=tuple(changed))),
                              "its replay records totals"),
        "seed": (replace(with_lines(returned, other_seed), result=replace(r, seed=r.seed + 1)),
                 "not the one the schedule gives"),
        "match": (replace(returned, result=replace(r, match_id="s0-t0-o1")),
                  "its result is of match s0-t0-o1"),
        "no replay": (replace(returned, replay=""), "the worker sent no replay"),
        "not a replay": (replace(returned, replay="{nope\n"), "not JSON"),
        "bot": (replace(returned, result=replace(r, seats=tuple(
            replace(s, bot="impostor") if s.seat == best else s for s in seats))), "impostor"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["total", "place", "action", "replay and result", "seed",
                                  "match", "no replay", "not a replay", "bot"])
def test_a_forged_result_is_refused_with_one_line(played, kind, tmp_path) -> None:
    spec, returned = played
    forged, words = forgeries(returned)[kind]
    with pytest.raises(ReplayMismatch) as refused:
        honest.check(spec, forged)
    message = str(refused.value)
    assert message.startswith("match s0-t0-o0") and "\n" not in message
    assert words in message, message


@pytest.mark.slow
def test_a_result_of_other_deals_than_the_schedule_is_refused(played, tmp_path) -> None:
    spec, returned = played
    with pytest.raises(ReplayMismatch, match="not the one the schedule gives"):
        honest.check(replace(spec, seed=spec.seed + 1), returned)
