"""Static export: the player as one self-contained HTML file, and a
tournament's pages as a static site.

`replay_html(path)` is the page of `arena replay html FILE -o out.html`:
the styles, the scripts (cards.js, table.js, record.js and player.js joined into one inline
module) and the data of every view (all cards and each seat, each built by
the engine as the server would) are inside the file, which opens from
file:// with no server and no network.

`publish_site(folder, out)` writes what `arena serve` shows of a tournament
as files with relative links (`arena leaderboard publish` calls it):

    index.html        the tournament page (rules, progress, leaderboard, rating chart)
    h2h.html          head-to-head
    matches/N.html    the match list, page N
    bot/NAME.html     per-bot pages
    match/ID.html     a player per match with a replay (self-contained, as above),
                      once every seat order of its table is played
    log/ID-seatN.txt  the logs kept of faulty seats
    static/style.css
"""

from __future__ import annotations

import errno
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

from arena.referee.replay import ReplayError
from arena.web import pages
from arena.web.app import STATIC_DIR, environment, inline_json
from arena.web.replays import player_json, seats_of
from arena.web.sources import Tournament, catalog
from arena.web.urls import StaticUrls, file_name

_IMPORT = re.compile(r"^import .*? from \"\./[a-z]+\.js\";\n", re.M)
_EXPORT = re.compile(r"^export ", re.M)


# The player's modules in import order: each one's imports are of modules
# before it.
_MODULES = ("cards.js", "table.js", "record.js", "player.js")
_EXPORTED = re.compile(r"^export (?:async )?(?:function|const|let|class) ([A-Za-z_$][\w$]*)", re.M)
# A fault of a match row (pages.match_rows): "seat 1 timeout x2".
_FAULT_SEAT = re.compile(r"seat (\d+) ")


def inline_script() -> str:
    """The player's modules as one module with no imports (an inline module
    cannot import files from file://): each module but the last in a scope
    of its own (their private helpers share names), its exports handed on."""
    parts = []
    for name in _MODULES:
        code = _IMPORT.sub("", (STATIC_DIR / name).read_text(encoding="utf-8"))
        exported = _EXPORTED.findall(code)
        code = _EXPORT.sub("", code)
        if name != _MODULES[-1]:
            names = ", ".join(exported)
            code = f"const {{ {names} }} = (() => {{\n{code}\nreturn {{ {names} }};\n}})();"
        parts.append(code)
    return "\n".join(parts).replace("</script", "<\\/script")


class _SingleFile(StaticUrls):
    """Links of a lone exported player: nothing beside it to link to."""

    def home(self) -> str:
        return "#"


def replay_html(path: Path, *, urls: StaticUrls | None = None, t: Tournament | None = None,
                title: str = "") -> str:
    """The self-contained player page of one replay file; ReplayError if it
    cannot be read or re-played."""
    inline = {"all": inline_json(player_json(path, None))}  # first: it checks the whole file
    seats = seats_of(path)
    for seat in range(seats):
        inline[str(seat)] = inline_json(player_json(path, seat))
    env = environment()
    return env.get_template("player.html").render(
        u=urls or _SingleFile(), t=t, title=title or f"replay {path.name}", seats=seats,
        data_url="", viewer=None, inline=inline,
        inline_css=(STATIC_DIR / "style.css").read_text(encoding="utf-8"),
        inline_js=inline_script(), match_id=path.stem)


# What a published site holds at its top (_write_site): `publish_site`
# replaces `out` whole, so a folder holding anything else is not one.
SITE_ENTRIES = frozenset({"static", "index.html", "h2h.html", "matches", "bot", "match", "log"})


def foreign_entry(out: Path) -> str | None:
    """The first entry of an existing `out` that no published site has
    (`--out` a folder whose `site/` is someone's own), or None."""
    if not out.is_dir() or out.is_symlink():
        return None
    return next((p.name for p in sorted(out.iterdir()) if p.name not in SITE_ENTRIES), None)


def publish_site(folder: Path, out: Path) -> list[Path]:
    """Write the static site of the tournament in `folder` into `out`;
    returns the files written.

    `out` is replaced whole: the site is built in a folder beside it and
    moved in when complete, so no page of an earlier publication stays
    (a bot since gone, a match list page past the last, another
    tournament's matches), and a publication that fails half way leaves
    the earlier site as it was."""
    out = Path(out)
    foreign = foreign_entry(out)
    if foreign is not None:
        raise FileExistsError(errno.EEXIST, f"holds {foreign!r}, which no published site has "
                              "(not replaced: give another --out, or --no-site)", str(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    # A folder of this call's own beside `out` (same file system, so the
    # renames are atomic): two publications at once, from two threads or
    # processes, never build into or clean up each other's.
    # (mkdir, not mkdtemp: the site keeps the umask's modes, not 0700.)
    stem = f".{out.name}.{secrets.token_hex(8)}"
    building, old = out.parent / f"{stem}.part", out.parent / f"{stem}.old"
    building.mkdir()  # exclusive: an existing folder of that name is an error, never shared
    try:
        written = _write_site(folder, building)
        if out.is_dir() and not out.is_symlink():
            out.rename(old)
        building.rename(out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        if old.is_dir():
            if out.exists():  # another publication's site is in place: it stands
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.rename(out)  # the earlier site back
        raise
    shutil.rmtree(old, ignore_errors=True)
    return [out / path.relative_to(building) for path in written]


def _write_site(folder: Path, out: Path) -> list[Path]:
    sources = catalog([folder])
    (t,) = sources.tournaments.values()
    env = environment()
    written: list[Path] = []

    def write(rel: str, text: str) -> None:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    def render(rel: str, name: str, **context: Any) -> None:
        depth = rel.count("/")
        write(rel, env.get_template(name).render(u=StaticUrls(depth), t=t, **context))

    (out / "static").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STATIC_DIR / "style.css", out / "static" / "style.css")
    written.append(out / "static" / "style.css")
    render("index.html", "tournament.html", page=pages.tournament(t))
    render("h2h.html", "h2h.html", grid=pages.head_to_head(t))
    first = pages.match_list(t, {})
    listings = [first] + [pages.match_list(t, {"page": str(k)}) for k in range(2, first.pages + 1)]
    every = [row for listing in listings for row in listing.rows]
    # The seat orders of a table share their deals (duplicate): the rows of
    # a match whose table is not complete come without a replay
    # (browse.withheld, the rule `arena serve` follows too).
    for number, listing in enumerate(listings, 1):
        render(f"matches/{number}.html", "matches.html", listing=listing)
    for name in first.bots:
        data = pages.bot_page(t, name, sources)
        if data is not None:
            render(f"bot/{file_name(name)}.html", "bot.html", bot=data)
    for row in every:
        path = t.replay_path(row["id"])
        if path is not None and row["has_replay"]:
            try:
                page = replay_html(path, urls=StaticUrls(1), t=t,
                                   title=f"{t.name}: match {row['id']}")
            except ReplayError as exc:
                page = env.get_template("error.html").render(
                    u=StaticUrls(1), t=t, status=422, message=f"this replay cannot be shown: {exc}")
            write(f"match/{file_name(row['id'])}.html", page)
        # A public site publishes the logs of seats that had a fault, as it
        # always did: `keep_logs = "all"` keeps every seat's for the
        # organiser's own server (the bot's-eye view), not for the world.
        faulty = {int(m.group(1)) for f in row["faults"] if (m := _FAULT_SEAT.match(f))} | {
            s["seat"] for s in row["seats"] if s["status"] == "forfeit"}
        for seat in sorted(faulty) if not row["withheld"] else ():
            log = t.log_path(row["id"], seat)
            if log is not None:
                write(f"log/{file_name(row['id'])}-seat{seat}.txt",
                      log.read_text(encoding="utf-8", errors="replace"))
    return written
