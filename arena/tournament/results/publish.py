"""Write a rating table as Markdown, JSON, CSV and one self-contained HTML page.

The output depends only on the table (no timestamps, no absolute paths), so
publishing the same results twice gives identical files, and the committed
leaderboards/ diff only when results change.
"""

from __future__ import annotations

import csv
import errno
import html
import io
import json
import os
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from arena.tournament.rating.ratings import BETA, DRAW_PROBABILITY, MU, SIGMA, TAU
from arena.tournament.results.standings import Row, Table

COLUMNS: tuple[tuple[str, str], ...] = (
    ("rank", "Rank"), ("bot", "Bot"), ("version", "Version"),
    ("conservative", "Rating (mu-3σ)"), ("mu", "mu"), ("sigma", "sigma"),
    ("rank_interval", "Rank 95%"), ("matches", "Matches"), ("wins", "Wins"),
    ("average_place", "Avg place"), ("average_deal_score", "Avg deal score"),
    ("auctions_won", "Auctions won"), ("made_percent", "Made %"),
    ("faults", "Faults (timeout/crash/illegal)"), ("sandbox", "Sandbox"),
)
NOT_EARNED = "–"  # a statistic the bot has no deal of its own for (see _footnote)
FILES = ("leaderboard.md", "leaderboard.json", "leaderboard.csv", "index.html")


def cell(row: Row, key: str) -> str:
    if key == "rank_interval":
        return f"{row.rank_low}–{row.rank_high}" if row.rank_low != row.rank_high \
            else str(row.rank_low)
    if key == "faults":
        return f"{row.timeouts}/{row.crashes}/{row.illegal + row.malformed}"
    value = getattr(row, key)
    if value is None:
        return NOT_EARNED
    if isinstance(value, float):
        return f"{value:.2f}" if key != "made_percent" else f"{value:.1f}"
    return str(value)


def to_markdown(table: Table) -> str:
    lines = [f"# Leaderboard: {table.name}", "",
             (f"Rules: {_rules_text(table)}. {table.finished} of {table.planned} matches played"
              f" ({table.duplicate_sets} duplicate set(s) per table)."), ""]
    if table.mixed_levels:
        lines += [f"**{mixed_levels_text(table)}**", ""]
    lines.append("| " + " | ".join(title for _, title in COLUMNS) + " |")
    lines.append("|" + "|".join("---:" if k not in ("bot", "version", "sandbox") else "---"
                                for k, _ in COLUMNS) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_md(cell(row, k)) for k, _ in COLUMNS) + " |")
    lines += ["", _footnote()]
    if table.seed is not None:
        lines += ["", _md(seed_text(table))]
    if table.retired:
        lines += ["", "Earlier versions (results kept apart, not rated above):", ""]
        lines += [f"- {_md(bot)} {_md(version)}: {n} matches" for bot, version, n in table.retired]
    return "\n".join(lines) + "\n"


def mixed_levels_text(table: Table) -> str:
    return (f"WARNING: {table.mixed_levels} of {table.finished} matches seated process-level bots "
            "beside confined ones (bwrap, docker): those bots were less confined than their "
            "opponents (docs/sandbox.md, 'The process level').")


def _md(text: str) -> str:
    """Text a bot supplied, as one inert Markdown table cell: no raw HTML, no
    cell break, no line break (bot.toml limits these fields; stores written
    before it did may hold anything)."""
    text = " ".join(text.split())
    return html.escape(text, quote=False).replace("|", "\\|")


def _csv_cell(value: object) -> object:
    """A cell a spreadsheet will not run as a formula (a leading = + - @ makes
    one); numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def to_json(table: Table) -> str:
    data = {
        "name": table.name, "rules": table.rules, "duplicate_sets": table.duplicate_sets,
        "matches_planned": table.planned, "matches_finished": table.finished,
        # The seed's commitment; the seed and salt are null until revealed.
        "seed": None if table.seed is None else {
            "commitment": table.seed.commitment, "scheme": 'sha256("<salt>:<seed>")',
            "seed": table.seed.seed, "salt": table.seed.salt or None},
        "matches_with_mixed_sandbox_levels": table.mixed_levels,
        "trueskill": {"mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU,
                      "draw_probability": DRAW_PROBABILITY},
        "rows": [asdict(row) for row in table.rows],
        "earlier_versions": [{"bot": b, "version": v, "matches": n}
                             for b, v, n in table.retired],
    }

    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def to_csv(table: Table) -> str:
    out = io.StringIO()
    keys = [k for k in Row.__dataclass_fields__ if k != "history"]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for row in table.rows:
        writer.writerow([_csv_cell(getattr(row, k)) for k in keys])
    return out.getvalue()


def to_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(title)}</th>" for _, title in COLUMNS)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{html.escape(cell(row, k))}</td>" for k, _ in COLUMNS) + "</tr>"
        for row in table.rows)
    retired = ""
    if table.retired:
        items = "".join(f"<li>{html.escape(b)} {html.escape(v)}: {n} matches</li>"
                        for b, v, n in table.retired)
        retired = f"<h2>Earlier versions</h2><p>Results kept apart.</p><ul>{items}</ul>"
    warning = (f'<p class="warning"><strong>{html.escape(mixed_levels_text(table))}</strong></p>\n'
               if table.mixed_levels else "")
    title = html.escape(f"Leaderboard: {table.name}")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
.wide {{ overflow-x: auto; }}
p {{ overflow-wrap: anywhere; }}
svg {{ max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: 4px 8px; text-align: right; }}
td:nth-child(2), td:nth-child(3), td:last-child {{ text-align: left; }}
th {{ background: #f0f0f0; }}
.warning {{ color: #a00; }}
</style></head>
<body>
<h1>{title}</h1>
<p>Rules: {html.escape(_rules_text(table))}. {table.finished} of {table.planned} matches played
({table.duplicate_sets} duplicate set(s) per table).</p>
{warning}<div class="wide"><table>
<thead><tr>{head}</tr></thead>
<tbody>
{body}
</tbody>
</table></div>
<p>{html.escape(_footnote())}</p>
{f"<p>{html.escape(seed_text(table))}</p>" if table.seed is not None else ""}
<h2>Rating over the matches</h2>
{svg_plot(table)}
{retired}
</body></html>
"""


_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")


def svg_plot(table: Table, width: int = 720, height: int = 320) -> str:
    """Conservative rating (mu - 3 sigma) of each bot after each of its matches."""
    series = [(row.bot, row.history) for row in table.rows if row.history]
    if not series:
        return "<p>No matches played yet.</p>"
    left, right, top, bottom = 50, 150, 10, 30
    max_step = max(s for _, h in series for s, _ in h)
    values = [v for _, h in series for _, v in h] + [0.0]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        hi = lo + 1

    def x(step: int) -> float:
        return left + (width - left - right) * (step / max_step)

    def y(value: float) -> float:
        return top + (height - top - bottom) * (1 - (value - lo) / (hi - lo))

    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
              f'viewBox="0 0 {width} {height}" role="img" aria-label="ratings over matches">'),
             (f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" '
              'stroke="#bbb" stroke-dasharray="4 3"/>'),
             (f'<text x="{left - 6}" y="{y(hi) + 4:.1f}" text-anchor="end" font-size="11">'
              f'{hi:.1f}</text>'),
             (f'<text x="{left - 6}" y="{y(lo) + 4:.1f}" text-anchor="end" font-size="11">'
              f'{lo:.1f}</text>'),
             (f'<text x="{(left + width - right) / 2:.0f}" y="{height - 6}" text-anchor="middle" '
              f'font-size="11">matches played by the bot (max {max_step})</text>')]
    for i, (bot, history) in enumerate(series):
        color = _COLORS[i % len(_COLORS)]
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in [(0, MU - 3 * SIGMA), *history])
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" '
                     f'points="{points}"><title>{html.escape(bot)}</title></polyline>')
        parts.append(f'<text x="{width - right + 8}" y="{top + 14 * (i + 1)}" font-size="12" '
                     f'fill="{color}">{html.escape(bot)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def seed_text(table: Table) -> str:
    """The seed commitment line; with the seed and salt once they are revealed."""
    d = table.seed
    if d is None:
        return ""
    # No angle brackets: the Markdown table escapes them to &lt; &gt;, which
    # is what `cat leaderboard.md` would then show.
    text = f'Tournament seed commitment: sha256("SALT:SEED") = {d.commitment}.'
    if d.seed is None:
        return text + " The seed is published once every planned match is finished."
    return text + f" Seed {d.seed}, salt {d.salt} (check: the SHA-256 of \"{d.salt}:{d.seed}\")."


def _rules_text(table: Table) -> str:
    return ", ".join(f"{k} {v}" for k, v in table.rules.items())


def _footnote() -> str:
    return (f"TrueSkill mu0={MU:g}, sigma0={SIGMA:.2f}, beta={BETA:.2f}, tau={TAU:g}, "
            f"draw probability {DRAW_PROBABILITY:g}; ranked by mu-3σ. Rank 95%: bootstrap "
            "over duplicate sets. Auctions won: deals the bot played as declarer; made %: of "
            "those, the contracts it made. Faults: timeouts/crashes/illegal or malformed moves. "
            f"{NOT_EARNED}: nothing earned to show (no auction won, or, for avg deal score, no "
            "deal of its own: the deals of a bot that forfeited without one legal move were "
            "played by the default action and are left out of its statistics).")


# How each of the four files this module writes begins (within its first
# 512 bytes); checked in every version's files, so a leaderboard published
# by an earlier version is still recognised and replaced.
_OWN_START = {"index.html": b"<title>Leaderboard: ", "leaderboard.md": b"# Leaderboard: ",
              "leaderboard.csv": b"rank,bot,", "leaderboard.json": b'"matches_planned"'}


def foreign_file(path: Path) -> bool:
    """One of the four names holding a file this arena did not write
    (`--out` a folder with a home page or a leaderboard.md of its own),
    which publishing would overwrite. An empty file holds nothing to lose."""
    if path.name not in _OWN_START or not path.is_file():
        return False
    with path.open("rb") as file:
        start = file.read(512)
    return bool(start) and _OWN_START[path.name] not in start


def publish(table: Table, out: str | Path,
            opened: Callable[[Path], None] | None = None) -> list[Path]:
    """Write the four files into `out`; returns their paths. `opened` is
    told of each file once it is open, before a byte is written into it:
    from then on the seed it may show can be out, even if this or a later
    write fails (a full disk).

    The four are written to part files first and moved over the old ones
    only once all are written: a publication that fails half way leaves the
    earlier four, never a new leaderboard.md beside an old leaderboard.json."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    texts = (to_markdown(table), to_json(table), to_csv(table), to_html(table))
    paths = [folder / name for name in FILES]
    parts = [folder / f".{name}.{os.getpid()}.part" for name in FILES]
    for path in paths:  # found now, not after the first ones are replaced
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if foreign_file(path):
            raise FileExistsError(errno.EEXIST, f"holds a file {path.name} that this "
                                  "arena did not write (not replaced: give another --out)", str(path))
    try:
        for path, part, text in zip(paths, parts, texts, strict=True):
            with part.open("w", encoding="utf-8") as file:
                if opened is not None:
                    opened(path)
                file.write(text)
        for path, part in zip(paths, parts, strict=True):
            part.replace(path)
    finally:
        for part in parts:
            part.unlink(missing_ok=True)
    return paths
