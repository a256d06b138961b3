"""The compiled sample bots, C++ and Go: each built with its Makefile,
protocol handling against a stand-in referee (exit status and messages when
refused, cut off or unable to connect), a whole match through the real
referee, and `arena bot check` at every sandbox level this machine has, as
its author would run it. Both play the same heuristic, so one set of
expected replies serves both.

Each needs its toolchain (scripts/cpp.sh and scripts/go.sh install them as
root and build the bots, and scripts/test.sh calls both); a bot's tests are
skipped, saying so, without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from sdk.fake_referee import run_against
from typer.testing import CliRunner
from whole_match import assert_plays_a_whole_match

from arena.cli import app
from arena.sandbox import available_levels, resolve_level
from arena.sandbox.botfile import load_bot
from arena.wire.gen.arena.v1 import arena_pb2 as pb

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bots"
GOCODE = Path("/usr/share/gocode/src")  # Debian's Go sources, where the Makefile looks


def _cpp_libraries() -> list[str]:
    found = subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"], check=False).returncode == 0
    return [] if found else ["the grpc++ and protobuf libraries (libgrpc++-dev, libprotobuf-dev)"]


def _go_sources() -> list[str]:
    return [] if (GOCODE / "google.golang.org" / "grpc").is_dir() else [
        "grpc-go's sources (golang-google-grpc-dev)"]


@dataclass(frozen=True)
class Compiled:
    name: str  # the folder under sample_bots/ and the bot's name
    tools: tuple[str, ...]  # programs its build needs on the PATH
    libraries: Callable[[], list[str]]  # what else its build needs and is missing
    setup: str  # the script that installs the toolchain and builds it

    def missing(self) -> list[str]:
        return [tool for tool in self.tools if shutil.which(tool) is None] or self.libraries()

    def require(self) -> None:
        """Skip the calling test, saying what is missing, without the toolchain."""
        if missing := self.missing():
            pytest.skip(f"{self.name} toolchain missing ({', '.join(missing)}): run {self.setup} as root")


BOTS = (
    Compiled("cpp", ("g++", "make", "pkg-config", "protoc", "grpc_cpp_plugin"), _cpp_libraries,
             "scripts/cpp.sh"),
    Compiled("go", ("go", "make", "protoc", "protoc-gen-go", "protoc-gen-go-grpc"), _go_sources,
             "scripts/go.sh"),
)

pytestmark = [pytest.mark.slow, pytest.mark.toolchains]


@pytest.fixture(scope="module", params=BOTS, ids=lambda bot: bot.name)
def built(request: pytest.FixtureRequest) -> Path:
    """The bot's folder, its binary made (or brought up to date) by its own Makefile."""
    bot: Compiled = request.param
    bot.require()
    folder = SAMPLES / bot.name
    done = subprocess.run(["make", "-s", "-C", str(folder)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, f"make in sample_bots/{bot.name} failed:\n{done.stderr[-3000:]}"
    assert os.access(folder / "bot", os.X_OK)
    return folder


def _request(seq: int, obs: pb.Observation, actions: list[tuple[str, int, str]],
             texts: list[str]) -> pb.DecisionRequest:
    legal = [pb.Action(kind=kind, amount=amount, card=card) for kind, amount, card in actions]
    return pb.DecisionRequest(seq=seq, observation=obs, legal_actions=legal, legal_texts=texts,
                              time_limit_s=5.0)


REQUESTS = [
    _request(7, pb.Observation(seat=2, phase="bidding", hand=["AS", "9C"]),
             [("bid", 110, ""), ("pass", 0, "")], ["bid 110", "pass"]),
    # 10+ points on the table: the strongest card, not the cheapest.
    _request(8, pb.Observation(seat=2, phase="play", hand=["AS", "9S"],
                               trick=[pb.TrickCard(seat=1, card="TS")]),
             [("play", 0, "9S"), ("play", 0, "AS")], ["play 9S", "play AS"]),
    _request(9, pb.Observation(seat=2, phase="exchange", hand=["KH", "JC"]),
             [("give", 0, "KH"), ("give", 0, "JC")], ["give KH 0", "give JC 0"]),
]


def test_hello_structured_replies_with_seq_and_clean_exit(built: Path, tmp_path: Path) -> None:
    out = run_against("full", ["./bot"], tmp_path, REQUESTS, cwd=built)
    assert out.returncode == 0, out.stderr
    assert out.hello is not None
    assert (out.hello.token, out.hello.bot_name, out.hello.protocol_version) == ("t", built.name, 2)
    bid, play, give = out.replies
    # Answers with the structured action (no text), echoing the request's seq.
    assert (bid.seq, bid.action.kind, bid.text) == (7, "pass", "")
    assert (play.seq, play.action.kind, play.action.card) == (8, "play", "AS")
    assert (give.seq, give.action.card) == (9, "JC")


def test_a_structured_action_missing_is_answered_with_its_text(built: Path, tmp_path: Path) -> None:
    request = pb.DecisionRequest(seq=4, observation=pb.Observation(seat=2, phase="bidding"),
                                 legal_texts=["bid 110", "pass"], time_limit_s=5.0)
    out = run_against("full", ["./bot"], tmp_path, [request], cwd=built)
    assert out.returncode == 0, out.stderr
    (reply,) = out.replies
    assert (reply.seq, reply.text) == (4, "pass")
    assert not reply.HasField("action")


@pytest.mark.parametrize(("scenario", "said"), [
    ("refused", "refused by the referee: unknown token"),
    ("eof", "the stream ended before the match did: closed by the referee"),
    ("abort", "the stream ended before the match did: the referee failed"),
])
def test_exits_1_when_the_match_does_not_end(built: Path, tmp_path: Path, scenario: str, said: str) -> None:
    out = run_against(scenario, ["./bot"], tmp_path, REQUESTS[:1], cwd=built)
    assert out.returncode == 1 and said in out.stderr, out.stderr
    assert out.hello is not None and out.hello.bot_name == built.name


def test_exits_1_saying_why_when_nothing_listens(built: Path, tmp_path: Path) -> None:
    env = {**os.environ, "ARENA_ADDRESS": f"unix:{tmp_path}/nobody.sock", "ARENA_TOKEN": "t"}
    done = subprocess.run([str(built / "bot")], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 1
    assert "could not send the hello: " in done.stderr
    assert "no such file or directory" in done.stderr.lower(), done.stderr  # gRPC's reason follows


def test_without_its_environment_it_says_what_is_missing(built: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    done = subprocess.run([str(built / "bot")], env=env, capture_output=True, text=True, timeout=30,
                          check=False)
    assert done.returncode == 2
    assert "ARENA_ADDRESS and ARENA_TOKEN must be set" in done.stderr


def test_plays_a_whole_match_through_the_referee(built: Path, tmp_path: Path) -> None:
    assert_plays_a_whole_match(built, tmp_path)


@pytest.mark.parametrize("level", ["auto", *available_levels()])
def test_bot_check_passes_at_every_level_here(built: Path, level: str) -> None:
    # The statically linked binaries need nothing from their surroundings
    # but (C++) the C library: bwrap mounts the system's, the docker level's
    # image (arena-python:1) has one. `auto` is what a bot author runs first.
    result = CliRunner().invoke(app, ["bot", "check", str(built), "--rules", "finnish", "--deals", "4",
                                      "--sandbox", level])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1] == "result: ok"
    expected = resolve_level(level, load_bot(built))
    assert any(f"started (sandbox level: {expected})" in line for line in lines), lines


def test_the_go_bot_is_gofmt_clean_and_passes_go_vet() -> None:
    # Go's own static checks, as ruff and mypy are for the arena (test_static.py).
    next(bot for bot in BOTS if bot.name == "go").require()
    done = subprocess.run(["make", "-s", "-C", str(SAMPLES / "go"), "vet"], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
