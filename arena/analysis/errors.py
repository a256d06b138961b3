"""The one error the analysis raises for what a user gave it."""

from __future__ import annotations


class AnalysisError(ValueError):
    """A replay, seat, setting or folder the analysis cannot work with; one
    line naming what is wrong and where."""
