"""The tournament page's rating table during a live run: rebuilt when a
result comes in, not at every other write of the store (a match started,
a match failed), on a real SQLite store written through the Store's own
methods as `arena tournament run` writes it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import arena.tournament
from arena.tournament.results import standings
from arena.tournament.store import Store
from arena.web import pages
from arena.web.sources import catalog


def test_the_table_waits_for_a_result_not_for_a_start(stored: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "live"
    shutil.copytree(stored, folder)
    with Store(folder / "tournament.sqlite") as store:
        last = store.matches()[-1]
    assert last.result is not None
    with sqlite3.connect(folder / "tournament.sqlite") as db:   # as if still to be played
        db.execute("UPDATE matches SET status='planned', result=NULL WHERE match_id=?",
                   (last.match_id,))
    builds: list[int] = []
    real = standings.build

    def counting(*args: Any, **kwargs: Any) -> standings.Table:
        table = real(*args, **kwargs)
        builds.append(table.finished)
        return table

    # Where the pages take it from: the package's face (arena.tournament), which
    # keeps the function once any test has asked for it, so patching the
    # module it comes from alone depends on which tests ran before.
    monkeypatch.setattr(arena.tournament, "build_table", counting)
    monkeypatch.setattr(standings, "build", counting)
    (t,) = catalog([folder]).tournaments.values()
    first = pages.tournament(t)
    assert not first.problem and builds == [5]
    assert pages.tournament(t).rows == first.rows and builds == [5]    # nothing written
    with Store(folder / "tournament.sqlite") as store:
        store.mark_running([last.match_id])
        store.fail(last.match_id, "a worker died")
        store.mark_running([last.match_id])
    again = pages.tournament(t)
    assert builds == [5] and again.counts.get("running") == 1          # counts are fresh
    with Store(folder / "tournament.sqlite") as store:
        assert store.finish(last.result)
    done = pages.tournament(t)
    assert builds == [5, 6] and done.counts.get("finished") == 6
    assert done.rows != first.rows
