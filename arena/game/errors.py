"""Errors of the rules engine (all ValueError subclasses)."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal for the acting seat in the current phase."""


class SetupError(ValueError):
    """A bad fixed deal or starting position given to `new_game`."""
