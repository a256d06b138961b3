"""A bot's Dockerfile may use only what is on this machine.

The Docker daemon fetches some sources itself, outside the build's
`network_mode="none"`: an `ADD` of a URL or a git repository, the image of
a `FROM`, `COPY --from` or `RUN --mount=from=` that is not local (pulled
from a registry). A bot's build must not reach the network (it could fetch
code, or report to its author), so `check` reads the Dockerfile as the
daemon's parser does (parser directives, line continuations with the
escape character, comments, heredocs, case-insensitive instructions,
`--flag=value` options, JSON and shell forms) and refuses, with one line
naming the file and the line:

- `ADD` of a URL (`scheme://...`) or a git address (`git@host:...`);
- `FROM` of anything but a stage defined above, `scratch` or one of the
  arena's base images (`arena-python:*`, `arena-node:*`, `arena-shell:*`,
  `arena-numpy:*`), and a `FROM`
  whose image is a variable (`$BASE`: it cannot be checked);
- `COPY --from`, `ADD --from` and `RUN --mount=...,from=...` of anything
  but a stage above (by name or number) or an arena base image;
- `RUN --network=` other than `none`, and a `# syntax=` directive (BuildKit
  would pull that frontend image);
- the same inside `ONBUILD`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.base_images import NODE_IMAGE, NUMPY_IMAGE, PYTHON_IMAGE, SHELL_IMAGE

# The arena's own images (arena/sandbox/base_images.py), any tag: built on this machine.
BASE_REPOSITORIES = tuple(image.split(":")[0]
                          for image in (PYTHON_IMAGE, NODE_IMAGE, SHELL_IMAGE, NUMPY_IMAGE))
_HEREDOC = re.compile(r"<<(-?)([\"']?)([A-Za-z_][A-Za-z0-9_]*)\2")
_DIRECTIVE = re.compile(r"^#\s*([A-Za-z]+)\s*=\s*(\S+)\s*$")
_REMOTE = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|git@)")


class DockerfileError(ValueError):
    """The Dockerfile reaches outside this machine; names the file and line."""


@dataclass(frozen=True)
class Instruction:
    line: int        # 1-based line where it starts
    keyword: str     # upper case: FROM, ADD, ...
    flags: tuple[tuple[str, str], ...]   # (--name, value) in order; value "" for a bare flag
    args: tuple[str, ...]                # the rest, split (JSON form or words)


def directives(text: str) -> dict[str, tuple[int, str]]:
    """The parser directives at the top (`# escape=...`, `# syntax=...`):
    name (lower case) -> (line, value)."""
    out: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = _DIRECTIVE.match(line)
        if not m:
            break
        out[m.group(1).lower()] = (number, m.group(2))
    return out


def instructions(text: str) -> Iterator[Instruction]:
    """The Dockerfile's instructions, with heredoc bodies and comments left out."""
    lines = text.splitlines()
    escape = "\\"
    i = 0
    # Parser directives: only at the very top, before any other line.
    while i < len(lines):
        m = _DIRECTIVE.match(lines[i])
        if not m:
            break
        if m.group(1).lower() == "escape" and m.group(2) in ("\\", "`"):
            escape = m.group(2)
        i += 1
    while i < len(lines):
        start = i
        raw = lines[i]
        i += 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [raw]
        # Continuation: a line ending in the escape character goes on with the next
        # (comment and empty lines inside are skipped, as the daemon does).
        while parts[-1].rstrip().endswith(escape) and i < len(lines):
            parts[-1] = parts[-1].rstrip()[:-1]
            nxt = lines[i]
            i += 1
            if nxt.lstrip().startswith("#") or not nxt.strip():
                parts.append(escape)  # keep continuing
                continue
            parts.append(nxt)
        if parts[-1].rstrip().endswith(escape):
            parts[-1] = parts[-1].rstrip()[:-1]
        logical = " ".join(p for p in parts if p != escape)
        keyword, _, rest = logical.strip().partition(" ")
        keyword = keyword.upper()
        # Heredoc bodies (RUN, COPY, ADD <<EOF ... EOF) are content, not instructions.
        for m in _HEREDOC.finditer(rest) if keyword in ("RUN", "COPY", "ADD", "ONBUILD") else ():
            strip_tabs, word = m.group(1) == "-", m.group(3)
            while i < len(lines):
                body = lines[i].lstrip("\t") if strip_tabs else lines[i]
                i += 1
                if body == word:
                    break
        flags, args = _split(rest)
        yield Instruction(start + 1, keyword, flags, args)


def _split(rest: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    words = rest.split()
    flags: list[tuple[str, str]] = []
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0).partition("=")
        flags.append((name.lower(), value))
    tail = " ".join(words)
    if tail.startswith("["):
        try:
            form = json.loads(tail)
        except ValueError:
            form = None
        if isinstance(form, list) and all(isinstance(x, str) for x in form):
            return tuple(flags), tuple(form)
    return tuple(flags), tuple(words)


def is_base_image(image: str) -> bool:
    """`image` names one of the arena's own images (any tag or digest)."""
    repository = image.split("@", 1)[0].rsplit(":", 1)[0] if "/" not in image else ""
    return repository in BASE_REPOSITORIES


_base = is_base_image


def _problem(ins: Instruction, stages: list[str]) -> str:
    """What in `ins` reaches the network ("" if nothing); `stages` are the
    names (lower case) of the stages defined above it."""
    def local(ref: str) -> bool:
        return (ref.lower() in stages or _base(ref)
                or (ref.isdigit() and int(ref) < len(stages)))

    if ins.keyword == "FROM":
        image = ins.args[0] if ins.args else ""
        if "$" in image:
            return f"FROM {image}: an image named by a variable cannot be checked"
        if image.lower() != "scratch" and not local(image):
            return (f"FROM {image}: not a stage above nor an arena base image "
                    f"({', '.join(r + ':*' for r in BASE_REPOSITORIES)}); it would be pulled")
    for name, value in ins.flags:
        if name == "--from" and ins.keyword in ("COPY", "ADD") and not local(value):
            return f"{ins.keyword} --from={value}: not a stage above nor an arena base image"
        if name == "--mount" and ins.keyword == "RUN":
            options = dict(o.partition("=")[::2] for o in value.split(","))
            ref = options.get("from", "")
            if ref and not local(ref):
                return f"RUN --mount from={ref}: not a stage above nor an arena base image"
        if name == "--network" and ins.keyword == "RUN" and value != "none":
            return f"RUN --network={value}: bot images are built without network"
    if ins.keyword == "ADD":
        for source in ins.args[:-1]:
            if _REMOTE.match(source):
                return f"ADD {source}: a remote source (URL or git repository)"
    if ins.keyword == "ONBUILD" and ins.args:
        inner = next(instructions(" ".join(ins.args)), None)
        if inner is not None:
            found = _problem(inner, stages)
            return f"ONBUILD {found}" if found else ""
    return ""


def check_text(text: str, where: str) -> None:
    """DockerfileError for the first instruction that reaches the network."""
    if "syntax" in directives(text):
        line, value = directives(text)["syntax"]
        raise DockerfileError(f"{where}:{line}: # syntax={value}: a BuildKit frontend is an "
                              "image from a registry; bot images are built from this machine's "
                              "files only")
    stages: list[str] = []
    for ins in instructions(text):
        problem = _problem(ins, stages)
        if problem:
            raise DockerfileError(f"{where}:{ins.line}: {problem}; bot images are built from "
                                  "this machine's files only (put the file in the bot's folder)")
        if ins.keyword == "FROM":
            lowered = [a.lower() for a in ins.args]
            stages.append(lowered[2] if len(lowered) >= 3 and lowered[1] == "as" else f"#{len(stages)}")


def check(path: str | Path) -> None:
    """Check the Dockerfile at `path` (DockerfileError, one line)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DockerfileError(f"{p}: cannot read: {exc}") from None
    check_text(text, str(p))
