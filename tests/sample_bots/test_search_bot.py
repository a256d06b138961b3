"""The search sample bot: its fast trick rules and scoring agree with the
engine, its choices are legal and repeatable, and it plays whole real
matches (real processes, the real referee) at the bwrap and docker levels."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.game import Card, GameState, Rules, new_game
from arena.referee import MatchSpec, TimeControl, run_match
from arena.referee.replay import check
from arena.sandbox import available_levels
from arena.sandbox.botfile import load_bot

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "sample_bots" / "search"
sys.path.insert(0, str(SEARCH))

import fastplay  # noqa: E402
import search_policy  # noqa: E402
from scoring import Scorer  # noqa: E402

PRESETS = ["standard", "czech", "finnish", "lithuanian", "swedish"]


def wire(obs: dict[str, Any]) -> dict[str, Any]:
    obs["talon_count"] = obs.pop("talon_size")
    return obs


def random_game(preset: str, seed: int) -> Iterator[GameState]:
    """Every state of a game of random legal actions."""
    g = new_game(Rules.preset(preset), seed)
    rng = random.Random(seed)
    while not g.is_over:
        yield g
        legal = g.legal_actions()
        g = g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", PRESETS)
def test_fast_trick_rules_list_the_engines_legal_plays(preset: str) -> None:
    """At every play decision of random games, fastplay's moves (built from
    the true hands) are exactly the engine's legal plays."""
    rules = Rules.preset(preset)
    ctx = search_policy.Context(rules, wire(new_game(rules, 0).observation(0).to_dict()), 1, 0, 1e18)
    checked = 0
    for seed in range(2):
        for g in random_game(preset, seed):
            if g.deal_number > 4:
                break
            if g.phase != "play":
                continue
            obs = wire(g.observation(g.to_act).to_dict())
            ctx.obs = obs
            ctx.nxt = [0] * 3
            for i, s in enumerate(obs["active_seats"]):
                ctx.nxt[s] = obs["active_seats"][(i + 1) % 3]
            hands = tuple(tuple(g.hand(s)) for s in range(3))
            p = search_policy._play_from(ctx, _deal(hands))
            fast = sorted(f"play {fastplay_card(c)}" + (f" {d}" if d else "")
                          for c, d in fastplay.moves(p))
            assert fast == sorted(str(a) for a in g.legal_actions()), (preset, seed, obs["trick"])
            checked += 1
    assert checked > 30


def fastplay_card(index: int) -> str:
    from arena.game import DECK

    return str(DECK[index])


def _deal(hands: tuple[tuple[Any, ...], ...]) -> Any:
    from arena.sdk.belief import Deal

    return Deal(hands, (), (), (), ())


@pytest.mark.parametrize("preset", PRESETS)
def test_scoring_matches_the_engine_at_every_deal_end(preset: str) -> None:
    """The bot's own scoring of a played deal gives the engine's new totals
    (rounding, lock and cap, the Czech barrel, bolts)."""
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(6):
        g = new_game(rules, seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            action = legal[rng.randrange(len(legal))]
            nxt = g.apply(action)
            if g.phase == "play" and len(nxt.deals) > len(g.deals):
                obs = g.observation(0).to_dict()
                trick = [(int(t["seat"]), Card.parse(t["card"])) for t in obs["trick"]]
                trick.append((g.to_act, action.card))  # type: ignore[attr-defined,arg-type]
                winner = _winner(trick, obs["trump"])
                cards, tricks = list(obs["points_won"]), list(obs["tricks_won"])
                cards[winner] += sum(c.points for _, c in trick)
                tricks[winner] += 1
                rec = nxt.deals[-1]
                new, made, _ = Scorer(rules, obs).changes(
                    rec.declarer, rec.contract, list(rec.deal_scores), cards, tricks)
                assert (new, made) == (list(rec.totals), rec.made), (preset, seed, rec)
                checked += 1
            g = nxt
    assert checked > 20


def _winner(trick: list[tuple[int, Card]], trump: str) -> int:
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.suit is best.suit:
            if card.strength > best.strength:
                best_seat, best = seat, card
        elif card.suit.value == trump:
            best_seat, best = seat, card
    return best_seat


@pytest.mark.parametrize("preset", ["standard", "czech"])
def test_choices_are_legal_and_the_same_for_the_same_seed(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(3)
    seen_phases = set()
    for g in random_game(preset, 11):
        legal = [str(a) for a in g.legal_actions()]
        if g.deal_number > 5:
            break
        # A sample of the decisions, but always the first of each phase: the
        # coverage below must not hang on which deals a seed gives.
        if len(legal) < 2 or (g.phase in seen_phases and rng.random() > 0.3):
            continue
        obs = wire(g.observation(g.to_act).to_dict())
        a = search_policy.choose(rules, obs, legal, work=6, seed=5)
        b = search_policy.choose(rules, obs, legal, work=6, seed=5)
        assert a in legal and a == b
        seen_phases.add(g.phase)
    assert {"bidding", "exchange", "play"} <= seen_phases


def test_a_lottery_deal_is_searched_and_scored_with_the_lottery() -> None:
    """Finnish, 4 players: the lottery's guess and pick are legal and
    repeatable; every decision after the pick searches over sampled deals
    (the sampler covers it: no BeliefError), and the bot's scoring of the
    deal's end includes the lottery's 100 as the engine does."""
    rules = Rules.preset("finnish").replace(players=4)
    hands = ["9C 9D 9H AC TC KC QC", "AD TD KD QD JD JC AS", "AH TH KH QH JH TS KS", ""]
    for seed in range(4):
        g = new_game(rules, seed, dealer=3, hands=[h.split() for h in hands],
                     talon=["QS", "JS", "9S"])
        rng = random.Random(seed)
        while g.deal_number == 1:
            legal = [str(a) for a in g.legal_actions()]
            obs = wire(g.observation(g.to_act).to_dict())
            if obs["lottery"] and obs["lottery"]["picked"] and len(legal) > 1:
                search_policy.Context(rules, obs, 4, seed, 1e18)  # samples: no BeliefError
            if len(legal) > 1 and (g.phase == "lottery" or rng.random() < 0.3):
                a = search_policy.choose(rules, obs, legal, work=4, seed=seed)
                assert a in legal and a == search_policy.choose(rules, obs, legal, work=4,
                                                                seed=seed)
            else:
                a = legal[rng.randrange(len(legal))]
            action = next(x for x in g.legal_actions() if str(x) == a)
            nxt = g.apply(action)
            if g.phase == "play" and len(nxt.deals) > len(g.deals):
                obs = g.observation(0).to_dict()
                trick = [(int(t["seat"]), Card.parse(t["card"])) for t in obs["trick"]]
                trick.append((g.to_act, action.card))  # type: ignore[attr-defined,arg-type]
                winner = _winner(trick, obs["trump"])
                cards, tricks = list(obs["points_won"]), list(obs["tricks_won"])
                cards[winner] += sum(c.points for _, c in trick)
                tricks[winner] += 1
                rec = nxt.deals[-1]
                assert "lottery" in rec.notes
                new, made, _ = Scorer(rules, obs).changes(
                    rec.declarer, rec.contract, list(rec.deal_scores), cards, tricks)
                assert (new, made) == (list(rec.totals), rec.made), (seed, rec)
            g = nxt
        assert g.deal_number == 2


def levels() -> list[object]:
    have = available_levels()
    out: list[object] = []
    for level in ("bwrap", "docker"):
        marks = [pytest.mark.slow, getattr(pytest.mark, level)]
        if level not in have:
            marks.append(pytest.mark.skip(reason=f"sandbox level {level!r} unavailable here"))
        out.append(pytest.param(level, marks=marks, id=level))
    return out


@pytest.mark.parametrize("level", levels())
def test_plays_a_whole_match_in_a_sandbox(level: str, tmp_path: Path) -> None:
    """A whole Czech match (target 500) against the greedy and random sample
    bots under the default time control, no fault, and the replay re-plays
    to the same totals."""
    if level == "docker":
        from arena.sandbox import base_images as images
        from arena.sandbox import docker_level

        if not docker_level.image_present(images.PYTHON_IMAGE):
            pytest.skip(f"image {images.PYTHON_IMAGE} not built (arena sandbox build-images)")
    samples = ROOT / "sample_bots"
    bot = load_bot(SEARCH)
    result = run_match(MatchSpec(
        match_id=f"search-{level}",
        bots=(bot, load_bot(samples / "greedy"), load_bot(samples / "random")),
        # A fixed key: the bots' ARENA_SEEDs (bot_seed.py) and so their play
        # are the same every run. Without one each run drew a new key, so a
        # new game, and one in a CI run lasted to the 200-deal cap.
        seed=21, key="search-sandbox-21", rules_preset="czech", rules_options=(("target", 500),),
        sandbox=level, work_dir=str(tmp_path), replay_path=str(tmp_path / "search.jsonl"),
        time_control=TimeControl(),
    ))
    assert result.reason == "complete"
    assert [s.sandbox for s in result.seats] == [level] * 3
    assert [s.status for s in result.seats] == ["ok", "ok", "ok"]
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    assert result.seats[0].bot == "search" and result.seats[0].decisions > 0
    assert check(result.replay_path) == tuple(s.total for s in result.seats)
