"""Error messages with machine paths cut to file names (app.py's error
pages, the ladder's, a failed review): a module of its own, imported by
modules that app.py itself imports (web/review.py), so no cycle."""

from __future__ import annotations

import re

_PATH = re.compile(r"(?<![\w.:/])/(?:[^\s/:'\"]+/)+([^\s/:'\"]+)")


def file_names(message: str) -> str:
    """A message with each absolute path cut to its file's name: where the
    server keeps its files is nobody's business (a ladder is open to the
    network), which file it was is."""
    return _PATH.sub(r"\1", message)
