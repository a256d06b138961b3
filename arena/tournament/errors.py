"""The one base of the tournament package's errors.

Every error this package raises for a person to read (a tournament.toml
that is unusable, a store from another version, a run already going, a
field that cannot be scheduled, an executor that cannot start, ...) is a
`TournamentError`: its message is one line naming what and where, and a
command reports any of them by catching this one class. Each keeps the
built-in class it had (ValueError, RuntimeError) for callers that catch
those.
"""

from __future__ import annotations


class TournamentError(Exception):
    """A tournament, gauntlet or leaderboard operation refused, in one line."""
