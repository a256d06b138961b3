"""Links between pages: one set for the server, one for the static export.

Templates only call these, so the same templates render the live site and
the files of `arena leaderboard publish` (relative links, no server).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode


def _q(params: dict[str, Any]) -> str:
    kept = {k: v for k, v in params.items() if v not in ("", None)}
    return ("?" + urlencode(kept)) if kept else ""


class ServerUrls:
    is_server = True

    def __init__(self, static: str = "/static") -> None:
        self._static = static

    def home(self) -> str:
        return "/"

    def static(self, name: str) -> str:
        return f"{self._static}/{name}"

    def tournament(self, t: Any) -> str:
        return f"/t/{quote(t.name)}/"

    def live(self, t: Any) -> str:
        return f"/t/{quote(t.name)}/live"

    def events(self, t: Any) -> str:
        return f"/t/{quote(t.name)}/events"

    def matches(self, t: Any, **query: Any) -> str:
        return f"/t/{quote(t.name)}/matches{_q(query)}"

    def matches_page(self, t: Any, listing: Any, page: int) -> str:
        return f"/t/{quote(t.name)}/matches{listing.link(page=page)}"

    def h2h(self, t: Any) -> str:
        return f"/t/{quote(t.name)}/h2h"

    def bot(self, t: Any, name: str) -> str:
        return f"/t/{quote(t.name)}/bot/{quote(name, safe='')}"

    def match(self, t: Any, match_id: str, **query: Any) -> str:
        return f"/t/{quote(t.name)}/match/{quote(match_id)}{_q(query)}"

    def log(self, t: Any, match_id: str, seat: int) -> str:
        return f"/t/{quote(t.name)}/log/{quote(match_id)}/{seat}"

    def replay(self, name: str) -> str:
        return f"/r/{quote(name)}"

    def table(self, t: Any, match_id: str) -> str:
        """The duplicate comparison of a match's table (server only)."""
        return f"/t/{quote(t.name)}/table/{quote(match_id)}"

    def traveller(self, t: Any, match_id: str, deal: int | str) -> str:
        return f"/t/{quote(t.name)}/table/{quote(match_id)}/deal/{deal}"


class StaticUrls:
    """Relative links inside an exported site: pages at `depth` folders below
    the site's root (0: index.html, h2h.html; 1: bot/…, match/…, matches/…)."""

    is_server = False

    def __init__(self, depth: int = 0) -> None:
        self._up = "../" * depth

    def home(self) -> str:
        return f"{self._up}index.html"

    def static(self, name: str) -> str:
        return f"{self._up}static/{name}"

    def tournament(self, t: Any) -> str:
        return f"{self._up}index.html"

    def live(self, t: Any) -> str:
        return ""

    def events(self, t: Any) -> str:
        return ""

    def matches(self, t: Any, **query: Any) -> str:
        if query.get("bot") and not query.get("vs"):
            return self.bot(t, str(query["bot"]))
        return f"{self._up}matches/1.html"

    def matches_page(self, t: Any, listing: Any, page: int) -> str:
        return f"{self._up}matches/{page}.html"

    def h2h(self, t: Any) -> str:
        return f"{self._up}h2h.html"

    def bot(self, t: Any, name: str) -> str:
        return f"{self._up}bot/{file_name(name)}.html"

    def match(self, t: Any, match_id: str, **query: Any) -> str:
        return f"{self._up}match/{file_name(match_id)}.html{_q(query)}"

    def log(self, t: Any, match_id: str, seat: int) -> str:
        return f"{self._up}log/{file_name(match_id)}-seat{seat}.txt"

    def replay(self, name: str) -> str:
        return f"{self._up}match/{file_name(name)}.html"


def file_name(text: str) -> str:
    """A name safe as one file name on every system (bot names are checked by
    bot.toml, but stores written before that may hold anything)."""
    out = "".join(c if c.isalnum() or c in "-_." else "_" for c in text).strip(".")
    return out[:120] or "_"
