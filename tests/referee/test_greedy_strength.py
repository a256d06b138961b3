"""The greedy sample bot beats random bots clearly (issue 3).

Most games are played in-process: the greedy policy is a pure function of
the observation dict and the legal texts, so the engine can drive it
directly and 100+ whole games take seconds. One more match goes through
the real referee with real bot processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arena.game import Rules, new_game
from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_PRESET = 20          # x 6 presets = 120 seeded games
Policy = Callable[[dict[str, Any], Sequence[str]], str]


@pytest.fixture(scope="module")
def greedy(load_script: Callable[[str, str], ModuleType]) -> ModuleType:
    return load_script("sample_bots/greedy/greedy_policy.py", "greedy_policy_strength")


def play_game(rules: Rules, seed: int, greedy_seat: int, policy: Policy) -> tuple[float, bool]:
    """One whole game: greedy at `greedy_seat`, uniform random elsewhere.
    Returns (greedy's share of first place, whether every greedy choice was legal)."""
    rng = random.Random(seed * 1_000_003 + 17)
    game = new_game(rules, seed=seed)
    legal_always = True
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if seat == greedy_seat:
            texts = [str(a) for a in legal]
            choice = policy(game.observation(seat).to_dict(), texts)
            legal_always &= choice in texts
            action = legal[texts.index(choice)]
        else:
            action = rng.choice(legal)
        game = game.apply(action)
    first = game.finish[0]
    return (1.0 / len(first) if greedy_seat in first else 0.0), legal_always


def test_greedy_beats_two_random_bots_in_every_preset(
    greedy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    per_preset: dict[str, float] = {}
    wins = 0.0
    games = 0
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        won = 0.0
        for seed in range(GAMES_PER_PRESET):
            # Rotate the seat so no seat advantage helps or hurts it.
            share, legal = play_game(rules, seed, seed % 3, greedy.choose)
            assert legal, f"greedy chose an illegal action in {preset} game {seed}"
            won += share
        per_preset[preset] = won / GAMES_PER_PRESET
        wins += won
        games += GAMES_PER_PRESET
    rate = wins / games
    with capsys.disabled():
        detail = ", ".join(f"{p} {r:.2f}" for p, r in per_preset.items())
        print(f"\ngreedy vs two random bots: win rate {rate:.3f} over {games} games ({detail})")
    assert games >= 100
    assert rate >= 0.55, f"greedy won only {rate:.3f} of {games} games against random bots"
    assert min(per_preset.values()) >= 0.5


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("finnish", {"players": 4}),
        ("finnish", {"players": 2}),
        ("finnish", {"players": 2, "two_player_form": "banks"}),
        ("finnish", {"exchange": "discard"}),
        ("finnish", {"blind": "finnish"}),
        ("czech", {"blind": "czech", "golden_horse": True, "samosval": True}),
    ],
)
def test_greedy_plays_the_optional_forms_legally(
    greedy: ModuleType, preset: str, options: dict[str, object]
) -> None:
    rules = Rules.preset(preset).replace(**options)
    won = 0.0
    for seed in range(6):
        share, legal = play_game(rules, seed, seed % rules.players, greedy.choose)
        assert legal
        won += share
    assert won >= 3, f"greedy won {won} of 6 games of {preset} {options}"


@pytest.mark.slow
def test_greedy_beats_random_bots_through_the_referee(tmp_path: Path) -> None:
    greedy_bot = load_bot(ROOT / "sample_bots" / "greedy")
    random_bot = load_bot(ROOT / "sample_bots" / "random")
    result = run_match(MatchSpec(
        match_id="greedy-vs-random", bots=(random_bot, greedy_bot, random_bot), seed=3,
        sandbox="process", work_dir=str(tmp_path),
        time_control=TimeControl(per_move=5.0, bank=20.0),
    ))
    assert result.reason == "complete"
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    greedy_seat = result.seats[1]
    assert greedy_seat.bot == "greedy" and greedy_seat.decisions > 0
    assert greedy_seat.place == 1, f"greedy finished {greedy_seat.place}: {result.seats}"
