"""`arena verify`: a real tournament (real sample bots at the process
level, short games) played and published through the `arena` CLI, its
results bundle verified, then tampered with one way at a time.

Most tampering is done as a careful forger would: the changed files are
resealed (manifest hashes and chain recomputed), so the check that refuses
it is the one that looks at the games and the table, not the hash of the
file. A few are left unsealed to show the manifest's own line.
"""

from __future__ import annotations

import functools
import http.server
import itertools
import json
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clihelp import ROOT, cli, cli_here, cli_ok

from arena.game import Rules, new_game, parse_action
from arena.tournament.results import bundle_format as fmt

# One xdist worker for the module: the published tournament (a module
# fixture, half a minute) is then played once, not once per worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("verify-published")]

SEED = 8_817_262_551_031_907


def _tournament(folder: Path, bots: list[Path]) -> Path:
    folder.mkdir(parents=True)
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(f'''
name = "{folder.name}"
seed = {SEED}
duplicate_sets = 1
sandbox = "process"
replays = true
bootstrap = 30
concurrency = 2
bots = [{listed}]
[rules]
preset = "standard"
target = 500
max_deals = 3
''')
    return folder


def _field() -> list[Path]:
    return [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random",
            ROOT / "tournaments" / "sample" / "random_b"]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The published folder of a finished 3-bot tournament (6 matches):
    every table complete, the seed revealed."""
    base = tmp_path_factory.mktemp("verify")
    folder = _tournament(base / "vt", _field())
    cli_ok("tournament", "run", "-q", folder, timeout=300)
    out = base / "pub"
    done = cli_ok("leaderboard", "publish", folder, "--out", out, "--no-site")
    assert "manifest head" in done.stdout
    return out


@pytest.fixture
def bundle(published: Path, tmp_path: Path) -> Path:
    """A copy of the published folder for one test to change; its bundle."""
    shutil.copytree(published, tmp_path / "pub")
    return tmp_path / "pub" / fmt.FOLDER


def reseal(folder: Path) -> None:
    """Recompute the manifest over the files as they now are (a forger's
    consistent bundle)."""
    data = json.loads((folder / fmt.BUNDLE).read_text())
    b = fmt.sha256((folder / fmt.BUNDLE).read_bytes())
    lb = fmt.sha256((folder / fmt.LEADERBOARD).read_bytes())
    start = fmt.chain_start(b, lb)
    pairs = [(m["match_id"], fmt.sha256((folder / m["replay"]).read_bytes())
              if m["replay"] else fmt.NO_REPLAY) for m in data["matches"]]
    links = fmt.chain(start, pairs)
    manifest = {"format": fmt.FORMAT, "format_version": fmt.FORMAT_VERSION,
                "files": {fmt.BUNDLE: b, fmt.LEADERBOARD: lb}, "start": start,
                "matches": [{"match_id": mid, "replay": m["replay"], "sha256": h, "chain": link}
                            for (mid, h), link, m in zip(pairs, links, data["matches"],
                                                         strict=True)],
                "head": links[-1] if links else start}
    (folder / fmt.MANIFEST).write_text(json.dumps(manifest))


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def write_records(path: Path, recs: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))


def replays(folder: Path) -> list[Path]:
    return sorted((folder / fmt.REPLAYS).glob("*.jsonl"))


def different(folder: Path, *fragments: str) -> str:
    """`arena verify` refuses the bundle: exit 1, the checks that passed
    first, and one DIFFERENCE line holding every fragment. In-process
    (cli_here): the real command's verdicts are the first tests'."""
    done = cli_here("verify", folder)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("DIFFERENCE: "), done.stdout
    for fragment in fragments:
        assert fragment in line, line
    assert "verified:" not in done.stdout
    return line


def unreadable(folder: Path | str, fragment: str, run: Callable[..., Any] = cli_here) -> None:
    """Bad input: exit 2 and one line on stderr, never a traceback (in-process)."""
    done = run("verify", folder)
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert fragment in done.stderr and "Traceback" not in done.stderr, done.stderr


# -- the real bundle verifies ------------------------------------------------

def test_a_published_tournament_verifies_line_by_line(published: Path) -> None:
    done = cli_ok("verify", published / fmt.FOLDER)
    out = done.stdout.splitlines()
    assert [line.split(":")[0] for line in out] == [
        "bundle", "manifest", "commitment", "schedule", "deal seeds", "replays", "table",
        "verified"]
    assert out[-1] == "verified: 6 matches, table identical"
    assert "all 6 planned matches present" in done.stdout
    assert "6 re-dealt and re-played" in done.stdout
    # The leaderboard folder itself names its bundle too.
    assert cli_ok("verify", published).stdout.splitlines()[-1] == out[-1]


def test_the_bundle_holds_what_the_table_was_computed_from(published: Path) -> None:
    folder = published / fmt.FOLDER
    data = json.loads((folder / fmt.BUNDLE).read_text())
    assert data["seed"]["seed"] == SEED and data["seed"]["salt"]
    assert "bots" not in data["tournament"]           # no organiser's paths
    assert str(ROOT) not in (folder / fmt.BUNDLE).read_text()
    assert {b["name"] for b in data["bots"]} == {"greedy", "random", "random_b"}
    assert all(len(b["content_hash"]) == 64 for b in data["bots"])
    assert len(data["matches"]) == len(replays(folder)) == 6
    assert (folder / fmt.LEADERBOARD).read_bytes() == (published / "leaderboard.json").read_bytes()


def test_the_manifest_head_can_be_required(published: Path) -> None:
    head = json.loads((published / fmt.FOLDER / fmt.MANIFEST).read_text())["head"]
    assert cli_ok("verify", published, "--head", head).stdout.endswith("table identical\n")
    line = cli("verify", published, "--head", "0" * 64).stdout.splitlines()[-1]
    assert line.startswith("DIFFERENCE: manifest: head") and "not the one given" in line


def test_a_bundle_served_over_http_verifies(published: Path) -> None:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(published))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        assert cli_ok("verify", url).stdout.splitlines()[-1] == "verified: 6 matches, table identical"
        # Through the real command: in this process the server's thread
        # would log its 404 into the captured stderr.
        unreadable(f"{url}/nothing-here", "HTTP 404", run=cli)
    finally:
        server.shutdown()
        server.server_close()


def test_before_the_reveal_everything_but_the_deals_is_verified(tmp_path: Path) -> None:
    """Three bots play their table; a fourth joins before the table is
    published: 6 of 24 matches, the seed kept secret."""
    folder = _tournament(tmp_path / "early", _field())
    cli_ok("tournament", "run", "-q", folder, timeout=300)
    late = tmp_path / "random_c"
    shutil.copytree(ROOT / "tournaments" / "sample" / "random_b", late)
    (late / "bot.toml").write_text((late / "bot.toml").read_text().replace('"random_b"',
                                                                          '"random_c"'))
    cli_ok("bot", "add", folder, late)
    out = tmp_path / "pub"
    assert "seed kept secret" in cli_ok("leaderboard", "publish", folder, "--out", out,
                                        "--no-site").stdout
    for path in (out / fmt.FOLDER).rglob("*"):
        if path.is_file():
            assert str(SEED) not in path.read_text(), path
    done = cli_ok("verify", out)
    assert "commitment: not checked: the seed is not revealed yet" in done.stdout
    assert "deal seeds: not checked" in done.stdout
    assert "6 of 24 planned matches played" in done.stdout
    assert done.stdout.splitlines()[-1] == ("verified: 6 matches, table identical; not the "
                                            "deals: the seed is not revealed yet (verify again "
                                            "once it is)")
    # Still checked: a rating edited is found before the reveal too.
    edit_json(out / fmt.FOLDER / fmt.LEADERBOARD, lambda d: d["rows"][1].update(mu=1.0))
    reseal(out / fmt.FOLDER)
    different(out / fmt.FOLDER, "table: leaderboard.json rows[1]", ".mu: published 1.0")


# -- tampering ---------------------------------------------------------------

def _first_play(path: Path) -> tuple[list[dict[str, Any]], int, str]:
    """The replay's records, the index of its first card play, and a card
    the playing seat does not hold then (another seat's)."""
    recs = records(path)
    header = recs[0]
    game = new_game(Rules.from_dict(header["rules"]), seed=header["seed"])
    for i, rec in enumerate(recs):
        if rec["type"] != "action":
            continue
        if rec["action"].startswith("play "):
            other = (rec["seat"] + 1) % 3
            return recs, i, str(game.hand(other)[0])
        game = game.apply(parse_action(rec["action"]))
    raise AssertionError("no card played")


def test_a_changed_card_in_a_deal_is_refused(bundle: Path) -> None:
    path = replays(bundle)[2]
    recs, i, card = _first_play(path)
    recs[i]["action"] = f"play {card}"
    write_records(path, recs)
    reseal(bundle)
    different(bundle, f"match {path.stem}, deal {recs[i]['deal']}, decision {recs[i]['n']}",
              "illegal action")


def test_deals_from_another_seed_are_refused(bundle: Path) -> None:
    """Other cards dealt (the replay's seed changed, its result's too):
    not the deals the tournament seed gives."""
    path = replays(bundle)[0]
    recs = records(path)
    recs[0]["seed"] += 1
    write_records(path, recs)
    edit_json(bundle / fmt.BUNDLE, lambda d: d["matches"][0]["result"].update(
        seed=recs[0]["seed"]))
    reseal(bundle)
    different(bundle, f"match {path.stem}", "not the one the tournament seed gives")


def test_an_action_swapped_is_refused(bundle: Path) -> None:
    path = replays(bundle)[1]
    recs = records(path)
    actions = [i for i, r in enumerate(recs) if r["type"] == "action"]
    # Two decisions of the same deal by different seats, the actions traded.
    a, b = next((x, y) for x, y in itertools.pairwise(actions)
                if recs[x]["action"] != recs[y]["action"] and recs[x]["deal"] == recs[y]["deal"])
    recs[a]["action"], recs[b]["action"] = recs[b]["action"], recs[a]["action"]
    write_records(path, recs)
    reseal(bundle)
    different(bundle, f"match {path.stem}")


def test_a_total_changed_is_refused(bundle: Path) -> None:
    path = replays(bundle)[3]
    recs = records(path)
    recs[-1]["totals"][0] += 10
    write_records(path, recs)
    reseal(bundle)
    different(bundle, f"match {path.stem}: its replay records totals", "the re-play gives")
    # The result in bundle.json changed instead (the table reads it).
    data = json.loads((bundle / fmt.BUNDLE).read_text())
    seat = data["matches"][3]["result"]["seats"][0]
    seat["total"] += 10
    (bundle / fmt.BUNDLE).write_text(json.dumps(data))
    recs[-1]["totals"][0] -= 10
    write_records(path, recs)
    reseal(bundle)
    different(bundle, f"match {path.stem}: its result records totals")


def test_a_deal_result_changed_is_refused(bundle: Path) -> None:
    path = replays(bundle)[4]
    recs = records(path)
    deal = next(r for r in recs if r["type"] == "deal")
    deal["deal_scores"][1] += 5
    write_records(path, recs)
    reseal(bundle)
    different(bundle, f"match {path.stem}, deal {deal['deal_number']}: its replay records "
              "deal_scores")


def test_a_replay_removed_is_refused(bundle: Path) -> None:
    gone = replays(bundle)[5]
    gone.unlink()
    different(bundle, f"match {gone.stem}: its replay", "is missing from the bundle")
    # Its match taken out of bundle.json and the manifest too: the schedule
    # and the published count still say it was played.
    edit_json(bundle / fmt.BUNDLE, lambda d: d["matches"].pop(5))
    reseal(bundle)
    different(bundle, "schedule: leaderboard.json counts 6 finished matches, the bundle holds 5",
              f"first missing: match {gone.stem}")


def test_two_replays_swapped_are_refused(bundle: Path) -> None:
    a, b = replays(bundle)[0], replays(bundle)[1]
    text_a, text_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(text_b)
    b.write_bytes(text_a)
    different(bundle, f"match {a.stem}", "is not the file the manifest hashed")
    reseal(bundle)
    different(bundle, f"match {a.stem}: its replay file holds match {b.stem}")


def test_two_matches_reordered_are_refused(bundle: Path) -> None:
    edit_json(bundle / fmt.MANIFEST, lambda d: d["matches"].reverse())
    different(bundle, "manifest: its match 1 is")


def test_a_forged_commitment_is_refused(bundle: Path) -> None:
    edit_json(bundle / fmt.BUNDLE, lambda d: d["seed"].update(commitment="ab" * 32))
    reseal(bundle)
    different(bundle, "commitment:", "not the published commitment " + "ab" * 32)


def test_another_revealed_seed_is_refused(bundle: Path) -> None:
    edit_json(bundle / fmt.BUNDLE, lambda d: d["seed"].update(seed=SEED + 1))
    reseal(bundle)
    different(bundle, "commitment:", "the revealed seed is not the one committed to")


def test_a_rating_edited_in_leaderboard_json_is_refused(bundle: Path) -> None:
    def bump(d: dict[str, Any]) -> None:
        d["rows"][0]["mu"] = round(d["rows"][0]["mu"] + 0.001, 3)

    # The published file beside the bundle alone.
    edit_json(bundle.parent / "leaderboard.json", bump)
    line = different(bundle, "published beside the bundle", "rows[0]", ".mu")
    # The bundle's own copy, resealed.
    edit_json(bundle / fmt.LEADERBOARD, bump)
    reseal(bundle)
    line = different(bundle, "table: leaderboard.json rows[0]", ".mu: published")
    assert "recomputed" in line


def test_a_rating_edited_without_resealing_is_the_manifests_line(bundle: Path) -> None:
    edit_json(bundle / fmt.LEADERBOARD, lambda d: d["rows"][0].update(sigma=0.5))
    different(bundle, "manifest: leaderboard.json is not the file the manifest hashed")


def test_a_schedule_changed_is_refused(bundle: Path) -> None:
    """Two seats of one match traded in bundle.json: not the seat order the
    settings give that match id."""
    edit_json(bundle / fmt.BUNDLE, lambda d: d["matches"][0].update(
        bots=[d["matches"][0]["bots"][1], d["matches"][0]["bots"][0], d["matches"][0]["bots"][2]]))
    reseal(bundle)
    different(bundle, "the schedule seats")


def test_a_bundle_of_another_arena_version_is_refused_in_one_line(bundle: Path) -> None:
    edit_json(bundle / fmt.BUNDLE, lambda d: d.update(arena_version="0.0.1"))
    reseal(bundle)
    unreadable(bundle, "written by arena 0.0.1")


@pytest.mark.parametrize("name", [fmt.BUNDLE, fmt.MANIFEST, fmt.LEADERBOARD])
def test_a_truncated_file_is_one_line(bundle: Path, name: str) -> None:
    text = (bundle / name).read_bytes()
    (bundle / name).write_bytes(text[: len(text) // 2])
    unreadable(bundle, f"{name}: not JSON (truncated?)")


def test_a_truncated_replay_is_named(bundle: Path) -> None:
    path = replays(bundle)[0]
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    reseal(bundle)
    different(bundle, f"match {path.stem}")


def test_wrong_formats_are_one_line(bundle: Path, tmp_path: Path) -> None:
    unreadable(tmp_path / "missing", "no such folder")
    (tmp_path / "empty").mkdir()
    unreadable(tmp_path / "empty", "not a results bundle")
    unreadable(bundle / fmt.BUNDLE, "not a folder")
    edit_json(bundle / fmt.MANIFEST, lambda d: d.update(format="something-else"))
    unreadable(bundle, "not an arena results bundle")
    edit_json(bundle / fmt.MANIFEST, lambda d: d.update(format=fmt.FORMAT, format_version=9))
    unreadable(bundle, "bundle format 9")
    edit_json(bundle / fmt.MANIFEST, lambda d: d.update(format_version=fmt.FORMAT_VERSION))
    edit_json(bundle / fmt.BUNDLE, lambda d: d["matches"][0].update(result=[]))
    reseal(bundle)
    unreadable(bundle, "'matches[0]': key 'result' is [], expected dict")
    (bundle / fmt.BUNDLE).write_text("[1, 2]")
    unreadable(bundle, "bundle.json: not an arena results bundle")


def test_a_replay_added_to_the_folder_is_refused(bundle: Path) -> None:
    shutil.copyfile(replays(bundle)[0], bundle / fmt.REPLAYS / "s999-extra.jsonl")
    different(bundle, "replays/s999-extra.jsonl is in the bundle but in no match's entry")


def test_publish_replaces_only_a_bundle_it_wrote(published: Path, tmp_path: Path) -> None:
    folder = published.parent / "vt"
    out = tmp_path / "out"
    (out / fmt.FOLDER).mkdir(parents=True)
    (out / fmt.FOLDER / "notes.txt").write_text("mine")
    done = cli("leaderboard", "publish", folder, "--out", out, "--no-site")
    assert done.returncode == 2 and "holds 'notes.txt', which no results bundle has" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in out.iterdir()) == [fmt.FOLDER]  # nothing written
    (out / fmt.FOLDER / "notes.txt").unlink()
    cli_ok("leaderboard", "publish", folder, "--out", out, "--no-site")
    cli_ok("leaderboard", "publish", folder, "--out", out, "--no-site")  # its own: replaced
    assert cli_ok("verify", out).stdout.endswith("table identical\n")
    other = tmp_path / "plain"
    cli_ok("leaderboard", "publish", folder, "--out", other, "--no-site", "--no-bundle")
    assert not (other / fmt.FOLDER).exists()


def test_replays_of_an_earlier_record_format_verify(bundle: Path) -> None:
    """Deal records written before they held `redeals`: the field is not
    compared (the arena that played them did not record it)."""
    for path in replays(bundle):
        recs = records(path)
        for rec in recs:
            if rec["type"] == "deal":
                rec.pop("redeals", None)
        write_records(path, recs)
    reseal(bundle)
    assert cli_ok("verify", bundle).stdout.endswith("verified: 6 matches, table identical\n")
