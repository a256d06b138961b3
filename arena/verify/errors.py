"""The two ways a verification stops early."""

from __future__ import annotations


class VerifyError(ValueError):
    """The bundle cannot be read (missing, truncated, not a bundle): one
    line naming the file and what is wrong with it."""


class Mismatch(Exception):
    """The bundle was read, and a check found a difference: names the
    match, deal and decision where it is known."""
