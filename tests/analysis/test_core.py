"""The analysis of one seat from what it knew (arena.analysis): hidden cards
do not reach it, an obviously losing move is flagged, the same seed gives
the same bytes, bad input is one line."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from arena.analysis.errors import AnalysisError
from arena.analysis.labels import label
from arena.analysis.policies import reference
from arena.analysis.replay import Settings, analyse, analyse_states, decision, dumps
from arena.game import GameState, Rules, new_game, parse_action
from arena.referee.replay import read_replay, replay_states
from arena.sdk.belief import Sampler

from .games import play_replay

RULES = Rules.preset("standard").replace(max_deals=2)
Step = tuple[GameState, dict[str, Any] | None]


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analysis") / "m1.jsonl"
    play_replay(path, RULES, seed=5)
    return path


def _other_cards(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state with other hidden cards where `seat` sees exactly what it sees in `state`."""
    obs = state.observation(seat).to_dict()
    sampler = Sampler(state.rules, obs)
    for _ in range(50):
        other = sampler.state(sampler.sample(rng))
        if any(other.hand(s) != state.hand(s) for s in range(state.players) if s != seat):
            assert other.observation(seat) == state.observation(seat)
            return other
    return state  # every hidden card known (the last tricks): nothing to change


def _real_and_swapped(replay_path: Path) -> tuple[list[Step], list[Step]]:
    """The replay's steps, and the same with other hidden cards at every
    decision of seat 0 that has a choice."""
    replay = read_replay(replay_path)
    rng = random.Random(1)
    real, swapped = [], []
    changed = 0
    for state, rec in replay_states(replay):
        real.append((state, rec))
        if rec is not None and rec["seat"] == 0 and len(state.legal_actions()) > 1:
            other = _other_cards(state, 0, rng)
            changed += other is not state
            swapped.append((other, rec))
        else:
            swapped.append((state, rec))
    assert changed >= 5
    return real, swapped


def test_other_hidden_cards_give_the_same_bytes(replay_path: Path) -> None:
    real, swapped = _real_and_swapped(replay_path)
    seat_view = Settings(work=4, open_hand=False)
    a = dumps(analyse_states(RULES, real, 0, seat_view))
    b = dumps(analyse_states(RULES, swapped, 0, seat_view))
    assert a == b
    assert '"decisions": []' not in a
    # The open-hand line does read the hidden cards: the check can tell.
    with_open = Settings(work=4, open_hand=True)
    assert dumps(analyse_states(RULES, real, 0, with_open)) != dumps(
        analyse_states(RULES, swapped, 0, with_open))


def test_other_hidden_cards_give_the_same_bytes_in_two_stages(replay_path: Path) -> None:
    real, swapped = _real_and_swapped(replay_path)
    # The first deal only: the search reference is some 20 times greedy's cost.
    real, swapped = ([x for x in steps if x[0].deal_number == 1] for steps in (real, swapped))
    assert any(x[0] is not y[0] for x, y in zip(real, swapped, strict=True))
    two = Settings(work=4, open_hand=False, confirm="search", confirm_work=1, screen=3.0)
    a = analyse_states(RULES, real, 0, two)
    assert dumps(a) == dumps(analyse_states(RULES, swapped, 0, two))
    stages = [d["stage"] for d in a["decisions"]]
    assert 1 in stages and 2 in stages      # both stages valued some of them
    assert a["settings"]["confirm"] == {"policy": "search", "policy_work": 1, "screen": 3.0}


def _ten_under_the_ace() -> GameState:
    """Seat 0 declares and leads the ace of clubs; seat 1 holds the ten and
    the nine of clubs, and the ten cannot win the trick."""
    rules = Rules.preset("standard").replace(max_deals=1)
    hands = [["AC", "KC", "QC", "AD", "TD", "AH", "9H"], ["TC", "9C", "JD", "9D", "KH", "JH", "QS"],
             ["JC", "KD", "QD", "TH", "QH", "AS", "TS"]]
    g = new_game(rules, 1, dealer=2, hands=hands, talon=["KS", "JS", "9S"])
    for text in ("pass", "pass", "give 9S 1", "give JS 2", "contract 100", "play AC"):
        g = g.apply(parse_action(text))
    assert (g.to_act, sorted(map(str, g.legal_actions()))) == (1, ["play 9C", "play TC"])
    return g


def test_throwing_the_ten_under_the_ace_is_flagged() -> None:
    g = _ten_under_the_ace()
    policy = reference("greedy")
    bad = decision(g.rules, g, 1, "play TC", policy, Settings(work=32))
    assert bad["best"] == "play 9C"
    assert bad["label"] is not None and bad["loss"] > 2.5 * bad["se"] > 0
    assert bad["open_hand"]["best"] == "play 9C"
    good = decision(g.rules, g, 1, "play 9C", policy, Settings(work=32))
    assert (good["label"], good["loss"]) == (None, 0.0)


@pytest.mark.parametrize("name", ["search", "search-seat"])
def test_the_search_references_flag_it_too(name: str) -> None:
    g = _ten_under_the_ace()
    bad = decision(g.rules, g, 1, "play TC", reference(name, 2, seat=1),
                   Settings(work=8, policy=name, policy_work=2))
    assert bad["best"] == "play 9C" and bad["label"] is not None


def test_labels_need_the_threshold_and_the_standard_errors() -> None:
    assert label(9.9, 0.0) is None
    assert label(10.0, 0.0) == "inaccuracy"
    assert label(30.0, 11.9) == "mistake"
    assert label(30.0, 12.0) is None            # not beyond 2.5 SE
    assert label(30.0, 14.0, sigmas=2.0) == "mistake"
    assert label(80.0, 10.0) == "blunder"


def test_a_replay_analysed_twice_is_the_same_bytes_and_sums_up(replay_path: Path) -> None:
    replay = read_replay(replay_path)
    a = analyse(replay, 0, Settings(work=4))
    assert dumps(a) == dumps(analyse(read_replay(replay_path), 0, Settings(work=4)))
    mine = [r for r in replay.actions if r["seat"] == 0]
    assert len(a["decisions"]) + a["forced"] + len(a["skipped"]) == len(mine)
    every = a["summary"]["all"]
    assert every["decisions"] == len(a["decisions"])
    assert sum(a["summary"][p]["decisions"] for p in ("bidding", "exchange", "contract", "play")) \
        == every["decisions"]
    for d in a["decisions"]:
        assert d["loss"] >= 0 and d["taken"] in d["values"] and d["best"] in d["values"]
        assert d["values"][d["best"]] == max(d["values"].values())
    # Another analysis seed draws other deals.
    assert dumps(a) != dumps(analyse(replay, 0, Settings(work=4, seed=1)))


def test_bad_input_is_one_line(replay_path: Path) -> None:
    replay = read_replay(replay_path)
    with pytest.raises(AnalysisError, match="seat 3 is not a seat of this 3-player match"):
        analyse(replay, 3, Settings(work=4))
    with pytest.raises(AnalysisError, match="work must be at least 2"):
        analyse(replay, 0, Settings(work=1))
    with pytest.raises(AnalysisError, match="reference policy 'best'"):
        analyse(replay, 0, Settings(work=4, policy="best"))
