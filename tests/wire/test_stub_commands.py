"""Every stub-generation command of docs/protocol.md ("Stubs for other
languages"), run as written from a folder holding a copy of `protocol/`,
where this machine has the toolchain (skipped with the reason elsewhere:
scripts/stubs.sh installs what Debian offers). The Python example is run as
a whole bot through `arena bot check`, the Ruby queue-backed enumerator as
written, the Java stubs compiled."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import cli

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
NODE_MODULES = ROOT / "sample_bots" / "javascript" / "node_modules"

pytestmark = [pytest.mark.slow, pytest.mark.toolchains]


def blocks(kind: str) -> dict[str, str]:
    """The code block after each `<!-- {kind}: LANG -->` marker, by LANG."""
    text = DOC.read_text()
    found = re.findall(rf"<!-- {kind}: (\w+) -->\n```\w+\n(.*?)```", text, re.S)
    return dict(found)


# language -> (programs it needs, what it must write, relative to the folder)
NEEDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "python": ((), ("my_bot/arena_pb2.py", "my_bot/arena_pb2_grpc.py")),
    "javascript": (("node",), ()),
    "cpp": (("protoc", "grpc_cpp_plugin"), ("gen/arena/v1/arena.pb.cc",
                                            "gen/arena/v1/arena.grpc.pb.h")),
    "go": (("protoc", "protoc-gen-go", "protoc-gen-go-grpc"),
           ("arena/v1/arena.pb.go", "arena/v1/arena_grpc.pb.go")),
    "java": (("protoc", "grpc_java_plugin", "javac"),
             ("gen/arena/v1/RefereeGrpc.java", "classes/arena/v1/RefereeGrpc.class",
              "classes/arena/v1/Arena$BotMessage.class")),
    "csharp": (("protoc",), ("gen/Arena.cs",)),
    "ruby": (("grpc_tools_ruby_protoc", "ruby"),
             ("lib/arena/v1/arena_pb.rb", "lib/arena/v1/arena_services_pb.rb")),
}


def test_the_doc_gives_a_command_for_each_language() -> None:
    assert sorted(blocks("stub")) == sorted(NEEDS)
    text = DOC.read_text()
    for language in ("Python", "JavaScript", "C++", "Go", "Java", "C#", "Ruby", "Rust"):
        assert f"### {language}" in text


def run_doc_command(language: str, folder: Path) -> subprocess.CompletedProcess[str]:
    programs, _ = NEEDS[language]
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{language}: {', '.join(missing)} not installed here (scripts/stubs.sh)")
    if language == "java" and not list(Path("/usr/share/java").glob("grpc-stub*.jar")):
        pytest.skip("java: grpc-java's jars not installed (Debian libgrpc-java; Maven "
                    "Central is not reachable here)")
    if language == "javascript" and not NODE_MODULES.is_dir():
        pytest.skip("javascript: no node_modules (cd sample_bots/javascript && npm ci)")
    shutil.copytree(ROOT / "protocol", folder / "protocol")
    env = os.environ | {"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
                        "NODE_PATH": str(NODE_MODULES)}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", blocks("stub")[language]],
                          cwd=folder, env=env, capture_output=True, text=True, check=False,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for rel in NEEDS[language][1]:
        assert (folder / rel).is_file(), f"{language}: {rel} not written"
    return done


@pytest.mark.parametrize("language", sorted(NEEDS))
def test_the_documented_command_works(language: str, tmp_path: Path) -> None:
    done = run_doc_command(language, tmp_path)
    if language == "javascript":
        assert done.stdout.strip() == "Play"


def test_the_python_example_bot_passes_bot_check(tmp_path: Path) -> None:
    run_doc_command("python", tmp_path)
    bot = tmp_path / "my_bot"
    (bot / "bot.py").write_text(blocks("stub-bot")["python"])
    (bot / "bot.toml").write_text('name = "my_bot"\nversion = "1.0"\nlanguage = "python"\n'
                                  'run = "python3 bot.py"\n')
    done = cli("bot", "check", bot, "--sandbox", "process", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "result: ok" in done.stdout


def test_the_javascript_example_bot_passes_bot_check(tmp_path: Path) -> None:
    """The folder as the doc says: bot.js, the .proto beside it, node_modules
    in it (here a copy of the sample bot's: `npm install` needs the registry,
    and a link would point out of the folder, where a sandboxed bot sees nothing)."""
    if shutil.which("node") is None or not NODE_MODULES.is_dir():
        pytest.skip("javascript: no node, or no node_modules (cd sample_bots/javascript && npm ci)")
    bot = tmp_path / "my_bot"
    bot.mkdir()
    (bot / "bot.js").write_text(blocks("stub-bot")["javascript"])
    shutil.copy(ROOT / "protocol" / "arena" / "v1" / "arena.proto", bot)
    shutil.copytree(NODE_MODULES, bot / "node_modules", symlinks=True)
    (bot / "bot.toml").write_text('name = "my_bot"\nversion = "1.0"\nlanguage = "javascript"\n'
                                  'run = "node bot.js"\n')
    done = cli("bot", "check", bot, "--sandbox", "process", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "result: ok" in done.stdout


def test_the_ruby_queue_backed_enumerator_sends_the_hello(tmp_path: Path) -> None:
    run_doc_command("ruby", tmp_path)
    script = tmp_path / "check.rb"
    script.write_text(blocks("stub-check")["ruby"])
    done = subprocess.run(["ruby", "-I", "lib", "check.rb"], cwd=tmp_path, capture_output=True,
                          text=True, check=False, timeout=120,
                          env=os.environ | {"ARENA_TOKEN": "tok"})
    assert done.returncode == 0, done.stderr
    # Ruby's to_json uses the JSON mapping's lowerCamelCase names.
    assert json.loads(done.stdout) == {"hello": {"token": "tok", "botName": "rb",
                                                 "protocolVersion": 2}}


def test_the_rust_build_script_compiles_the_proto(tmp_path: Path) -> None:
    if shutil.which("cargo") is None or shutil.which("protoc") is None:
        pytest.skip("rust: cargo or protoc not installed here")
    shutil.copytree(ROOT / "protocol", tmp_path / "protocol")
    crate = tmp_path / "bot"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "bot"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\ntonic = "0.11"\nprost = "0.12"\n\n'
        '[build-dependencies]\ntonic-build = "0.11"\n')
    (crate / "build.rs").write_text(blocks("stub-build")["rust"])
    (crate / "src" / "main.rs").write_text(
        'pub mod arena { tonic::include_proto!("arena.v1"); }\n'
        "fn main() { let _ = arena::BotMessage::default(); }\n")
    done = subprocess.run(["cargo", "build", "--offline", "--quiet"], cwd=crate,
                          capture_output=True, text=True, check=False, timeout=900)
    if done.returncode != 0 and ("offline" in done.stderr or "no matching package" in done.stderr):
        pytest.skip("rust: tonic, prost and tonic-build are not in cargo's local cache, and "
                    "crates.io is not reachable here")
    assert done.returncode == 0, done.stderr
