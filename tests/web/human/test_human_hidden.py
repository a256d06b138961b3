"""Hidden information on the way to a person's browser (docs/rules.md#hidden-information).

The human seat's bridge plays through the real referee against real bot
processes; a stand-in browser (real HTTP and websocket on loopback)
records every frame it is sent. Then, for every preset:

The bridge asks for Turn notices (Hello.turn_notices), so the bots' turns,
with the person's observation at each, are among the frames checked.

1. **Exactly the stream, nothing more.** Each referee frame parses back
   (protobuf JSON mapping) into a RefereeMessage, and those messages pass the
   wire's own check (tests/referee/test_hidden_on_wire.py `check_seat`):
   every observation is the engine's for this seat, and no card the seat
   cannot know is named anywhere. The bridge's own frames name no card.
2. **Hidden cards do not change a byte.** The first deal is fixed and every
   card the person cannot know is permuted: the frames the browser gets are
   byte-identical up to the first one that shows it a card it did not hold.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from referee.recording import recorder
from referee.wire_secrecy import (
    cards_in,
    check_seat,
    engine_states,
    fixed_first_deal,
    permuted,
)

from arena.game import Rules
from arena.game.cards import DECK
from arena.referee import MatchResult, MatchSpec, TimeControl
from arena.sandbox.botfile import BotSpec, load_bot
from arena.web.human.frames import match_rules
from arena.web.human.play import play_with_people
from arena.web.views import seat_view
from arena.wire.codec import observation_from_pb, pb

from .browser_client import BrowserClient

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
PRESETS = ("standard", "estonian", "lithuanian", "czech", "finnish", "swedish")
CUT = {"max_deals": 3}
VARIANTS: list[tuple[str, dict[str, object]]] = [
    *[(p, CUT) for p in PRESETS],
    ("czech", {"exchange_visible": False, **CUT}),
    ("czech", {"blind": "czech", "golden_horse": True, **CUT}),
    ("finnish", {"blind": "finnish", **CUT}),
    ("finnish", {"exchange": "discard", **CUT}),
    ("finnish", {"players": 4, **CUT}),
    ("finnish", {"players": 2, **CUT}),
    ("finnish", {"players": 2, "two_player_form": "banks", **CUT}),
]


@pytest.fixture(scope="module")
def random_bot() -> BotSpec:
    return load_bot(ROOT / "sample_bots" / "random")


def _play(preset: str, options: dict[str, object], bots: tuple[BotSpec, ...], tmp_path: Path,
          client: BrowserClient, seed: int = 23) -> MatchResult:
    async def run() -> MatchResult:
        tasks: list[asyncio.Task[None]] = []

        def ready(links: list[Any]) -> None:
            tasks.append(asyncio.get_running_loop().create_task(client.play(links[0][1])))

        players = len(bots) + 1
        spec = MatchSpec(match_id="hidden", bots=(bots[0], *bots), seed=seed, rules_preset=preset,
                         rules_options=tuple(options.items()), sandbox="process",
                         work_dir=str(tmp_path), replay_path=str(tmp_path / "m.jsonl"),
                         time_control=TimeControl(per_move=5.0, bank=30.0))
        assert len(spec.bots) == players
        result = await play_with_people(spec, {0: "person"}, on_ready=ready)
        await asyncio.wait_for(tasks[0], 30)
        return result

    tmp_path.mkdir(parents=True, exist_ok=True)
    return asyncio.run(run())


def _referee_messages(frames: list[str]) -> list[bytes]:
    """The RefereeMessages the frames carry, back in protobuf form; asserts
    the bridge's own frames name no card."""
    out = []
    rules = None
    for text in frames:
        frame = json.loads(text)
        if frame["type"] == "referee":
            msg = json_format.ParseDict(frame["message"], pb.RefereeMessage())
            out.append(msg.SerializeToString())
            rules = rules or match_rules(msg)
            body = msg.WhichOneof("body")
            if body in ("decision", "turn"):
                # The table's view is that observation reshaped, nothing added
                # but the public marks of the match's rules (the barrel lock).
                assert rules is not None
                view = seat_view(observation_from_pb(getattr(msg, body).observation), rules)
                assert frame["view"] == json.loads(json.dumps(view))
            else:
                assert "view" not in frame
        else:
            assert frame["type"] in ("notice", "clock", "turn_clock", "closed")
            assert not cards_in(frame), f"the bridge's own frame names a card: {text}"
    return out


@pytest.mark.parametrize(("preset", "options"), VARIANTS,
                         ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in VARIANTS])
def test_the_browser_gets_the_seat_stream_and_no_card_it_may_not_know(
    preset: str, options: dict[str, object], random_bot: BotSpec, tmp_path: Path
) -> None:
    players = int(options.get("players", 3))  # type: ignore[call-overload]
    client = BrowserClient("random", seed=5)
    result = _play(preset, options, (random_bot,) * (players - 1), tmp_path, client)
    assert [s.status for s in result.seats] == ["ok"] * players
    assert all(n == 0 for s in result.seats for _, n in s.faults)
    messages = _referee_messages(client.frames)
    kinds = [pb.RefereeMessage.FromString(m).WhichOneof("body") for m in messages]
    assert kinds[0] == "match_start" and kinds[-1] == "match_end"
    # The bridge asks for Turn notices: the page is told of the bots' turns too
    # (check_seat checks each one's observation and events against the engine).
    assert "turn" in kinds
    states, actions = engine_states(tmp_path / "m.jsonl")
    assert check_seat(0, messages, states, actions) == result.seats[0].decisions > 0


def _deal(seed: int) -> dict[str, Any]:
    cards = [str(c) for c in DECK]
    random.Random(seed).shuffle(cards)
    # Dealer 0: seat 1 opens with the compulsory 100; seat 0 (the person) is an opponent.
    return {"dealer": 0, "totals": [0, 0, 0],
            "hands": [cards[0:7], cards[7:14], cards[14:21]], "talon": cards[21:24]}


@pytest.mark.parametrize("preset", PRESETS)
def test_permuting_hidden_cards_changes_no_byte_the_browser_gets(
    preset: str, random_bot: BotSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Rules.preset(preset)
    base = _deal(99)
    recordings: list[list[str]] = []
    for run, deal in enumerate([base, permuted(base, 0, random.Random(5))]):
        assert sorted(deal["hands"][0]) == sorted(base["hands"][0])
        fixed_first_deal(monkeypatch, deal)
        client = BrowserClient("passive")
        work = tmp_path / f"run{run}"
        # Passive bots (pass where they may): a function of their own view only.
        passive = tuple(recorder(work / f"bot{s}", "passive") for s in (1, 2))
        result = _play(preset, {"max_deals": 1}, passive, work, client, seed=31)
        assert [s.status for s in result.seats] == ["ok"] * 3
        recordings.append(client.frames)
    a, b = recordings
    own = set(base["hands"][0])

    def first_new_card(frames: list[str]) -> int:
        return next((i for i, t in enumerate(frames) if cards_in(json.loads(t)) - own), len(frames))

    cut = first_new_card(a)
    assert cut == first_new_card(b)
    assert cut >= 2, f"the browser saw a new card already in frame {cut}"
    assert a[:cut] == b[:cut]
    # The bots' turns (Turn notices, with the person's view at each) are among
    # the frames compared: seat 1 opens, seat 2 passes before the person acts.
    assert any('"turn":' in t for t in a[:cut])
    assert a != b  # the permutation did change what it saw later: the test has teeth


def test_the_checks_have_teeth() -> None:
    """A bridge frame naming a card fails; a referee frame is read back as sent."""
    with pytest.raises(AssertionError, match="names a card"):
        _referee_messages([json.dumps({"type": "notice", "level": "info", "text": "seat 2 holds AS"})])
    msg = pb.RefereeMessage(event=pb.Event(kind="talon", cards=["AS", "TH"]))
    from arena.web.human.frames import referee_frame

    _, text = referee_frame(msg.SerializeToString())
    assert _referee_messages([text]) == [msg.SerializeToString()]
