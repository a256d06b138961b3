"""`arena analyze` run as a user runs it: a replay (summary, JSON out, the
seat view), a tournament folder (progress, resumed from its cache, in
parallel), and bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import cli, cli_ok, refused
from web.stored import stored_tournament

from arena.game import Rules

from .games import play_replay

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "m1.jsonl"
    play_replay(path, Rules.preset("standard").replace(max_deals=1), seed=8,
                names={1: "hero"})
    return path


def test_a_replays_seat_summary_and_json(replay: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = cli_ok("analyze", replay, "--bot", "hero", "--work", "4", "--all", "-o", out)
    assert "match m1, seat 1 (hero 1.0.0)" in done.stdout
    report = json.loads(out.read_text())
    assert report["seat"] == 1 and report["settings"]["work"] == 4
    assert report["decisions"] and all("open_hand" in d for d in report["decisions"])
    for d in report["decisions"]:   # --all: every decision valued has its line
        assert f"{d['taken']!r} lost {d['loss']:.1f}" in done.stdout
    table = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()
             if line.startswith("  ") and not line.startswith("  deal")}
    row = report["summary"]["all"]
    assert table["all"] == [str(row["decisions"]), str(row["inaccuracy"]), str(row["mistake"]),
                            str(row["blunder"]), f"{row['mean_loss']:.1f}", f"{row['accuracy']:.1f}%"]
    view = tmp_path / "view.json"
    cli_ok("analyze", replay, "--seat", "1", "--work", "4", "--seat-view", "-o", view)
    seat_view = json.loads(view.read_text())
    assert not any("open_hand" in d for d in seat_view["decisions"])
    assert [d["loss"] for d in seat_view["decisions"]] == [d["loss"] for d in report["decisions"]]


def test_a_replays_seat_in_two_stages(replay: Path, tmp_path: Path) -> None:
    out = tmp_path / "two.json"
    done = cli_ok("analyze", replay, "--seat", "1", "--work", "4", "--seat-view", "--confirm",
                  "search", "--confirm-work", "1", "--screen", "0", "-o", out)
    report = json.loads(out.read_text())
    assert report["settings"]["confirm"] == {"policy": "search", "policy_work": 1, "screen": 0.0}
    # A screen of 0 points sends every decision on to stage 2.
    assert report["decisions"] and all(d["stage"] == 2 and "screen" in d for d in report["decisions"])
    assert f"stage 2: search (work 1) valued again the {len(report['decisions'])} decisions" in done.stdout


def test_bad_input_is_one_line(replay: Path, tmp_path: Path) -> None:
    refused(cli("analyze", tmp_path / "none.jsonl"), "cannot read replay")
    refused(cli("analyze", replay, "--seat", "5", "--work", "4"), "seat 5 is not a seat")
    refused(cli("analyze", tmp_path), "name the bot to analyse with --bot NAME")
    refused(cli("analyze", replay, "--policy", "best"), "reference policy 'best': not one of greedy, search, search-seat")
    refused(cli("analyze", tmp_path, "--bot", "greedy"), "no tournament or gauntlet store here")
    refused(cli("analyze", replay, "--confirm", "best"),
            "confirming reference 'best': not one of none, greedy, search, search-seat")


def test_a_tournaments_bot_resumes_from_its_cache(tmp_path: Path) -> None:
    folder = stored_tournament(tmp_path / "t", rules_extra="max_deals = 1\n")
    refused(cli("analyze", folder, "--bot", "nobody"), "no bot named 'nobody'")
    first = cli_ok("analyze", folder, "--bot", "greedy", "--matches", "1", "--work", "3")
    assert "1 seats of greedy to analyse, 0 already done" in first.stderr
    assert "[1/1] " in first.stderr
    assert "greedy: 1 seats analysed" in first.stdout
    cached = list((folder / "analysis" / "greedy").rglob("*.json"))
    assert len(cached) == 1
    # More matches, two at a time: the first one is read from the cache.
    more = cli_ok("analyze", folder, "--bot", "greedy", "--matches", "3", "--work", "3",
                  "--jobs", "2", "-o", tmp_path / "all.json")
    assert "3 seats of greedy to analyse, 1 already done" in more.stderr
    assert "[3/3] " in more.stderr
    combined = json.loads((tmp_path / "all.json").read_text())
    assert len(combined["matches"]) == 3
    assert combined["summary"]["all"]["decisions"] == sum(
        m["all"]["decisions"] for m in combined["matches"])
    again = cli_ok("analyze", folder, "--bot", "greedy", "--matches", "3", "--work", "3")
    assert "3 already done" in again.stderr and again.stdout == more.stdout
    cached[0].write_text("{", encoding="utf-8")   # damaged by hand: analysed again
    healed = cli_ok("analyze", folder, "--bot", "greedy", "--matches", "3", "--work", "3")
    assert "2 already done" in healed.stderr and healed.stdout == more.stdout
