"""The Dockerfile check: nothing a bot image is built from may come from the network."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.sandbox.dockerfile import DockerfileError, check, check_text, instructions

REFUSED = [
    # (Dockerfile, line of the problem, words of the message)
    ("FROM arena-python:1\nADD https://example.com/x.tar.gz /opt/\n", 2, "ADD https://example.com"),
    ("from arena-python:1\nadd http://10.0.0.1/a /a\n", 2, "ADD http://10.0.0.1/a"),
    ("FROM arena-python:1\nADD --chmod=755 https://h/x /x\n", 2, "ADD https://h/x"),
    ("FROM arena-python:1\nADD --checksum=sha256:00 --chown=1:1 ftp://h/x /x\n", 2, "ftp://h/x"),
    ("FROM arena-python:1\nADD git@github.com:me/secret.git /src\n", 2, "git@github.com"),
    ("FROM arena-python:1\nADD --keep-git-dir=true https://github.com/me/r.git#main /src\n", 2,
     "https://github.com/me/r.git#main"),
    ("FROM arena-python:1\nADD [\"local.txt\", \"https://h/x\", \"/d/\"]\n", 2, "https://h/x"),
    ("FROM arena-python:1\nADD local.txt \\\n    https://h/x \\\n    /d/\n", 2, "https://h/x"),
    ("FROM arena-python:1\nRUN [\"true\"]\nADD \\\n# a comment inside\n  https://h/x /x\n", 3,
     "https://h/x"),
    ("# escape=`\nFROM arena-python:1\nADD a `\n  https://h/x /x\n", 3, "https://h/x"),
    ("FROM python:3.11\n", 1, "FROM python:3.11"),
    ("FROM --platform=linux/amd64 debian:12 AS base\n", 1, "FROM debian:12"),
    ("FROM docker.io/library/arena-python:1\n", 1, "FROM docker.io/library/arena-python:1"),
    ("ARG BASE=arena-python:1\nFROM $BASE\n", 2, "variable"),
    ("FROM arena-python:1\nCOPY --from=alpine:3 /bin/busybox /bb\n", 2, "COPY --from=alpine:3"),
    ("FROM arena-python:1\ncopy --chmod=644 --from=ghcr.io/x/y /a /b\n", 2, "--from=ghcr.io/x/y"),
    ("FROM arena-python:1 AS a\nCOPY --from=1 /x /y\n", 2, "COPY --from=1"),
    ("FROM arena-python:1\nCOPY --from=later /x /y\nFROM arena-python:1 AS later\n", 2,
     "--from=later"),
    ("FROM arena-python:1\nRUN --mount=type=bind,from=busybox,target=/b [\"true\"]\n", 2,
     "from=busybox"),
    ("FROM arena-python:1\nRUN --network=host [\"true\"]\n", 2, "--network=host"),
    ("FROM arena-python:1\nONBUILD ADD https://h/x /x\n", 2, "ONBUILD ADD https://h/x"),
    ("# syntax=docker/dockerfile:1\nFROM arena-python:1\n", 1, "syntax"),
    # A heredoc's body is not an instruction, but what follows it is.
    ("FROM arena-python:1\nRUN <<EOF\nADD https://not/an/instruction /x\nEOF\n"
     "ADD https://h/after /x\n", 5, "https://h/after"),
]

ALLOWED = [
    "FROM arena-python:1\nCOPY bot.py /bot/\nRUN [\"python3\", \"-c\", \"print(1)\"]\n",
    "FROM arena-node:1\nADD vendor.tar.gz /opt/\nADD --chmod=755 run.sh /run.sh\n",
    "FROM arena-python:3f2a9c AS build\nRUN [\"true\"]\nFROM scratch\nCOPY --from=build /x /x\n",
    "FROM arena-python:1 as Build\nFROM arena-node:1\nCOPY --from=build /a /b\nCOPY --from=0 /a /c\n",
    "FROM arena-python:1\nCOPY --from=arena-node:1 /usr/local/bin/node /node\n",
    "FROM arena-python:1\nRUN --network=none [\"true\"]\n",
    "FROM arena-python:1\nRUN <<EOF\nADD https://only/text /x\nFROM python:3\nEOF\nCOPY a b\n",
    "FROM arena-python:1\nCOPY <<-EOT /etc/note\n\tADD https://h/x /x\n\tEOT\n",
    "FROM arena-python:1\n# ADD https://h/x /x (a comment)\nCOPY a /a\n",
    "FROM arena-python:1\nRUN echo http://example.com/ > /url.txt\n",
    "FROM arena-python:1\nENV URL=https://h/x\nLABEL src=\"https://h/x\"\n",
]


@pytest.mark.parametrize(("text", "line", "words"), REFUSED)
def test_remote_sources_are_refused_naming_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(DockerfileError) as caught:
        check_text(text, "bots/x/Dockerfile")
    message = str(caught.value)
    assert message.startswith(f"bots/x/Dockerfile:{line}: "), message
    assert words in message and "\n" not in message, message


@pytest.mark.parametrize("text", ALLOWED)
def test_local_sources_pass(text: str) -> None:
    check_text(text, "Dockerfile")


def test_instructions_join_continuations_and_skip_heredocs() -> None:
    text = ("FROM arena-python:1\nRUN a \\\n  b \\\n\n  c\nCOPY <<A <<-B /x\nbody\nA\n\tbody\n\tB\n"
            "Copy --chown=1:1 [\"s\", \"d\"]\n")
    found = [(i.line, i.keyword, i.flags, i.args) for i in instructions(text)]
    assert found == [
        (1, "FROM", (), ("arena-python:1",)),
        (2, "RUN", (), ("a", "b", "c")),
        (6, "COPY", (), ("<<A", "<<-B", "/x")),
        (11, "COPY", (("--chown", "1:1"),), ("s", "d")),
    ]


def test_a_bot_folder_with_such_a_dockerfile_is_refused_on_load(tmp_path: Path) -> None:
    from arena.sandbox.botfile import BotFileError, load_bot

    (tmp_path / "bot.toml").write_text('name = "d"\nversion = "1"\nlanguage = "python"\n'
                                       'run = "python3 bot.py"\n')
    (tmp_path / "Dockerfile").write_text("FROM arena-python:1\nCOPY . /x\nADD http://h/p /p\n")
    with pytest.raises(BotFileError, match=r"Dockerfile:3: ADD http://h/p: a remote source"):
        load_bot(tmp_path)
    (tmp_path / "Dockerfile").write_text("FROM arena-python:1\nCOPY . /x\n")
    assert load_bot(tmp_path).name == "d"
    check(tmp_path / "Dockerfile")
