"""Hidden information for a stdio bot (`protocol = "stdio"`): what it reads
on its stdin is the JSON form of exactly the bytes a gRPC bot in its seat
receives, and permuting the cards it cannot know changes none of it before
they show (the check of test_hidden_on_wire.py, on the stdio channel)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from google.protobuf import json_format

from arena.game import Rules
from arena.game.cards import DECK
from arena.referee import MatchSpec, TimeControl, run_match
from arena.sandbox.botfile import BotSpec, load_bot
from arena.wire.codec import pb

from .recording import LIMITS, read_messages, recorder
from .wire_secrecy import assert_same_bytes_until_a_new_card, fixed_first_deal, permuted

pytestmark = pytest.mark.slow

STDIO = Path(__file__).resolve().parents[1] / "bots" / "stdio"


def stdio_recorder(folder: Path) -> BotSpec:
    """The stdio test bot, recording every line it reads on its log."""
    shutil.copytree(STDIO, folder)
    toml = folder / "bot.toml"
    run = json.dumps(["python3", "bot.py", "passive", "-"])
    text = toml.read_text().replace('run = "python3 bot.py passive"', f"run = {run}")
    # Named as the gRPC recorder: every seat's name is in MatchStart.
    toml.write_text(text.replace('name = "stdio-test"', 'name = "recorder"'))
    return load_bot(folder)


def stdio_record(log: Path) -> bytes:
    """The lines the stdio bot recorded on its log, as it read them."""
    return b"".join(line[4:] for line in log.read_bytes().splitlines(keepends=True)
                    if line.startswith(b"REC "))


def as_bytes(lines: bytes) -> list[bytes]:
    """Each JSON line the bot read, as the RefereeMessage it maps, serialized
    deterministically (map entries in key order: a parsed map does not keep
    the order of the referee's bytes)."""
    return [json_format.Parse(line, pb.RefereeMessage()).SerializeToString(deterministic=True)
            for line in lines.decode().splitlines()]


def canonical(messages: list[bytes]) -> list[bytes]:
    """The gRPC recorder's bytes in the same deterministic form."""
    return [pb.RefereeMessage.FromString(m).SerializeToString(deterministic=True)
            for m in messages]


def test_a_stdio_bot_reads_what_a_grpc_bot_gets_and_nothing_hidden(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    preset = "czech"
    Rules.preset(preset)
    cards = [str(c) for c in DECK]
    random.Random(99).shuffle(cards)
    base = {"dealer": 0, "totals": [0, 0, 0],
            "hands": [cards[0:7], cards[7:14], cards[14:21]], "talon": cards[21:24]}
    received: list[list[bytes]] = []
    # Runs 0 and 1: seat 0 is the stdio bot, on the deal and on the deal with
    # every card it cannot know permuted. Run 2: a gRPC recorder in its place.
    for run, (deal, stdio) in enumerate([(base, True), (permuted(base, 0, random.Random(5)), True),
                                         (base, False)]):
        fixed_first_deal(monkeypatch, deal)
        work = tmp_path / f"run{run}"
        first = stdio_recorder(work / "bot0") if stdio else recorder(work / "bot0", "passive")
        bots = (first, *(recorder(work / f"bot{s}", "passive") for s in (1, 2)))
        result = run_match(MatchSpec(
            match_id="wire-stdio", bots=bots, seed=31, rules_preset=preset,
            rules_options=(("max_deals", 1),), sandbox="process", work_dir=str(work),
            time_control=TimeControl(per_move=5.0, bank=30.0), limits=LIMITS,
        ))
        assert [s.status for s in result.seats] == ["ok"] * 3, result.seats
        received.append(as_bytes(stdio_record(Path(result.seats[0].log_path))) if stdio
                        else canonical(read_messages(result, 0)))

    on_stdio, permuted_stdio, on_grpc = received
    assert len(on_grpc) > 10
    assert on_stdio == on_grpc  # the same information, message for message
    cut, fine = assert_same_bytes_until_a_new_card(
        on_stdio, permuted_stdio, set(base["hands"][0]), 0)
    assert fine > cut
    assert on_stdio != permuted_stdio  # the permutation did show later (the test has teeth)
