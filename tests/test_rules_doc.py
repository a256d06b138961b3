"""The project carries its own rules: every `rules.md#<section>` that the code,
the tests, the benchmarks and the docs cite is a section of docs/rules.md,
and nothing cites the specification files that are not in the repository
(RULES.md, DESIGN.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A sample bot's files are its identity (their hash is in the published
# leaderboards/sample table): their comments are left as they were written.
KEPT = ("sample_bots/",)
CITE = re.compile(r"rules\.md#([A-Za-z0-9_-]+)")
GONE = re.compile(r"\b(?:RULES|DESIGN)\.md\b")


def _tracked() -> list[Path]:
    """The project's own text files (not .venv, caches or generated code)."""
    out = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
    for top in ("arena", "tests", "benchmarks", "docs", "scripts", "protocol"):
        for path in sorted((ROOT / top).rglob("*")):
            name = path.relative_to(ROOT).as_posix()
            if (name.startswith(KEPT) or name.startswith("arena/wire/gen/") or not path.is_file()
                    or "__pycache__" in path.parts or "node_modules" in path.parts
                    or path.suffix not in (".py", ".md", ".toml", ".js", ".html", ".proto", ".sh")):
                continue
            out.append(path)
    return out


def anchors(text: str) -> set[str]:
    """The anchors of a Markdown page: explicit `<a id>`s and each heading's
    GitHub slug (lower case, punctuation dropped, spaces to hyphens)."""
    found = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_cited_section_of_the_rules_exists() -> None:
    defined = anchors((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    missing = []
    cited = 0
    for path in _tracked():
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for anchor in CITE.findall(line):
                cited += 1
                if anchor not in defined:
                    missing.append(f"{path.relative_to(ROOT)}:{n}: rules.md#{anchor}")
    assert cited > 100  # the code cites its rules; a broken pattern would find none
    assert missing == []


def test_nothing_cites_a_file_that_is_not_in_the_repository() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}" for path in _tracked()
             for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if GONE.search(line) and path.name != "test_rules_doc.py"]
    assert found == []


def test_the_rules_have_every_numbered_section() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert {"core", "options", "option-details", "table-sizes", "presets", "hidden-information",
            "notation", "private-offers", "decisions"} <= anchors(text)
    assert anchors("## Options (`Rules` fields)\n") == {"options-rules-fields"}
