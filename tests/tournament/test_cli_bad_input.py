"""Bad input through the real `arena` CLI: one line on stderr, no traceback,
exit status 2, and the stored results untouched. Each test's first command
runs as a process of its own, the rest in-process (clihelp.cli_here: the
same main(), no interpreter to start), but where a process is the point (a
run lock held by this one, a run killed)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from clihelp import cli, cli_here, refused

from arena.tournament.executors.dask_executor import (
    CONNECT_SECONDS,
    CONNECT_SECONDS_VAR,
    ExecutorError,
    connect_seconds,
)

from .folders import dump, random_bot, write

pytestmark = [pytest.mark.slow]


@pytest.mark.slow
def test_real_tournament_settings_bots_and_removed_sources(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    folder = tmp_path / "t"
    write(folder, bots)
    first = cli("tournament", "run", folder)
    assert "6/6 matches finished (6 played now" in first.stdout
    assert "seed 3 is short: a bot that tries seeds against its hand" in first.stderr
    # Told before the matches (the first thing on stderr, before the progress), while the
    # seed can still be changed.
    err = first.stderr
    assert err.startswith("warning: ") and err.index("seed 3 is short") < err.index("0/6 matches"), err
    before = dump(folder)
    board = tmp_path / "board"
    # (Not published yet: a published seed would refuse the bots added below.)

    # Each refusal below once through the real command, the rest in-process
    # (the same main(), its output captured: no interpreter to start).
    write(folder, bots, seed=4)  # a changed seed: every command refuses, nothing changes
    for n, args in enumerate((("tournament", "run", folder), ("tournament", "status", folder),
                              ("leaderboard", "show", folder),
                              ("leaderboard", "publish", folder, "--out", tmp_path / "other"))):
        refused((cli if n == 0 else cli_here)(*args),
                "tournament.toml: seed changed from 3 to 4 since results were "
                "stored; start a new tournament folder (or restore the setting)")
    assert dump(folder) == before and not (tmp_path / "other").exists()

    # A mistyped or duplicated bot path is refused by the read commands too:
    # it used to publish a table without that bot, its results shown as an
    # earlier version's, with exit status 0.
    for listed, message in (([*bots[:2], tmp_path / "rdd"], "key 'bots[2]'"),
                            ([*bots[:2], bots[1]], "key 'bots[2]': ")):
        write(folder, listed)
        for args in (("tournament", "run", folder), ("tournament", "status", folder),
                     ("leaderboard", "show", folder),
                     ("leaderboard", "publish", folder, "--out", tmp_path / "other")):
            refused((cli if args[1] == "publish" else cli_here)(*args), message)
    assert "is listed twice (also bots[1])" in cli_here("leaderboard", "show", folder).stderr
    assert dump(folder) == before and not (tmp_path / "other").exists()

    write(folder, bots)
    refused(cli_here("bot", "add", folder, bots[0]), "bot 'rb' is listed in")
    # A bot whose program is not built yet would crash in every match: refused
    # when submitted and when listed, and nothing stored changes.
    unbuilt = tmp_path / "unbuilt"
    unbuilt.mkdir()
    (unbuilt / "bot.toml").write_text('name = "ub"\nversion = "1"\nlanguage = "c"\nrun = "./bot"\n')
    (unbuilt / "Makefile").write_text("bot: bot.c\n\tcc -o bot bot.c\n")
    refused(cli("bot", "add", folder, unbuilt),
            "bot.toml: key 'run': program './bot' not found in ")
    assert "build the bot first" in cli_here("bot", "add", folder, unbuilt).stderr
    write(folder, [*bots, unbuilt])
    refused(cli_here("tournament", "run", folder), "key 'bots[3]': ")
    write(folder, bots)
    assert dump(folder) == before
    # a 4th bot that sorts first: only its 3 tables are played
    write(folder, [random_bot(tmp_path, "ra"), *bots])
    assert "24/24 matches finished (18 played now, 0 failed)" in cli(
        "tournament", "run", folder).stdout
    after = dump(folder)  # the first 6 results: same ids, same rows, not played again
    assert all(line in after for line in before if line.startswith('INSERT INTO "matches"'))

    # A changed bot is a new version: status counts the current field's matches,
    # and lists the earlier version apart with the matches kept for it.
    (bots[1] / "bot.py").write_text((bots[1] / "bot.py").read_text() + "\n# tweaked\n")
    assert "24/24 matches finished (18 played now, 0 failed)" in cli(
        "tournament", "run", folder).stdout
    lines = cli_here("tournament", "status", folder).stdout.splitlines()
    assert lines[0] == "cli: finished 24 (of 24 for the current bots)", lines
    assert lines[5].startswith("earlier versions (18 stored matches") and len(lines) == 7, lines
    assert lines[6].startswith("  rc 1.0.0 [") and lines[3].startswith("  rc 1.0.0 ["), lines
    assert lines[3] != lines[6]  # two contents of rc 1.0.0, by their hashes

    # Published with every planned match finished, the seed is public: a bot
    # added now would be dealt from it, its author knowing every hand.
    assert "seed revealed: 3" in cli("leaderboard", "publish", folder, "--out", board).stdout
    published = dump(folder)
    refused(cli_here("bot", "add", folder, random_bot(tmp_path, "re")),
            "re: refused: the seed of ")  # before its validation match: nothing stored
    assert dump(folder) == published and not (folder / "bots" / "re").exists()
    write(folder, [tmp_path / "re", tmp_path / "ra", *bots])
    refused(cli_here("tournament", "run", folder), "tournament.toml: the tournament seed was "
            "published (arena leaderboard publish) before re 1.0.0 joined; its matches would "
            "be dealt from that seed, and anyone could deal every hand: play new bots and "
            "versions in a new tournament folder (arena tournament new)")
    assert dump(folder) == published and not (folder / "bots" / "re").exists()  # nothing stored
    write(folder, [tmp_path / "ra", *bots])

    # reading results needs no source folder: the bots play from snapshots
    for bot in (*bots, tmp_path / "ra"):
        shutil.rmtree(bot)
    status = cli("tournament", "status", folder)
    assert status.returncode == 0 and status.stdout.startswith("cli: finished 24"), status
    # ...but it tells that the next run cannot start, in the words the run uses
    assert status.stderr.startswith("warning: ") and "key 'bots[0]'" in status.stderr, status
    assert "`arena tournament run` refuses to start until this is fixed" in status.stderr
    shown = cli_here("leaderboard", "show", folder)
    assert shown.returncode == 0 and "24 of 24 matches" in shown.stdout
    assert cli_here("leaderboard", "publish", folder, "--out", board).returncode == 0
    assert "| ra |" in (board / "leaderboard.md").read_text()  # 4 bots now
    refused(cli_here("tournament", "run", folder), "key 'bots[0]'")  # playing needs them


def test_status_warns_of_what_would_stop_the_next_run(tmp_path: Path) -> None:
    """Status reads results without the bots' folders, but it says what
    `run` would refuse: too few bots, a listed bot whose program is not
    built. Exit status 0 (it is a report), nothing written."""
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc")]
    folder = tmp_path / "t"
    write(folder, bots)
    two = cli("tournament", "status", folder)
    assert two.returncode == 0 and two.stdout.startswith("cli: not started"), two
    assert two.stderr == (
        f"warning: {folder / 'tournament.toml'}: key 'bots': a three-seat tournament needs at "
        "least 3 bots, found 2 (rb, rc); list another or submit one with `arena bot add` "
        "(`arena tournament run` refuses to start until this is fixed)\n"), two.stderr
    refused(cli_here("tournament", "run", folder), "needs at least 3 bots, found 2 (rb, rc)")

    unbuilt = tmp_path / "unbuilt"
    unbuilt.mkdir()
    (unbuilt / "bot.toml").write_text('name = "ub"\nversion = "1"\nlanguage = "c"\nrun = "./bot"\n')
    write(folder, [*bots, unbuilt])
    three = cli_here("tournament", "status", folder)
    assert three.returncode == 0 and "  ub 1 [" in three.stdout, three
    lines = three.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: ") and (
        "key 'bots[2]': " in lines[0] and "program './bot' not found" in lines[0]), lines
    refused(cli_here("tournament", "run", folder), "key 'bots[2]': ")
    write(folder, [*bots, random_bot(tmp_path, "rd")])
    fine = cli_here("tournament", "status", folder)
    assert fine.returncode == 0 and fine.stderr == "", fine.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["tournament.toml"]


def test_unreadable_inputs_are_one_line(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    folder = tmp_path / "t"
    write(folder, bots)
    (folder / "tournament.sqlite").write_bytes(b"this is not sqlite" * 100)
    refused(cli("tournament", "status", folder), "not a usable tournament store")
    refused(cli_here("tournament", "run", folder), "not a usable tournament store")
    refused(cli_here("leaderboard", "show", folder), "not a usable tournament store")
    refused(cli_here("bot", "add", folder, random_bot(tmp_path, "re")), "not a usable tournament store")
    assert (folder / "tournament.sqlite").read_bytes() == b"this is not sqlite" * 100

    latin = tmp_path / "latin"
    latin.mkdir()
    (latin / "tournament.toml").write_bytes(b'name = "caf\xe9"\n')
    refused(cli_here("tournament", "status", latin), "tournament.toml: not UTF-8 text")

    nan = tmp_path / "nan"
    write(nan, bots)
    with (nan / "tournament.toml").open("a") as f:
        f.write("[time_control]\nincrement = nan\n")
    refused(cli_here("tournament", "run", nan),
            "key 'time_control.increment': must be a finite number, got nan")
    assert not (nan / "tournament.sqlite").exists()


def test_new_and_publish_check_their_paths(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    refused(cli("tournament", "new", a_file), "exists and is not a folder")
    refused(cli_here("tournament", "new", tmp_path / "n", "--bot", tmp_path / "nope"),
            "--bot " + str(tmp_path / "nope") + ": ")
    assert not (tmp_path / "n").exists()
    odd = [random_bot(tmp_path, n) for n in ("rb", "rc")]
    quoted = tmp_path / 'q"bot'
    shutil.move(odd[0], quoted)
    made = cli_here("tournament", "new", tmp_path / "n", "--bot", quoted, "--bot", odd[1],
               "--bot", random_bot(tmp_path, "rd"))
    assert made.returncode == 0, made.stderr
    status = cli_here("tournament", "status", tmp_path / "n")  # valid TOML, valid bots
    assert status.returncode == 0 and "not started" in status.stdout, status.stderr

    folder = tmp_path / "n"
    with sqlite3.connect(folder / "tournament.sqlite"):
        pass  # an empty store: publish has a table to write
    refused(cli_here("leaderboard", "publish", folder, "--out", a_file), "cannot write the leaderboard")
    refused(cli_here("leaderboard", "publish", folder, "--out", "/proc/arena-no-such"),
            "cannot write the leaderboard")


def test_a_second_run_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    """Two runs would reset and replay each other's matches (and write one
    replay file twice): the folder is locked for the whole run."""
    from arena.tournament.run.runlock import exclusive_run

    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    folder = tmp_path / "t"
    write(folder, bots)
    with exclusive_run(folder):  # this test process plays the first run
        second = cli("tournament", "run", folder)
    refused(second, "another `arena tournament run` is playing this tournament (pid ")
    assert f"(pid {os.getpid()})" in second.stderr
    assert not (folder / "tournament.sqlite").exists()


def test_a_run_lock_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    """A folder the run cannot write its lock into (read-only, another
    user's; here the lock's name taken by a folder, which fails as root too)
    was a PermissionError's traceback; now one line naming the lock file."""
    from arena.tournament.run.runlock import LOCK_NAME, is_running

    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    folder = tmp_path / "t"
    write(folder, bots)
    (folder / LOCK_NAME).mkdir()
    refused(cli("tournament", "run", folder), f"{folder / LOCK_NAME}: cannot open the run lock")
    assert not (folder / "tournament.sqlite").exists()
    assert not is_running(folder)
    status = cli_here("tournament", "status", folder)
    assert status.returncode == 0 and "not started" in status.stdout, status.stderr


def test_is_running_probes_the_run_lock_without_taking_it(tmp_path: Path) -> None:
    """`tournament status` asks whether a run holds the folder: matches left
    `running` by a killed run are shown as interrupted. The probe must not
    make a run that starts at that instant fail."""
    import fcntl

    from arena.tournament.run.runlock import LOCK_NAME, exclusive_run, is_running

    assert not is_running(tmp_path)  # no lock file yet
    with exclusive_run(tmp_path):
        assert is_running(tmp_path)
    assert not is_running(tmp_path)
    # A probe holding its shared lock for a moment: the run waits it out.
    fd = os.open(tmp_path / LOCK_NAME, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_SH)
    timer = threading.Timer(0.05, os.close, (fd,))
    timer.start()
    with exclusive_run(tmp_path):
        assert is_running(tmp_path)
    timer.join()


@pytest.mark.slow
def test_dask_addresses_that_cannot_work_are_one_line(tmp_path: Path) -> None:
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    folder = tmp_path / "t"
    write(folder, bots, seed=8_123_456_789_012_345)  # long: no seed warning beside the error
    # Well formed, but no scheduler listens there (a loopback port nothing
    # serves): refused after the connect timeout, set to 1 s (not 10 s to wait out).
    quick = {**os.environ, CONNECT_SECONDS_VAR: "1"}
    refused(cli("tournament", "run", folder, "-q", "--dask", "tcp://127.0.0.1:9", env=quick),
            "dask scheduler tcp://127.0.0.1:9: cannot connect: Timed out trying to connect to "
            "tcp://127.0.0.1:9 after 1 s")
    assert "6/6 matches finished (6 played now" in cli("tournament", "run", folder).stdout
    stored = dump(folder)
    toml = folder / "tournament.toml"
    settings = toml.read_text()
    # Malformed: refused before anything starts. Each form once through the
    # real command, the rest in-process (the same main(), no interpreter to start).
    for n, address in enumerate(("tcp://", "tcp://127.0.0.1", "tcp://:8786", "tcp://127.0.0.1:http",
                                 "127.0.0.1:8786")):
        run = cli if n == 0 else cli_here
        refused(run("tournament", "run", folder, "--dask", address), f"--dask {address!r}")
        toml.write_text(settings.replace('name = "cli"\n', f'name = "cli"\ndask_address = "{address}"\n'))
        refused(run("tournament", "run", folder), f"key 'dask_address': {address!r}")
        toml.write_text(settings)
    assert dump(folder) == stored


def test_the_dask_connect_timeout_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONNECT_SECONDS_VAR, raising=False)
    assert connect_seconds() == CONNECT_SECONDS == 10
    monkeypatch.setenv(CONNECT_SECONDS_VAR, " 2.5 ")
    assert connect_seconds() == 2.5
    for bad in ("soon", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(CONNECT_SECONDS_VAR, bad)
        with pytest.raises(ExecutorError, match=f"^{CONNECT_SECONDS_VAR}='{bad}': expected a "
                                                "number of seconds > 0$"):
            connect_seconds()


@pytest.mark.slow
def test_a_bot_whose_image_is_missing_is_warned_of_before_the_matches(tmp_path: Path) -> None:
    from arena.sandbox import available_levels

    if "docker" not in available_levels():
        pytest.skip("sandbox level 'docker' unavailable here")
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    toml = bots[2] / "bot.toml"
    toml.write_text(toml.read_text().replace('image = "arena-python:1"', 'image = "arena-pyhton:1"'))
    folder = tmp_path / "t"
    write(folder, bots, seed=8_123_456_789_012_345)
    (folder / "tournament.toml").write_text(
        (folder / "tournament.toml").read_text().replace('sandbox = "process"', 'sandbox = "auto"'))
    # A name that is not one of the arena's images is refused outright (one
    # line, nothing stored): bot.toml may name only those.
    refused(cli("tournament", "run", folder),
            "key 'image' = 'arena-pyhton:1': names one of the arena's images")
    assert not (folder / "tournament.sqlite").exists()
    # One of the arena's names at a tag this engine has not built: warned of.
    toml.write_text(toml.read_text().replace('"arena-pyhton:1"', '"arena-python:0"'))
    run = cli("tournament", "run", folder)
    assert run.returncode == 0, run.stderr
    warning = "rd@1.0.0 names image 'arena-python:0', which the docker engine does not have"
    assert run.stderr.startswith(f"warning: {warning}"), run.stderr[:400]


def test_a_bot_folder_given_as_the_tournament_folder_is_named_so(tmp_path: Path) -> None:
    """`arena bot add BOT DIR` (the arguments swapped) told its user to run
    `arena tournament new` in the bot's folder; now it says what the folder is."""
    bot = random_bot(tmp_path, "rb")
    folder = tmp_path / "t"
    write(folder, [random_bot(tmp_path, n) for n in ("rc", "rd", "re")])
    before = sorted(p.name for p in bot.iterdir())
    for n, args in enumerate((("bot", "add", bot, folder), ("tournament", "status", bot),
                              ("tournament", "run", bot), ("leaderboard", "publish", bot))):
        done = (cli if n == 0 else cli_here)(*args)
        refused(done, f"{bot}: a bot's folder (it has bot.toml), not a tournament's")
        assert "arena tournament new" not in done.stderr
    # `tournament new` there (or below) wrote tournament.toml into the bot,
    # which changed its content: its hash, and so its version, in every store.
    refused(cli_here("tournament", "new", bot), f"{bot}: a bot's folder (it has bot.toml)")
    refused(cli_here("tournament", "new", bot / "t"), f"{bot / 't'}: inside the bot folder {bot}")
    assert sorted(p.name for p in bot.iterdir()) == before  # nothing written into the bot
    assert not (folder / "tournament.sqlite").exists()


def test_a_file_given_for_a_folder_names_the_folder_meant(tmp_path: Path) -> None:
    """`bot check mybot/bot.toml` said "not a bot folder (no such directory)"
    of a file that exists; `tournament run DIR/tournament.toml` looked for
    DIR/tournament.toml/tournament.toml and offered `tournament new` on it."""
    bot = random_bot(tmp_path, "rb")
    folder = tmp_path / "t"
    write(folder, [random_bot(tmp_path, n) for n in ("rc", "rd", "re")])
    toml = folder / "tournament.toml"
    for n, args in enumerate((("tournament", "run", toml), ("tournament", "status", toml),
                              ("leaderboard", "show", toml), ("bot", "add", toml, bot))):
        done = (cli if n == 0 else cli_here)(*args)
        refused(done, f"{toml}: a file, not a tournament folder; give the folder that holds "
                      f"tournament.toml ({folder})")
        assert "arena tournament new" not in done.stderr
    refused(cli_here("bot", "add", folder, bot / "bot.toml"),
            f"{bot / 'bot.toml'}: a file, not a bot folder; give the folder that holds bot.toml ({bot})")
    refused(cli_here("play", bot / "bot.py", bot, bot), f"{bot / 'bot.py'}: a file, not a bot folder")
    checked = cli_here("bot", "check", bot / "bot.toml")
    assert checked.returncode == 1 and "a file, not a bot folder" in checked.stdout, checked.stdout
    assert not (folder / "tournament.sqlite").exists()


def test_a_bot_listed_relative_to_the_current_folder_is_given_its_path_from_the_file(
        tmp_path: Path) -> None:
    """`bots = ["sample_bots/greedy"]` written from the repository's root in
    tournaments/mine/tournament.toml: paths there are the file's, and the
    one line now says so, with the path that works."""
    folder = tmp_path / "tournaments" / "mine"
    folder.mkdir(parents=True)
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc")]
    write(folder, [*bots, Path("rd")])
    random_bot(tmp_path, "rd")  # beside the command's folder, not the file's
    done = cli("tournament", "run", folder, cwd=tmp_path)
    refused(done, f"key 'bots[2]': 'rd': {folder / 'rd'}: not a bot folder (no such directory) "
                  f"(paths here are relative to {folder}; from there this bot is '../../rd')")
    assert not (folder / "tournament.sqlite").exists()


def test_publish_replaces_only_what_it_wrote(tmp_path: Path) -> None:
    """`--out` a web folder of one's own: its index.html was overwritten
    and its site/ folder replaced whole (deleted). Now refused, one line,
    nothing written; a folder publish wrote itself is replaced as before."""
    folder = tmp_path / "t"
    write(folder, [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")])
    with sqlite3.connect(folder / "tournament.sqlite"):
        pass  # an empty store: publish has a table to write

    home = tmp_path / "home"
    home.mkdir()
    (home / "index.html").write_text("<html><title>My page</title></html>")
    refused(cli("leaderboard", "publish", folder, "--out", home, "--no-site"),
            "holds a file index.html that this arena did not write (not replaced")
    assert sorted(p.name for p in home.iterdir()) == ["index.html"]
    assert (home / "index.html").read_text() == "<html><title>My page</title></html>"
    # the other three names too: a notes folder with its own leaderboard.md
    for name, text in (("leaderboard.md", "# My league\n"), ("leaderboard.csv", "team,points\n"),
                       ("leaderboard.json", '{"teams": []}')):
        notes = tmp_path / f"notes-{name}"
        notes.mkdir()
        (notes / name).write_text(text)
        refused(cli_here("leaderboard", "publish", folder, "--out", notes, "--no-site"),
                f"holds a file {name} that this arena did not write (not replaced: give "
                "another --out)")
        assert [(p.name, p.read_text()) for p in notes.iterdir()] == [(name, text)]

    own = tmp_path / "own"
    (own / "site").mkdir(parents=True)
    (own / "site" / "about.html").write_text("mine")
    refused(cli_here("leaderboard", "publish", folder, "--out", own),
            f"{own / 'site'}: holds 'about.html', which no published site has: not replaced")
    assert sorted(p.relative_to(own).as_posix() for p in own.rglob("*")) == ["site", "site/about.html"]

    out = tmp_path / "out"
    for _ in range(2):  # its own files, replaced
        done = cli_here("leaderboard", "publish", folder, "--out", out)
        assert done.returncode == 0, done.stderr
    assert (out / "site" / "index.html").is_file() and (out / "index.html").is_file()


def test_a_bot_whose_folder_holds_the_tournament_is_refused_in_one_line(tmp_path: Path) -> None:
    """`bot add proj/t proj` (or `bots = [".."]`): the snapshot copied the bot
    into itself until a RecursionError's traceback."""
    bot = random_bot(tmp_path, "proj")
    folder = bot / "t"
    write(folder, [random_bot(tmp_path, n) for n in ("rc", "rd")] + [Path("..")])
    refused(cli("tournament", "run", folder),
            f"{bot}: the tournament folder {folder} is inside this bot's folder")
    toml = folder / "tournament.toml"
    toml.write_text(toml.read_text().replace(', ".."', f', "{random_bot(tmp_path, "re")}"'))
    refused(cli_here("bot", "add", folder, bot),
            f"{bot}: the tournament folder {folder} is inside this bot's folder")
    assert not (folder / "bots").exists() and not (folder / "tournament.sqlite").exists()


def test_a_byte_order_mark_before_the_toml_is_read_past(tmp_path: Path) -> None:
    """A bot.toml or tournament.toml saved by an editor that writes a UTF-8
    byte order mark (Windows Notepad) was 'not valid TOML: Invalid statement
    (at line 1, column 1)', a line that shows nothing wrong."""
    bots = [random_bot(tmp_path, n) for n in ("rb", "rc", "rd")]
    toml = bots[0] / "bot.toml"
    toml.write_bytes(b"\xef\xbb\xbf" + toml.read_bytes())
    folder = tmp_path / "t"
    write(folder, bots)
    config = folder / "tournament.toml"
    config.write_bytes(b"\xef\xbb\xbf" + config.read_bytes())
    done = cli("tournament", "status", folder)
    assert done.returncode == 0, done.stderr
    assert "rb 1.0.0" in done.stdout and "(listed; registered by the first run)" in done.stdout
