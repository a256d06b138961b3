"""The tournament flow with an in-process fake referee (tournament_fakes)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from arena.tournament.plan.config import load_config
from arena.tournament.plan.fingerprint import FingerprintError
from arena.tournament.plan.registry import RegistryError, add_bot
from arena.tournament.plan.schedule import derive_seed, table_key
from arena.tournament.results.publish import to_json
from arena.tournament.results.standings import build
from arena.tournament.run import coordinator
from arena.tournament.store import Store

from .inline import Inline, rows_json, run


@pytest.fixture
def four(make_bot) -> list[Path]:
    return [make_bot("weak", "strength 0"), make_bot("mid", "strength 1"),
            make_bot("good", "strength 2"), make_bot("best", "strength 3")]


def test_runs_every_match_once_and_ranks_by_strength(four, make_tournament) -> None:
    folder = make_tournament(four, duplicate_sets=2)
    seen: list[tuple[int, int, str]] = []
    config = load_config(folder)
    with Store(config.store_path) as store:
        summary = coordinator.run(config, store, Inline, lambda d, t, lead: seen.append((d, t, lead)))
    assert (summary.planned, summary.finished, summary.played, summary.failed) == (48, 48, 48, 0)
    assert seen[0][:2] == (0, 48) and seen[-1][:2] == (48, 48) and seen[-1][2].startswith("best")
    again = run(folder)
    assert (again.finished, again.played) == (48, 0)
    with Store(config.store_path) as store:
        table = build(config, store)
        assert store.counts() == {"finished": 48}
        history = store.rating_history()
    assert [r.bot for r in table.rows] == ["best", "good", "mid", "weak"]
    assert all(r.matches == 36 for r in table.rows)  # 3 tables x 2 sets x 6 orders
    assert table.rows[0].rank_low >= 1 and table.rows[0].rank_high <= 4
    assert all(len(steps) == 36 for steps in history.values())
    assert table.rows[0].average_place < table.rows[-1].average_place


def test_table_does_not_depend_on_completion_order(four, make_tournament) -> None:
    a = make_tournament(four, name="a")
    b = make_tournament(four, name="b")
    run(a, Inline())
    run(b, Inline(shuffle=3))
    assert rows_json(a) == rows_json(b)


def test_interrupted_run_resumes_without_loss_or_double_count(four, make_tournament) -> None:
    whole = make_tournament(four, name="whole", duplicate_sets=2)
    cut = make_tournament(four, name="cut", duplicate_sets=2)
    run(whole)
    with pytest.raises(KeyboardInterrupt):
        run(cut, Inline(stop_after=17))
    config = load_config(cut)
    with Store(config.store_path) as store:
        counts = store.counts()
    assert counts["finished"] == 17 and counts["running"] == 1
    summary = run(cut)
    assert (summary.played, summary.finished) == (31, 48)
    assert rows_json(whole) == rows_json(cut)


def test_failed_matches_are_retried_on_the_next_run(make_bot, make_tournament) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("c"), make_bot("broken", "fail")]
    folder = make_tournament(bots)
    summary = run(folder)
    assert summary.failed == 18 and summary.finished == 6  # broken sits at 3 of 4 tables
    assert "cannot start broken" in summary.errors[0]
    config = load_config(folder)
    with Store(config.store_path) as store:
        assert store.counts() == {"finished": 6, "failed": 18}
        table = build(config, store)
    assert {r.bot: r.matches for r in table.rows} == {"a": 6, "b": 6, "c": 6, "broken": 0}
    assert run(folder).played == 0  # still broken: tried again, failed again


def test_changed_bot_is_a_new_version_with_old_results_kept_apart(
        four, make_bot, make_tournament) -> None:
    folder = make_tournament(four)
    run(folder)
    make_bot("weak", "strength 5", version="2.0")  # the source folder changes
    summary = run(folder)
    assert summary.played == 18  # only tables with the new weak version
    config = load_config(folder)
    with Store(config.store_path) as store:
        table = build(config, store)
        assert len(store.bots()) == 5
        assert store.counts() == {"finished": 42}
    assert table.rows[0].bot == "weak" and table.rows[0].version == "2.0"
    assert table.rows[0].matches == 18
    assert table.retired == (("weak", "1.0", 18),)


def test_fewer_than_three_bots_is_a_clear_error(make_bot, make_tournament) -> None:
    folder = make_tournament([make_bot("a"), make_bot("b")])
    config = load_config(folder)
    with pytest.raises(coordinator.TournamentError,
                       match=r"tournament.toml: key 'bots': .* at least 3 bots, found 2 \(a, b\)"):
        coordinator.check_field(config, None)


def store_dump(folder: Path) -> list[str]:
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        return list(db.iterdump())


def finished_ids(folder: Path) -> dict[str, int]:
    config = load_config(folder, check_bots=False)
    with Store(config.store_path) as store:
        return {m.match_id: m.seed for m in store.matches() if m.status == "finished"}


def test_adding_a_bot_plays_only_the_new_tables(make_bot, make_tournament) -> None:
    three = [make_bot("b", "strength 1"), make_bot("c", "strength 2"), make_bot("d")]
    folder = make_tournament(three)
    assert run(folder).played == 6
    before = finished_ids(folder)
    # "a" sorts first: every bot's index and every table's position change
    make_tournament([make_bot("a", "strength 3"), *three])
    summary = run(folder)
    assert (summary.played, summary.finished, summary.planned) == (18, 24, 24)
    after = finished_ids(folder)
    assert {k: after[k] for k in before} == before  # same ids, same deals, kept


@pytest.mark.parametrize("edit, changed", [
    ({"seed": 8}, "seed changed from 7 to 8"),
    ({"rules": "target = 1000"}, "rules.target changed from 500 to 1000"),
    ({"rules": "target = 500\nmax_deals = 9"}, "rules.max_deals changed from (preset default) to 9"),
    ({"extra": "[time_control]\nper_move = 2"}, "time_control.per_move changed from 1.0 to 2.0"),
    ({"extra": "[faults]\nmode = 'forfeit'"}, 'faults.mode changed from "strike" to "forfeit"'),
    ({"extra": "[limits]\nmemory_mb = 256"}, "limits.memory_mb changed from 512 to 256"),
    # more sets would be allowed alone, but not under other rules
    ({"duplicate_sets": 2, "rules": "target = 500\nmax_deals = 9"}, "rules.max_deals"),
])
def test_changed_match_settings_are_refused_and_store_nothing(
        four, make_tournament, edit: dict[str, object], changed: str) -> None:
    folder = make_tournament(four)
    run(folder)
    before = store_dump(folder)
    make_tournament(four, **edit)  # type: ignore[arg-type]
    config = load_config(folder)
    expected = (re.escape(f"{folder / 'tournament.toml'}: {changed}") + ".* " + re.escape(
        "since results were stored; start a new tournament folder (or restore the setting)"))
    with pytest.raises(FingerprintError, match=expected):
        run(folder)
    with Store(config.store_path) as store, pytest.raises(FingerprintError, match=expected):
        build(config, store)
    assert store_dump(folder) == before
    make_tournament(four)  # restored: all is well again, nothing to play
    assert run(folder).played == 0


def test_more_sets_bots_and_run_settings_extend_a_tournament(four, make_tournament) -> None:
    folder = make_tournament(four[:3])
    run(folder)
    make_tournament(four, duplicate_sets=2, extra='concurrency = 3\nsandbox = "process"\n'
                    'schedule = "all_triples"\nbootstrap = 5\ncpu_slots = false')
    summary = run(folder)
    assert (summary.played, summary.finished) == (48 - 6, 48)
    # writing a setting out at its default value is no change
    make_tournament(four, duplicate_sets=2, extra="[time_control]\nper_move = 1.0\n"
                    "[limits]\nmemory_mb = 512")
    assert run(folder).played == 0


def test_settings_may_change_while_nothing_has_finished(make_bot, make_tournament) -> None:
    bots = [make_bot("a"), make_bot("b"), make_bot("broken", "fail")]
    folder = make_tournament(bots, seed=7)
    assert run(folder).failed == 6
    make_tournament(bots, seed=8)
    assert run(folder).failed == 6  # no error: no result was played under seed 7
    config = load_config(folder)
    with Store(config.store_path) as store:
        seeds = {m.seed for m in store.matches()}
        assert len(store.matches()) == 6
    assert seeds == {derive_seed(8, "deal", 0, table_key(["a", "b", "broken"]))}


def _make_version1(folder: Path) -> dict[str, str]:
    """Turn a store into what arena wrote before table keys: positional ids
    and seeds, schema 1, no fingerprint. Returns old id -> current id."""
    rename: dict[str, str] = {}
    with sqlite3.connect(folder / "tournament.sqlite") as db:
        db.execute("PRAGMA defer_foreign_keys=ON")
        keys = {i: f"{n}@{h}" for i, n, h in db.execute("SELECT id, name, content_hash FROM bots")}
        rows = db.execute("SELECT match_id, set_no, table_no, order_no, bot_ids FROM matches")
        for mid, set_no, table_no, order_no, bot_ids in rows.fetchall():
            digest = hashlib.sha256(
                "|".join(keys[i] for i in json.loads(bot_ids)).encode()).hexdigest()[:8]
            old = f"s{set_no:03d}-t{table_no:04d}-o{order_no}-{digest}"
            rename[old] = mid
            seed = derive_seed(7, "deal", set_no, table_no)
            db.execute("UPDATE matches SET match_id=?, seed=? WHERE match_id=?", (old, seed, mid))
            db.execute("UPDATE faults SET match_id=? WHERE match_id=?", (old, mid))
        db.execute("UPDATE meta SET value='1' WHERE key='schema'")
        db.execute("DELETE FROM meta WHERE key IN ('fingerprint', 'config_bots')")
    return rename


def test_version1_store_keeps_its_results_under_new_ids(four, make_tournament) -> None:
    folder = make_tournament(four[:3])
    run(folder)
    rename = _make_version1(folder)
    old_seeds = set(finished_ids(folder).values())  # opening migrates
    assert set(finished_ids(folder)) == set(rename.values())
    config = load_config(folder)
    with Store(config.store_path) as store:
        assert store.get_meta("schema") == "2"
        assert all(m.result and m.result.match_id == m.match_id for m in store.matches())
    make_tournament(four[:3], seed=8)  # a store without fingerprint still knows its seed
    with pytest.raises(FingerprintError, match="seed 8 is not the seed the stored results"):
        run(folder)
    make_tournament(four)  # a 4th bot: only its tables are played, on new-scheme deals
    summary = run(folder)
    assert (summary.played, summary.finished) == (18, 24)
    assert old_seeds <= set(finished_ids(folder).values())


def test_bot_add_refuses_a_bot_listed_in_the_config(four, make_tournament) -> None:
    folder = make_tournament(four[:3])
    with pytest.raises(RegistryError, match=r"bot 'weak' is listed in .*tournament.toml \(bots\[0\]\)"):
        add_bot(load_config(folder), four[0])
    assert not (folder / "tournament.sqlite").exists()
    row, created = add_bot(load_config(folder), four[3])
    assert (row.name, created, row.source) == ("best", True, "submitted")


def test_results_read_without_the_source_folders(four, make_tournament) -> None:
    folder = make_tournament(four)
    run(folder)
    before = rows_json(folder)
    shutil.rmtree(four[1])
    config = load_config(folder, check_bots=False)
    with Store(config.store_path) as store:
        text = to_json(build(config, store))
    assert text.split('"rows"', 1)[1] == before


def test_a_match_key_is_one_way_of_the_tournament_seed(four, make_tournament) -> None:
    """What the bots of a match get from the tournament seed (their
    ARENA_SEED's key) is an HMAC keyed by it: reproducible, one per match,
    and neither the tournament seed nor a deal seed in any form."""
    from arena.referee.bot_seed import bot_seed
    from arena.tournament.plan.secrecy import match_key

    folder = make_tournament(four, seed=2**62 + 12345)
    config = load_config(folder)
    with Store(config.store_path) as store:
        coordinator.prepare(config, store)
        rows = store.matches()
    keys = set()
    for row in rows:
        spec = coordinator.match_spec(config, row, dict.fromkeys(row.bot_ids))
        assert spec.key == match_key(config.seed, row.match_id)
        assert str(config.seed) not in spec.key and str(row.seed) not in spec.key
        assert str(row.seed) not in row.match_id and str(config.seed) not in row.match_id
        seeds = {bot_seed(spec.key, seat) for seat in range(3)}
        assert row.seed not in seeds and config.seed not in seeds
        keys.add(spec.key)
    assert len(keys) == len(rows) == 24
    assert match_key(config.seed, rows[0].match_id) != match_key(config.seed + 1, rows[0].match_id)


def test_the_seed_is_committed_first_and_published_when_every_match_is_finished(
        four, make_tournament) -> None:
    """`leaderboard publish` writes the seed's commitment from the first
    publication on, and the seed (and salt) only once every planned match
    is finished, or with --reveal; the commitment is SHA-256("salt:seed")
    and does not change between publications."""
    from typer.testing import CliRunner

    from arena.cli import app

    seed = 2**62 + 99
    folder = make_tournament(four, seed=seed)
    with pytest.raises(KeyboardInterrupt):
        run(folder, Inline(stop_after=5))

    def publish(*extra: str) -> tuple[str, dict, str]:
        out = folder / "board"
        done = CliRunner().invoke(app, ["leaderboard", "publish", str(folder), "--out", str(out),
                                        *extra])
        assert done.exit_code == 0, done.output
        files = "".join((out / name).read_text() for name in
                        ("leaderboard.md", "leaderboard.csv", "index.html"))
        return done.output, json.loads((out / "leaderboard.json").read_text()), files

    said, data, files = publish()
    commitment = data["seed"]["commitment"]
    assert f"seed commitment: {commitment}" in said and "seed kept secret: 5 of 24" in said
    assert data["seed"]["seed"] is None and data["seed"]["salt"] is None
    assert commitment in files and str(seed) not in files + json.dumps(data) + said

    said, data, files = publish("--reveal")
    salt = data["seed"]["salt"]
    assert data["seed"]["seed"] == seed and data["seed"]["commitment"] == commitment
    assert hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest() == commitment
    assert f"seed revealed: {seed} (salt {salt})" in said and str(seed) in files

    run(folder)  # every planned match finished: the seed is published without --reveal
    said, data, _ = publish()
    assert data["seed"] == {"commitment": commitment, "scheme": 'sha256("<salt>:<seed>")',
                            "seed": seed, "salt": salt}
    assert f"seed revealed: {seed}" in said


def test_a_publish_that_writes_nothing_publishes_no_seed(four, make_tournament) -> None:
    """The store remembers the seed as published when a file showing it is
    written, not before: a `leaderboard publish --out` that cannot be written
    (a typo naming a file) showed the seed to no one, yet refused every bot
    added afterwards. A publish that writes a file still marks it."""
    from typer.testing import CliRunner

    from arena.cli import app
    from arena.tournament.plan.secrecy import revealed_after

    folder = make_tournament(four[:3], seed=2**62 + 7)
    run(folder)  # every planned match finished: publish shows the seed
    config = load_config(folder)
    a_file = folder / "not-a-folder"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub"):
        failed = CliRunner().invoke(app, ["leaderboard", "publish", str(folder), "--no-site",
                                          "--out", str(out)])
        assert failed.exit_code == 2 and "cannot write the leaderboard" in failed.output
        with Store(config.store_path) as store:
            assert revealed_after(store) is None
    add_bot(config, four[3])  # arena bot add: the seed is still secret
    done = CliRunner().invoke(app, ["leaderboard", "publish", str(folder), "--no-site",
                                    "--reveal", "--out", str(folder / "board")])
    assert done.exit_code == 0 and "seed revealed" in done.output, done.output
    with Store(config.store_path) as store:
        assert revealed_after(store) == max(b.id for b in store.bots())


def test_a_published_seed_deals_nothing_to_bots_that_join_after_it(
        four, make_bot, make_tournament) -> None:
    """Every deal seed derives from the tournament seed by public code, so
    once `leaderboard publish` has published the seed (every planned match
    finished), the author of a bot added later could deal every hand of its
    matches (`leaderboard show` prints it only to the organiser: no reveal). A run then refuses those matches, one line, nothing planned;
    a new version of a listed bot likewise. Matches of versions registered
    before the reveal (written without knowing the seed) still play."""
    from typer.testing import CliRunner

    from arena.cli import app

    folder = make_tournament(four[:3], seed=2**62 + 5)
    with pytest.raises(KeyboardInterrupt):
        run(folder, Inline(stop_after=2))
    early = CliRunner().invoke(app, ["leaderboard", "publish", str(folder), "--reveal",
                                     "--no-site", "--out", str(folder / "board")])
    assert early.exit_code == 0 and "seed revealed" in early.output, early.output
    assert run(folder).played == 4  # the old versions' matches: their code predates the reveal
    config = load_config(folder)
    with Store(config.store_path) as store:
        stored = {r.match_id: r.status for r in store.matches()}
    assert len(stored) == 6 and set(stored.values()) == {"finished"}

    with pytest.raises(RegistryError, match="a bot added now would be dealt from it"):
        add_bot(config, four[3])  # arena bot add, after the seed was published
    make_tournament(four, seed=2**62 + 5)  # the fourth bot listed instead
    with pytest.raises(coordinator.TournamentError) as refused:
        run(folder)
    message = str(refused.value)
    assert "\n" not in message and "tournament seed was published" in message
    assert "before best 1.0 joined; its matches would be dealt from that seed" in message
    with Store(config.store_path) as store:
        assert {r.match_id: r.status for r in store.matches()} == stored  # nothing planned
        assert "best" not in {b.name for b in store.bots()}  # nor registered

    folder2 = make_tournament(four[:3], name="t2", seed=2**62 + 6)
    run(folder2)
    shown = CliRunner().invoke(app, ["leaderboard", "show", str(folder2)])
    assert shown.exit_code == 0 and str(2**62 + 6) in shown.output  # to the organiser only:
    make_bot("mid", "strength 1", version="1.1")
    assert run(folder2).played == 6  # it still deals to new versions
    shown = CliRunner().invoke(app, ["leaderboard", "publish", str(folder2), "--no-site",
                                     "--out", str(folder2 / "board")])
    assert shown.exit_code == 0 and "seed revealed" in shown.output, shown.output
    make_bot("weak", "strength 5", version="2.0")  # a listed bot changes: a new version
    with pytest.raises(coordinator.TournamentError, match=r"before weak 2\.0 joined"):
        run(folder2)

    # A demo whose seed is public anyway (tournaments/sample) says so: nothing to keep.
    make_tournament(four[:3], name="t2", seed=2**62 + 6, extra="seed_public = true")
    assert run(folder2).played == 6  # weak 2.0's tables
    add_bot(load_config(folder2), four[3])
    assert run(folder2).played == 18


def test_without_replays_a_table_with_a_kept_log_gets_fresh_deals_too(
        make_bot, make_tournament) -> None:
    """`auto` keeps a new version on the old deals when no replay is kept,
    but a seat with a fault has its log kept, served by `arena serve` and
    published in the site once the table is complete: a bot that faults on
    purpose and prints what it sees there (in duplicate it sat in every seat)
    shows the whole deal. So at a table with a kept log a new version plays
    fresh deals; at the others, the old ones (comparable)."""
    bots = [make_bot("weak", "strength 0"), make_bot("mid", "strength 1"),
            make_bot("good", "strength 2"), make_bot("slow", "strength 1 slowpoke")]
    folder = make_tournament(bots)  # replays = false
    run(folder)
    config = load_config(folder)
    with Store(config.store_path) as store:
        names = {b.id: b.name for b in store.bots()}
        before = {r.match_id: r for r in store.matches()}
    old = {frozenset(names[i] for i in r.bot_ids): r.seed for r in before.values()}
    make_bot("weak", "strength 5", version="2.0")
    assert run(folder).played == 18
    with Store(config.store_path) as store:
        names = {b.id: b.name for b in store.bots()}
        after = [r for r in store.matches() if r.match_id not in before]
    seeds: dict[frozenset[str], set[int]] = {}
    for r in after:
        seeds.setdefault(frozenset(names[i] for i in r.bot_ids), set()).add(r.seed)
    assert len(seeds) == 3 and all(len(s) == 1 for s in seeds.values())
    for table, (seed,) in seeds.items():
        assert (seed != old[table]) is ("slow" in table), sorted(table)


@pytest.mark.parametrize(("mode", "fresh"), [("auto", True), ("fresh", True), ("same", False)])
def test_a_new_version_gets_deals_no_one_has_seen(four, make_bot, make_tournament, mode: str,
                                                  fresh: bool) -> None:
    """The old version's replays show its tables' deals: its new version
    plays them on fresh seeds (all six seat orders on one, still duplicate),
    unless the tournament asks for the same deals. Tables without the
    changed bot keep theirs; so do first versions."""
    folder = make_tournament(four, extra=f'replays = true\nnew_version_deals = "{mode}"')
    run(folder)
    config = load_config(folder)
    with Store(config.store_path) as store:
        before = {r.match_id: r for r in store.matches()}
        weak_v1 = {b.id for b in store.bots() if b.name == "weak"}
    make_bot("weak", "strength 5", version="2.0")
    assert run(folder).played == 18
    with Store(config.store_path) as store:
        weak = {b.id for b in store.bots() if b.name == "weak"}
        names = {b.id: b.name for b in store.bots()}
        after = [r for r in store.matches() if r.match_id not in before]
    old_seed = {}
    for r in before.values():
        old_seed[frozenset(names[i] for i in r.bot_ids)] = r.seed
        assert r.seed == derive_seed(config.seed, "deal", r.set_no,
                                     table_key([names[i] for i in r.bot_ids]))
    assert len(after) == 18 and all(set(r.bot_ids) & (weak - weak_v1) for r in after)
    by_table: dict[frozenset[str], set[int]] = {}
    for r in after:
        by_table.setdefault(frozenset(names[i] for i in r.bot_ids), set()).add(r.seed)
    assert len(by_table) == 3 and all(len(seeds) == 1 for seeds in by_table.values())
    for table, (seed,) in by_table.items():
        assert (seed != old_seed[table]) is fresh
