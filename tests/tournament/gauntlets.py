"""`arena gauntlet` as a user runs it, with quick settings (SHORT)."""

from __future__ import annotations

import subprocess

from clihelp import cli

SHORT = ["--option", "target=500", "--option", "max_deals=4", "--sandbox", "process",
         "--time-per-move", "5", "--bank", "60", "--startup", "60", "-j", "2"]


def gauntlet(*args: object) -> subprocess.CompletedProcess[str]:
    return cli("gauntlet", *args)
