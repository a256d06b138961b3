"""`leaderboard publish` replaces the site whole: nothing of an earlier
publication stays beside the new one, and a publication that fails half way
leaves the earlier site as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import cli

from arena.web import export

pytestmark = [pytest.mark.slow]


def test_a_republished_site_keeps_no_page_of_the_earlier_one(stored_short: Path,
                                                            tmp_path: Path) -> None:
    stored = stored_short
    out = tmp_path / "board"
    first = cli("leaderboard", "publish", stored, "--out", out)
    assert first.returncode == 0, first.stderr
    site = out / "site"
    pages = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    # What an earlier publication left: a bot since gone, a match list page
    # past the last, a player of a match no longer stored.
    for stale in ("bot/gone.html", "matches/99.html", "match/s999-tdeadbeef00-o0-00000000.html"):
        (site / stale).write_text("stale")
    again = cli("leaderboard", "publish", stored, "--out", out)
    assert again.returncode == 0, again.stderr
    assert sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file()) == pages
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no building folder left


def test_a_failed_site_leaves_the_earlier_one(stored_short: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    stored = stored_short
    site = tmp_path / "site"
    written = export.publish_site(stored, site)
    assert written and all(p.is_file() and site in p.parents for p in written)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}

    def half_way(folder: Path, out: Path) -> list[Path]:
        (out / "matches").mkdir(parents=True)
        (out / "matches" / "1.html").write_text("half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export, "_write_site", half_way)
    with pytest.raises(OSError):
        export.publish_site(stored, site)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_two_publications_at_once_never_share_a_building_folder(
        stored_short: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two threads of one process (a server publishing, say) once built into
    # one folder named by the pid: one moved it into place while the other
    # still wrote, leaving a half site or a stray folder.
    import threading

    site = tmp_path / "site"
    alone = tmp_path / "alone"
    export.publish_site(stored_short, alone)
    expected = sorted(p.relative_to(alone) for p in alone.rglob("*") if p.is_file())
    real = export._write_site
    both = threading.Barrier(2)

    def together(folder: Path, out: Path) -> list[Path]:
        both.wait(timeout=30)
        return real(folder, out)

    monkeypatch.setattr(export, "_write_site", together)
    errors: list[BaseException] = []

    def publish() -> None:
        try:
            export.publish_site(stored_short, site)
        except OSError as exc:  # the one that lost the race to move its site in
            errors.append(exc)

    threads = [threading.Thread(target=publish) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(errors) < 2, errors
    assert sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file()) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alone", "site"]
