"""The committed sample table is what `make tournament` publishes today.

Every bot's ARENA_SEED derives from its match id, and a match id from the
content hashes of the seated bots (arena.tournament.plan.schedule.match_id): a
bot folder changed by one byte (a comment in its bot.toml) plays every
match with other seeds, so a fresh `make tournament` publishes another
table. The table must be republished whenever a bot of the sample
tournament changes; this test says when it was not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import cli

from arena.tournament.plan.config import configured_bots, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_sample_table_was_published_from_the_committed_bots() -> None:
    config = load_config(ROOT / "tournaments" / "sample")
    published = json.loads((ROOT / "leaderboards" / "sample" / "leaderboard.json").read_text())
    rows = {r["bot"]: r for r in published["rows"]}
    bots = configured_bots(config)
    assert sorted(rows) == sorted(b.name for b in bots)
    stale = [f"{b.name} (folder {b.content_hash[:12]}, table {rows[b.name]['content_hash'][:12]})"
             for b in bots if rows[b.name]["content_hash"] != b.content_hash]
    assert not stale, (
        "leaderboards/sample/ was published from other bot folders than the committed ones: "
        + ", ".join(stale) + ". Republish it with `make tournament` (a JavaScript bot's "
        "node_modules is part of its hash: scripts/setup.sh installs it)")
    assert published["seed"]["seed"] == config.seed
    assert {b.name: b.version for b in bots} == {n: r["version"] for n, r in rows.items()}


@pytest.mark.slow
def test_the_committed_sample_table_verifies_from_its_bundle() -> None:
    """`arena verify` as anyone runs it: the committed replays re-deal from the
    revealed seed, re-play with the engine and give the committed table."""
    done = cli("verify", ROOT / "leaderboards" / "sample")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "verified: 60 matches, table identical", done.stdout
